/**
 * A second, independent reading of a shell command, as a differential oracle for the glance guard:
 * tree-sitter's bash grammar (the `tree-sitter-bash` package's WebAssembly build, run by
 * `web-tree-sitter`; both dev dependencies). It shares no code with `src/glance/shell-words.ts`: the
 * grammar decides what is a command, a word, a quote, an expansion or a redirection.
 *
 * The oracle is deliberately narrow. A command passes only when its tree holds nothing but lists,
 * pipelines and simple commands whose name is a listed command, whose words are literal (plain, quoted
 * or escaped text: no expansion or substitution of any kind, no assignment), and whose redirections write
 * nowhere (`/dev/null`, descriptor duplication) or read a plain file. The words it read are then given to
 * the listed command's own flag rules, so a tokenizer that splits or unquotes a word differently from
 * bash shows up as a disagreement. A word with an unquoted glob character anywhere is refused for a
 * command that has write flags: `-de*` expands to `-delete` as surely as `*` does.
 */
import { createRequire } from "node:module";
import { Language, Parser, type Node } from "web-tree-sitter";
import { COMMANDS } from "../../../src/glance/command-table.js";

export interface OracleVerdict {
  /** The command only runs listed read-only commands. */
  readOnly: boolean;
  /** Why not, when it does not. */
  reason?: string;
  /** Each simple command's words, as the grammar read them. */
  commands: string[][];
}

let parser: Parser | undefined;

/** Loads the grammar once per process. */
export async function loadOracle(): Promise<void> {
  if (parser) return;
  const require = createRequire(import.meta.url);
  await Parser.init();
  const bash = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  parser = new Parser();
  parser.setLanguage(bash);
}

class Refused extends Error {}

function refuse(reason: string): never {
  throw new Refused(reason);
}

