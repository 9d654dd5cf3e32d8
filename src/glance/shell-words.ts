/**
 * A POSIX-ish shell tokenizer for one purpose: deciding whether a Bash command the coordinator sends is
 * a harmless glance. It walks the command once, character by character, the way bash reads it (quotes,
 * escapes, operators, redirections, expansions), so that what the guard checks is what bash would run.
 *
 * Why not regexes over the raw string: the first glance guard rejected anything containing `&&`, `|` or
 * `2>&1` and so rejected every realistic glance (`git status -s && echo "--- LOG ---" && git log ...`);
 * a naive split on `&&` on the other hand lets `echo "a && b"` or `ls '; rm -rf x'` be cut in the wrong
 * place. Only a real tokenizer gets both right.
 *
 * It does not execute or expand anything. Constructs whose result is only known at run time (command and
 * process substitution, parameter expansion, ...) are reported as dangers for the caller to refuse.
 *
 * Longer than the house's 330 lines on purpose, and kept whole: the Tokenizer is one state machine over
 * one cursor (quotes, escapes, operators, redirections and expansions each read the same position and
 * hand it on), so its states cut into files would share that cursor through a wider interface and a
 * reader could no longer check in one place that every character is consumed exactly once.
 */

/** Separates two simple commands. `newline` is a literal line break outside quotes. */
export type ShellOperator = "&&" | "||" | ";" | "|" | "|&" | "&" | "newline";

/** A construct whose effect cannot be read off the text. */
export type ShellDanger =
  | "command-substitution"
  | "backtick"
  | "process-substitution"
  | "parameter-expansion"
  | "arithmetic"
  | "dollar-quote"
  | "subshell"
  | "brace-expansion"
  | "heredoc"
  | "here-string"
  /** `10#x`: a plain word to bash, a based number to other shell grammars; a glance never needs it. */
  | "hash-in-word";

export interface ShellWord {
  /** The word after quote removal (expansions are left as written). */
  text: string;
  /** The word as it stands in the source. */
  raw: string;
  /** Some part of the word was quoted or escaped. */
  quoted: boolean;
  /**
   * The word starts with an unquoted `*`, `?` or `[`: it may expand to a file name that looks like a
   * flag (a file called `-delete` turns `find *` into a delete).
   */
  leadingGlob: boolean;
  /**
   * An unquoted `*`, `?` or `[` anywhere in the word: it may expand to several words (`uniq x*` can
   * become `uniq in out`, which writes `out`) or to a flag (`-de*` matches a file called `-delete`).
   */
  glob: boolean;
}

export type ShellRedirectionOperator =
  ">" | ">>" | ">|" | "<" | "<>" | ">&" | "<&" | "&>" | "&>>" | "<<" | "<<-" | "<<<";

export interface ShellRedirection {
  operator: ShellRedirectionOperator;
  /** The explicit file descriptor before the operator (`2` in `2>&1`); null when none was written. */
  fd: number | null;
  /** The target after quote removal: a path, a descriptor (`1`, `-`), a here-doc delimiter or a here-string. */
  target: string;
  /** Here-doc body, for `<<` and `<<-`. */
  body?: string;
}

export interface ShellSegment {
  /** The command words after quote removal, assignments excluded. */
  argv: string[];
  words: ShellWord[];
  /** Leading `NAME=value` words, as written. */
  assignments: string[];
  redirections: ShellRedirection[];
  /** Each danger found anywhere in this segment, once. */
  dangers: ShellDanger[];
  /** The operator that ended this segment; null for the last one. */
  operator: ShellOperator | null;
}

export interface ShellParse {
  /** False for input bash would reject or keep reading (unterminated quote, `&&` at the end, ...). */
  parseable: boolean;
  /** Why the input is unparseable. */
  error?: string;
  segments: ShellSegment[];
}

class Unparseable extends Error {}

const BLANK = new Set([" ", "\t"]);
/** Characters that end an unquoted word. */
const META = new Set([" ", "\t", "\n", "&", "|", ";", "(", ")", "<", ">"]);
const SPECIAL_PARAMETERS = new Set(["@", "*", "#", "?", "$", "!", "-"]);
/** After these the command line is not finished; line breaks are skipped until the next command. */
const CONTINUING: ReadonlySet<ShellOperator> = new Set(["&&", "||", "|", "|&"]);

function isNameStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_");
}

function isNameChar(c: string | undefined): boolean {
  return isNameStart(c) || (c !== undefined && c >= "0" && c <= "9");
}

function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (const c of s) if (c < "0" || c > "9") return false;
  return true;
}

/** `NAME=`, `NAME+=` or `NAME[...]=` at the start of the raw word, all unquoted. */
function isAssignment(raw: string): boolean {
  if (!isNameStart(raw[0])) return false;
  let i = 1;
  while (isNameChar(raw[i])) i += 1;
  if (raw[i] === "[") {
    const close = raw.indexOf("]", i);
    if (close < 0) return false;
    i = close + 1;
  }
  if (raw[i] === "+") i += 1;
  return raw[i] === "=";
}

interface PendingHeredoc {
  redirection: ShellRedirection;
  stripTabs: boolean;
}

class Tokenizer {
  private i = 0;
  private readonly segments: ShellSegment[] = [];
  private current = Tokenizer.emptySegment();
  private dangers = new Set<ShellDanger>();
  private pendingHeredocs: PendingHeredoc[] = [];
  /** The last operator needs a command after it (`&&`, `||`, `|`). */
  private expectCommand = false;

  constructor(private readonly s: string) {}

  private static emptySegment(): ShellSegment {
    return { argv: [], words: [], assignments: [], redirections: [], dangers: [], operator: null };
  }

  parse(): ShellSegment[] {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (BLANK.has(c)) {
        this.i += 1;
      } else if (c === "\\" && s[this.i + 1] === "\n") {
        this.i += 2;
      } else if (c === "#") {
        while (this.i < s.length && s[this.i] !== "\n") this.i += 1;
      } else if (c === "\n") {
        this.i += 1;
        this.readHeredocBodies();
        this.endSegment("newline");
      } else if (c === "&") {
        if (s[this.i + 1] === "&") this.operator("&&", 2);
        else if (s[this.i + 1] === ">") this.redirection(null);
        else this.operator("&", 1);
      } else if (c === "|") {
        if (s[this.i + 1] === "|") this.operator("||", 2);
        else if (s[this.i + 1] === "&") this.operator("|&", 2);
        else this.operator("|", 1);
      } else if (c === ";") {
        if (s[this.i + 1] === ";" || s[this.i + 1] === "&")
          throw new Unparseable("case terminator outside case");
        this.operator(";", 1);
      } else if (c === "(" || c === ")") {
        this.dangers.add("subshell");
        this.i += 1;
      } else if ((c === "<" || c === ">") && s[this.i + 1] !== "(") {
        this.redirection(null);
      } else {
        const word = this.readWord();
        const next = s[this.i];
        if ((next === "<" || next === ">") && !word.quoted && isDigits(word.raw) && s[this.i + 1] !== "(") {
          this.redirection(Number(word.raw));
        } else {
          this.addWord(word);
        }
      }
    }
    if (this.pendingHeredocs.length > 0) throw new Unparseable("here-document without its body");
    if (this.expectCommand && this.isEmpty(this.current))
      throw new Unparseable("command line ends with an operator");
    this.endSegment(null);
    return this.segments;
  }

  private addWord(word: ShellWord): void {
    const segment = this.current;
    if (segment.argv.length === 0 && !word.quoted && isAssignment(word.raw)) {
      segment.assignments.push(word.raw);
      return;
    }
    segment.words.push(word);
    segment.argv.push(word.text);
  }

  private isEmpty(segment: ShellSegment): boolean {
    return (
      segment.words.length === 0 && segment.assignments.length === 0 && segment.redirections.length === 0
    );
  }

  private operator(op: ShellOperator, width: number): void {
    this.i += width;
    if (this.isEmpty(this.current)) {
      throw new Unparseable(`operator ${op} without a command before it`);
    }
    this.endSegment(op);
    this.expectCommand = CONTINUING.has(op);
  }

  private endSegment(op: ShellOperator | null): void {
    const segment = this.current;
    segment.dangers = [...this.dangers];
    if (this.isEmpty(segment)) {
      // A blank line, a comment line or the end: nothing to record. A stray danger (a lone `(`) still
      // has to surface, so it goes into an empty segment that no table can allow.
      if (segment.dangers.length > 0) {
        segment.operator = op;
        this.segments.push(segment);
      }
    } else {
      segment.operator = op;
      this.segments.push(segment);
      this.expectCommand = false;
    }
    this.current = Tokenizer.emptySegment();
    this.dangers = new Set();
  }

  private redirection(fd: number | null): void {
    const s = this.s;
    let op: ShellRedirectionOperator;
    const two = s.slice(this.i, this.i + 2);
    const three = s.slice(this.i, this.i + 3);
    if (three === "<<<") op = "<<<";
    else if (three === "<<-") op = "<<-";
    else if (three === "&>>") op = "&>>";
    else if (
      two === "<<" ||
      two === ">>" ||
      two === ">|" ||
      two === "<>" ||
      two === ">&" ||
      two === "<&" ||
      two === "&>"
    ) {
      op = two;
    } else op = s[this.i] === "<" ? "<" : ">";
    this.i += op.length;
    while (this.i < s.length && BLANK.has(s[this.i]!)) this.i += 1;
    const next = s[this.i];
    if (
      next === undefined ||
      (META.has(next) && !((next === "<" || next === ">") && s[this.i + 1] === "("))
    ) {
      throw new Unparseable(`redirection ${op} without a target`);
    }
    const target = this.readWord();
    const redirection: ShellRedirection = { operator: op, fd, target: target.text };
    this.current.redirections.push(redirection);
    if (op === "<<" || op === "<<-") {
      this.dangers.add("heredoc");
      this.pendingHeredocs.push({ redirection, stripTabs: op === "<<-" });
    } else if (op === "<<<") {
      this.dangers.add("here-string");
    }
  }

  /** Consumes the bodies of the here-docs opened on the line that just ended. */
  private readHeredocBodies(): void {
    const s = this.s;
    for (const pending of this.pendingHeredocs) {
      const lines: string[] = [];
      let closed = false;
      while (this.i < s.length) {
        const end = s.indexOf("\n", this.i);
        const lineEnd = end < 0 ? s.length : end;
        let line = s.slice(this.i, lineEnd);
        this.i = end < 0 ? s.length : end + 1;
        if (pending.stripTabs) line = line.replace(/^\t+/, "");
        if (line === pending.redirection.target) {
          closed = true;
          break;
        }
        lines.push(line);
      }
      if (!closed) throw new Unparseable("here-document not terminated");
      pending.redirection.body = lines.join("\n");
    }
    this.pendingHeredocs = [];
  }

  private readWord(): ShellWord {
    const s = this.s;
    const start = this.i;
    let text = "";
    let quoted = false;
    let leadingGlob = false;
    let glob = false;
    let braceOpen = false;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if ((c === "<" || c === ">") && s[this.i + 1] === "(") {
        this.dangers.add("process-substitution");
        const from = this.i;
        this.skipBalanced(this.i + 1);
        text += s.slice(from, this.i);
        continue;
      }
      if (META.has(c)) break;
      if (c === "\\") {
        const next = s[this.i + 1];
        if (next === "\n") {
          this.i += 2;
        } else if (next === undefined) {
          text += "\\";
          this.i += 1;
        } else {
          text += next;
          quoted = true;
          this.i += 2;
        }
      } else if (c === "'") {
        const close = s.indexOf("'", this.i + 1);
        if (close < 0) throw new Unparseable("unterminated single quote");
        text += s.slice(this.i + 1, close);
        quoted = true;
        this.i = close + 1;
      } else if (c === '"') {
        text += this.readDoubleQuoted();
        quoted = true;
      } else if (c === "$") {
        text += this.readDollar(false);
      } else if (c === "`") {
        text += this.readBacktick();
      } else {
        if (c === "*" || c === "?" || c === "[") {
          glob = true;
          if (this.i === start) leadingGlob = true;
        }
        if (c === "{") braceOpen = true;
        if (c === "#" && this.i !== start) this.dangers.add("hash-in-word");
        if (braceOpen && (c === "," || (c === "." && s[this.i + 1] === ".")))
          this.dangers.add("brace-expansion");
        text += c;
        this.i += 1;
      }
    }
    return { text, raw: s.slice(start, this.i), quoted, leadingGlob, glob };
  }

  /** At an opening `"`; returns the content after quote removal. */
  private readDoubleQuoted(): string {
    const s = this.s;
    this.i += 1;
    let text = "";
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === '"') {
        this.i += 1;
        return text;
      }
      if (c === "\\") {
        const next = s[this.i + 1];
        if (next === "\n") {
          this.i += 2;
        } else if (next === "$" || next === "`" || next === '"' || next === "\\") {
          text += next;
          this.i += 2;
        } else {
          text += "\\";
          this.i += 1;
        }
      } else if (c === "$") {
        text += this.readDollar(true);
      } else if (c === "`") {
        text += this.readBacktick();
      } else {
        text += c;
        this.i += 1;
      }
    }
    throw new Unparseable("unterminated double quote");
  }

  /** At a `$`; records the expansion it starts, if any, and returns its source text. */
  private readDollar(inDoubleQuotes: boolean): string {
    const s = this.s;
    const from = this.i;
    const next = s[this.i + 1];
    if (next === "(") {
      this.dangers.add(s[this.i + 2] === "(" ? "arithmetic" : "command-substitution");
      this.skipBalanced(this.i + 1);
    } else if (next === "{") {
      this.dangers.add("parameter-expansion");
      this.skipBraces(this.i + 1);
    } else if (next === "[") {
      // `$[1+2]`: bash's old arithmetic expansion (found by the differential fuzz: `ls $[` was allowed
      // although bash cannot even parse it).
      this.dangers.add("arithmetic");
      this.skipNested(this.i + 1, "[", "]");
    } else if (next === "'" && !inDoubleQuotes) {
      this.dangers.add("dollar-quote");
      let j = this.i + 2;
      while (j < s.length && s[j] !== "'") j += s[j] === "\\" ? 2 : 1;
      if (j >= s.length) throw new Unparseable("unterminated $'...' quote");
      this.i = j + 1;
    } else if (next === '"' && !inDoubleQuotes) {
      this.dangers.add("dollar-quote");
      this.i += 1;
      this.readDoubleQuoted();
    } else if (isNameStart(next)) {
      this.dangers.add("parameter-expansion");
      this.i += 2;
      while (isNameChar(s[this.i])) this.i += 1;
    } else if (next !== undefined && ((next >= "0" && next <= "9") || SPECIAL_PARAMETERS.has(next))) {
      this.dangers.add("parameter-expansion");
      this.i += 2;
    } else {
      // A `$` that starts nothing is a literal dollar sign in bash, but the two grammars disagree about
      // what follows it (`$\ ` is an expansion to tree-sitter). Outside double quotes a glance never
      // needs one, so it is refused rather than guessed at (found by the differential fuzz).
      if (!inDoubleQuotes) this.dangers.add("parameter-expansion");
      this.i += 1;
    }
    return s.slice(from, this.i);
  }

  /** At an opening backtick; skips to the closing one. */
  private readBacktick(): string {
    const s = this.s;
    this.dangers.add("backtick");
    const from = this.i;
    let j = this.i + 1;
    while (j < s.length && s[j] !== "`") j += s[j] === "\\" ? 2 : 1;
    if (j >= s.length) throw new Unparseable("unterminated backtick");
    this.i = j + 1;
    return s.slice(from, this.i);
  }

  /**
   * At `(`; moves past its matching `)`, honouring quotes and nesting. The content is not analysed: the
   * caller has already recorded a danger that refuses the whole command.
   */
  private skipBalanced(open: number): void {
    this.skipNested(open, "(", ")");
  }

  private skipBraces(open: number): void {
    this.skipNested(open, "{", "}");
  }

  private skipNested(open: number, opener: string, closer: string): void {
    const s = this.s;
    let depth = 0;
    let j = open;
    while (j < s.length) {
      const c = s[j]!;
      if (c === "\\") {
        j += 2;
        continue;
      }
      if (c === "'") {
        const close = s.indexOf("'", j + 1);
        if (close < 0) throw new Unparseable("unterminated single quote");
        j = close + 1;
        continue;
      }
      if (c === '"' || c === "`") {
        let k = j + 1;
        while (k < s.length && s[k] !== c) k += s[k] === "\\" ? 2 : 1;
        if (k >= s.length) throw new Unparseable(`unterminated ${c === '"' ? "double quote" : "backtick"}`);
        j = k + 1;
        continue;
      }
      if (c === opener) depth += 1;
      else if (c === closer) {
        depth -= 1;
        if (depth === 0) {
          this.i = j + 1;
          return;
        }
      }
      j += 1;
    }
    throw new Unparseable(`unbalanced ${opener}`);
  }
}

/**
 * Splits a command line into simple commands with their words (quotes removed), leading assignments,
 * redirections and dangerous constructs. Never throws: input bash would not accept comes back with
 * `parseable: false`.
 */
export function parseShell(command: string): ShellParse {
  try {
    return { parseable: true, segments: new Tokenizer(command).parse() };
  } catch (error) {
    if (error instanceof Unparseable) return { parseable: false, error: error.message, segments: [] };
    throw error;
  }
}