const OPERATORS = new Set(["&&", "||", "|", "|&", ";", "&", "\n"]);
const GLOB = /[*?[]/;

/** Bash's quote removal on an unquoted word: a backslash keeps the next character, a line continuation vanishes. */
function unescapeWord(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and a newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\([$`"\\])/g, "$1");
}

interface Word {
  text: string;
  /** An unquoted glob character appears somewhere in the word. */
  glob: boolean;
}

/** The literal value of a word node; refuses anything whose value is only known when bash runs it. */
function literal(node: Node): Word {
  switch (node.type) {
    case "word":
    case "number": {
      const text = node.text;
      // Brace expansion turns one word into several; the guard's table never sees them.
      if (/\{[^}]*(,|\.\.)[^}]*\}/.test(text.replace(/\\./g, ""))) refuse(`brace expansion in ${text}`);
      // A leading `~` or `~user` expands to one path, never to a flag or to several words: allowed.
      return { text: unescapeWord(text), glob: GLOB.test(text.replace(/\\./g, "")) };
    }
    case "raw_string":
      return { text: node.text.slice(1, -1), glob: false };
    case "string": {
      for (const child of node.namedChildren) {
        if (child && child.type !== "string_content") refuse(`${child.type} inside double quotes`);
      }
      return { text: unescapeDoubleQuoted(node.text.slice(1, -1)), glob: false };
    }
    case "concatenation": {
      const children = node.children.filter((child): child is Node => child !== null);
      // The grammar splits `{a,b}` into several words; the braces are seen on the whole argument.
      const shape = children.map((child) => (child.type === "word" ? child.text : "Q")).join("");
      if (/\{[^}]*(,|\.\.)[^}]*\}/.test(shape.replace(/\\./g, ""))) refuse(`brace expansion in ${node.text}`);
      const parts = children.map(literal);
      return { text: parts.map((part) => part.text).join(""), glob: parts.some((part) => part.glob) };
    }
    default:
      return refuse(`${node.type} (${JSON.stringify(node.text)})`);
  }
}

/**
 * Checks one redirection and returns the words the grammar attached to it after its target. The
 * grammar reads `ls > /dev/null 2>&1 -la` with `-la` as a second destination of `2>&1`; bash reads it
 * as an argument of `ls`, so those words go back to the command.
 */
function checkRedirect(node: Node): Node[] {
  if (node.type !== "file_redirect") refuse(node.type);
  const [destination, ...extra] = node.childrenForFieldName("destination").filter((child) => child !== null);
  const operator = node.children.find(
    (child) => child !== null && !child.isNamed && /^[<>&|]+$/.test(child.type),
  )?.type;
  if (!destination || !operator) refuse(`redirection ${node.text}`);
  const target = literal(destination).text;
  if (operator === ">&") {
    if (target !== "1" && target !== "2") refuse(`descriptor redirection to ${target}`);
  } else if ([">", ">>", ">|", "&>", "&>>"].includes(operator)) {
    if (target !== "/dev/null") refuse(`output redirected to ${target}`);
  } else if (operator === "<") {
    if (target.startsWith("/dev/") && target !== "/dev/null") refuse(`input from ${target}`);
  } else {
    refuse(`redirection ${operator}`);
  }
  return extra;
}

/** Words the grammar attached to a redirection, by the start of the command bash gives them to. */
const extraWords = new Map<number, Node[]>();

function checkCommand(node: Node, commands: string[][]): void {
  const trailing = extraWords.get(node.startIndex) ?? [];
  const words: Word[] = [];
  let nameSeen = false;
  for (const child of node.children) {
    if (child === null) continue;
    if (child.type === "command_name") {
      const inner = child.namedChildren[0];
      // A quoted or escaped name (`'ls'`, `l\s`) skips aliases and functions: not the listed command.
      if (!inner || inner.type !== "word" || /['"\\]/.test(inner.text))
        refuse(`command name ${child.text} is not a plain word`);
      words.push(literal(inner));
      nameSeen = true;
    } else if (child.type.endsWith("_redirect")) {
      words.push(...checkRedirect(child).map(literal));
    } else if (child.isNamed) {
      if (!nameSeen) refuse(`${child.type} before the command name`);
      words.push(literal(child));
    } else if (child.type === "$" && nameSeen) {
      // A `$` followed by a blank is a literal dollar sign in bash; the grammar leaves it as a bare token.
      words.push({ text: "$", glob: false });
    } else {
      refuse(`token ${JSON.stringify(child.type)} in a command`);
    }
  }
  words.push(...trailing.map(literal));
  const [name, ...args] = words;
  if (!name) refuse("command without a name");
  commands.push(words.map((word) => word.text));
  const rule = COMMANDS.get(name.text);
  if (!rule || name.glob || !/^[\x21-\x7e]+$/.test(name.text) || name.text.includes("/"))
    refuse(`${JSON.stringify(name.text)} is not a listed command`);
  if (!rule.globSafe && args.some((word) => word.glob)) refuse(`glob in an argument of ${name.text}`);
  if (rule.check && !rule.check(args.map((word) => word.text)))
    refuse(`${name.text} ${args.map((word) => word.text).join(" ")} uses a writing flag`);
}

function walk(node: Node, commands: string[][]): void {
  switch (node.type) {
    case "program":
    case "list":
    case "pipeline":
      for (const child of node.children) {
        if (child === null) continue;
        if (child.isNamed) walk(child, commands);
        else if (!OPERATORS.has(child.type)) refuse(`operator ${JSON.stringify(child.type)}`);
      }
      return;
    case "comment":
      return;
    case "redirected_statement": {
      const body = node.childForFieldName("body");
      const trailing: Node[] = [];
      for (const child of node.children) {
        if (child === null || (body && child.startIndex === body.startIndex && child.type === body.type))
          continue;
        if (child.isNamed) trailing.push(...checkRedirect(child));
        else refuse(`token ${JSON.stringify(child.type)}`);
      }
      if (!body) refuse("redirection without a command");
      // The grammar hangs `a && b 2>/dev/null c` on the whole list; bash gives the redirection and the
      // words after it to the command just before it, the rightmost one of the body.
      let last: Node = body;
      while (last.type !== "command") {
        const next = last.namedChildren.filter((child): child is Node => child !== null).at(-1);
        if (!next || !["list", "pipeline", "redirected_statement", "command"].includes(next.type))
          refuse(`redirected ${last.type}`);
        last = next;
      }
      if (trailing.length > 0) extraWords.set(last.startIndex, trailing);
      walk(body, commands);
      return;
    }
    case "command":
      checkCommand(node, commands);
      return;
    default:
      refuse(`${node.type} (${JSON.stringify(node.text.slice(0, 40))})`);
  }
}

/**
 * Bash removes a backslash-newline before it splits words (`abc\<newline>def` is one word, `abcdef`),
 * except inside single quotes and comments; tree-sitter's grammar treats it as a blank between words.
 * So the oracle applies bash's rule first and lets the grammar read the joined line.
 */
export function joinContinuations(command: string): string {
  let out = "";
  let single = false;
  let double = false;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i]!;
    if (single) {
      if (c === "'") single = false;
      out += c;
    } else if (c === "\\") {
      if (command[i + 1] === "\n") i += 1;
      else {
        out += c + (command[i + 1] ?? "");
        i += 1;
      }
    } else if (c === "'" && !double) {
      single = true;
      out += c;
    } else if (c === '"') {
      double = !double;
      out += c;
    } else if (c === "#" && !double && (i === 0 || /[\s;&|()]/.test(command[i - 1]!))) {
      const end = command.indexOf("\n", i);
      const stop = end === -1 ? command.length : end;
      out += command.slice(i, stop);
      i = stop - 1;
    } else {
      out += c;
    }
  }
  return out;
}

/** The oracle's verdict on `command`. Call `loadOracle()` first. */
export function oracle(command: string): OracleVerdict {
  if (!parser) throw new Error("call loadOracle() before oracle()");
  const tree = parser.parse(joinContinuations(command));
  if (!tree) return { readOnly: false, reason: "no tree", commands: [] };
  const commands: string[][] = [];
  extraWords.clear();
  try {
    if (tree.rootNode.hasError) refuse("the grammar found a syntax error");
    walk(tree.rootNode, commands);
    if (commands.length === 0) refuse("no command");
    return { readOnly: true, commands };
  } catch (error) {
    if (error instanceof Refused) return { readOnly: false, reason: error.message, commands };
    throw error;
  } finally {
    tree.delete();
  }
}
