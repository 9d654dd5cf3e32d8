/**
 * THE glance table. One function decides both sides of the same question, "does this command's result
 * go stale, so that running it again gives the fresh one?":
 *
 * - the delegate guard lets the coordinator run it itself (a subagent start costs ~4.3k context; paying
 *   that for an `ls` is a net loss), and
 * - the session store expires its result a few turns later (an old `git status` would otherwise sit in
 *   context for good and be mistaken for the current state).
 *
 * If the two sides used different tables, each would do harm on its own: allowed but not expired → stale
 * results pile up as "truth"; expired but not allowed → the coordinator pays 4.3k for every `ls`. The
 * invariant is pinned by test/unit/guards/glance.test.ts over a corpus with adversarial cases.
 *
 * A command is ephemeral only when it parses, and every segment (split on `&&`, `||`, `;`, `|`, `&`,
 * newlines) is a listed read-only command without a write-capable flag, without substitutions or
 * expansions, without assignments and without redirections other than to `/dev/null` or another
 * descriptor. Everything unknown is refused: a false "no" costs one subagent, a false "yes" runs an
 * arbitrary command on the main thread.
 */
import type { Locale } from "../locale/locale.js";
import { parseShell, type ShellRedirection, type ShellSegment } from "./shell-words.js";
import { EPHEMERAL_EXPIRED } from "./text.js";

/**
 * Longer input is refused unread: a glance is one line or three, and a huge command is where a payload
 * hides past what anybody (or any test) looked at.
 */
export const MAX_GLANCE_CHARS = 4_000;

interface CommandRule {
  /** The arguments after the command name; true when this use only reads. */
  check?: (args: readonly string[]) => boolean;
  /**
   * The command has no write or exec flag at all, so a word like `*` that may expand to a file named
   * `-delete` or `--output=x` cannot turn it into a writer.
   */
  globSafe?: boolean;
}

/** `--name` or `--name=value` → `name`; null for anything else. */
function longName(arg: string): string | null {
  if (!arg.startsWith("--") || arg.length === 2) return null;
  const eq = arg.indexOf("=");
  return eq < 0 ? arg.slice(2) : arg.slice(2, eq);
}

/**
 * GNU getopt_long and git's parse-options accept any unambiguous abbreviation (`--out=x` is
 * `--output=x`), so a dangerous long option is matched by prefix, not by equality.
 */
function matchesLong(arg: string, names: readonly string[]): boolean {
  const name = longName(arg);
  return name !== null && names.some((danger) => danger.startsWith(name));
}

/** The letters of a short-option cluster (`-la` → `la`); null when `arg` is not one. */
function shortCluster(arg: string): string | null {
  if (arg.length < 2 || arg[0] !== "-" || arg[1] === "-") return null;
  return arg.slice(1);
}

function hasShort(arg: string, letters: string): boolean {
  const cluster = shortCluster(arg);
  return cluster !== null && [...letters].some((letter) => cluster.includes(letter));
}

function noneOf(predicate: (arg: string) => boolean): (args: readonly string[]) => boolean {
  return (args) => !args.some(predicate);
}

/** Options git accepts before the subcommand that do not change what the subcommand may do. */
const GIT_GLOBAL_FLAGS = new Set([
  "--no-pager",
  "-P",
  "--no-optional-locks",
  "--literal-pathspecs",
  "--no-replace-objects",
]);

/** `--output` writes a file; `--ext-diff` runs a configured program; git grep `-O` opens files in a program. */
const GIT_DANGEROUS_LONG = ["output", "ext-diff", "open-files-in-pager"];

function gitReadArgs(args: readonly string[]): boolean {
  return !args.some((arg) => matchesLong(arg, GIT_DANGEROUS_LONG));
}

const GIT_READ_SUBCOMMANDS = new Set([
  "status",
  "log",
  "show",
  "diff",
  "shortlog",
  "whatchanged",
  "blame",
  "rev-parse",
  "describe",
  "ls-files",
  "ls-tree",
  "cat-file",
  "rev-list",
  "merge-base",
  "show-ref",
  "count-objects",
  "name-rev",
]);

/** Flags of a listing `git branch`; any other flag (`-d`, `-D`, `-m`, `-c`, `-u`, `-f`, ...) writes. */
const GIT_BRANCH_FLAGS = new Set([
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
  "-l",
  "--list",
  "--show-current",
  "-i",
  "--ignore-case",
  "--no-color",
  "--color",
  "--no-column",
  "--omit-empty",
]);
/** Ref filters `git branch` and `git tag` share in list mode; each takes a value. */
const GIT_REF_FILTERS = [
  "--contains",
  "--no-contains",
  "--merged",
  "--no-merged",
  "--points-at",
  "--sort",
  "--format",
];
const GIT_BRANCH_FLAGS_WITH_VALUE = new Set([...GIT_REF_FILTERS, "--abbrev", "--column", "--color"]);

/**
 * Lists refs only. A positional argument outside list mode is the name of a branch or tag to create,
 * so it is refused; in list mode it is a pattern.
 */
function gitListing(flags: ReadonlySet<string>, flagsWithValue: ReadonlySet<string>, shortLetters: string) {
  return (args: readonly string[]): boolean => {
    let listMode = false;
    const positionals: string[] = [];
    for (let i = 0; i < args.length; i += 1) {
      const arg = args[i]!;
      if (arg === "--list" || hasShort(arg, "l")) listMode = true;
      if (flags.has(arg)) continue;
      const cluster = shortCluster(arg);
      if (cluster !== null && [...cluster].every((letter) => shortLetters.includes(letter))) continue;
      const name = longName(arg);
      if (name !== null && flagsWithValue.has(`--${name}`)) {
        if (!arg.includes("=") && !flags.has(arg)) {
          const value = args[i + 1];
          if (value !== undefined && !value.startsWith("-")) i += 1;
        }
        continue;
      }
      if (/^-n\d*$/.test(arg)) continue;
      if (arg.startsWith("-")) return false;
      positionals.push(arg);
    }
    return positionals.length === 0 || listMode;
  };
}

const gitBranch = gitListing(GIT_BRANCH_FLAGS, GIT_BRANCH_FLAGS_WITH_VALUE, "arvli");
const gitTag = gitListing(
  new Set(["-l", "--list", "--no-color", "--color", "-i", "--ignore-case", "--no-column", "--omit-empty"]),
  new Set([...GIT_REF_FILTERS, "--column", "--color"]),
  "li",
);

const GIT_CONFIG_READ = new Set([
  "--list",
  "-l",
  "--get",
  "--get-all",
  "--get-regexp",
  "--global",
  "--local",
  "--system",
  "--show-origin",
  "--show-scope",
  "--name-only",
  "-z",
  "--null",
]);

function gitSubcommand(sub: string, rest: readonly string[]): boolean {
  if (GIT_READ_SUBCOMMANDS.has(sub)) return gitReadArgs(rest);
  switch (sub) {
    case "grep":
      return gitReadArgs(rest) && !rest.some((arg) => hasShort(arg, "O"));
    case "branch":
      return gitBranch(rest);
    case "tag":
      return gitTag(rest);
    case "remote":
      return (
        rest.length === 0 ||
        (rest.length === 1 && (rest[0] === "-v" || rest[0] === "--verbose")) ||
        (rest[0] === "get-url" && rest.length <= 3)
      );
    case "stash":
      return (rest[0] === "list" || rest[0] === "show") && gitReadArgs(rest);
    case "reflog":
      // Bare `git reflog` is `git reflog show`; `expire` and `delete` rewrite the reflog.
      return (rest.length === 0 || rest[0] === "show" || rest[0]!.startsWith("-")) && gitReadArgs(rest);
    case "worktree":
      return (
        rest[0] === "list" &&
        rest
          .slice(1)
          .every((arg) => arg === "--porcelain" || arg === "-v" || arg === "--verbose" || arg === "-z")
      );
    case "config": {
      const flags = rest.filter((arg) => arg.startsWith("-"));
      const reads = flags.some((arg) => arg === "--list" || arg === "-l" || arg.startsWith("--get"));
      const positionals = rest.length - flags.length;
      return reads && flags.every((arg) => GIT_CONFIG_READ.has(arg)) && positionals <= 2;
    }
    default:
      return false;
  }
}

function git(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) {
    const arg = args[i]!;
    if (GIT_GLOBAL_FLAGS.has(arg)) i += 1;
    // -C only changes the directory git reads from; -c, --config-env, --exec-path, --git-dir and
    // friends change what git runs or where it writes and are refused.
    else if (arg === "-C" && args[i + 1] !== undefined) i += 2;
    else return false;
  }
  const sub = args[i];
  return sub !== undefined && gitSubcommand(sub, args.slice(i + 1));
}

/** find's actions that run a program or write a file. find takes no abbreviations. */
const FIND_WRITERS = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
]);

/** `sed -n '1,80p' file` and friends: line-number addresses with p/q only, never a script that could w or e. */
function sed(args: readonly string[]): boolean {
  let script: string | null = null;
  let quiet = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === "-n" || arg === "--quiet" || arg === "--silent") quiet = true;
    else if (arg === "-e" && args[i + 1] !== undefined && script === null) {
      script = args[i + 1]!;
      i += 1;
    } else if (arg.startsWith("-")) return false;
    else if (script === null) script = arg;
  }
  if (!quiet || script === null) return false;
  const commands = script.split(";").map((part) => part.trim());
  return commands.every((part) => /^(\d+|\$)(,(\d+|\$|\+\d+))?[pq]$/.test(part));
}

/** `uniq in out` writes `out`: at most one file operand. */
function uniq(args: readonly string[]): boolean {
  let operands = 0;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === "-f" || arg === "-s" || arg === "-w") i += 1;
    else if (!arg.startsWith("-") || arg === "-") operands += 1;
  }
  return operands <= 1;
}

const COMMANDS: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ["git", { check: git }],
  ["ls", { globSafe: true }],
  ["pwd", {}],
  ["cat", { globSafe: true }],
  ["head", { globSafe: true }],
  // -f/-F never return: the call hangs the coordinator's turn.
  ["tail", { check: noneOf((arg) => hasShort(arg, "fF") || matchesLong(arg, ["follow", "retry"])) }],
  ["wc", { globSafe: true }],
  ["nl", { globSafe: true }],
  ["tac", { globSafe: true }],
  ["echo", { globSafe: true }],
  // printf -v assigns a shell variable instead of printing.
  ["printf", { check: (args) => !(args[0]?.startsWith("-v") ?? false) }],
  ["date", { check: noneOf((arg) => hasShort(arg, "s") || matchesLong(arg, ["set"])) }],
  ["du", { globSafe: true }],
  ["df", { globSafe: true }],
  ["stat", { globSafe: true }],
  // file -C compiles a magic file into the current directory.
  ["file", { check: noneOf((arg) => hasShort(arg, "C") || matchesLong(arg, ["compile"])) }],
  // tree -o writes its listing to a file; -R with -H writes 00Tree.html into every directory.
  // tree takes clustered short flags (`-fo out.txt`).
  ["tree", { check: noneOf((arg) => hasShort(arg, "oR") || matchesLong(arg, ["output"])) }],
  ["which", {}],
  ["type", {}],
  ["whoami", {}],
  ["id", {}],
  ["uname", {}],
  ["nproc", {}],
  ["uptime", {}],
  ["ps", {}],
  ["free", {}],
  ["basename", {}],
  ["dirname", {}],
  ["realpath", {}],
  ["readlink", {}],
  ["md5sum", { globSafe: true }],
  ["sha1sum", { globSafe: true }],
  ["sha256sum", { globSafe: true }],
  ["cut", {}],
  ["tr", {}],
  ["column", {}],
  ["cmp", {}],
  ["diff", { check: noneOf((arg) => matchesLong(arg, ["output"])) }],
  ["cd", { check: (args) => args.filter((arg) => arg !== "-L" && arg !== "-P").length <= 1 }],
  ["find", { check: noneOf((arg) => FIND_WRITERS.has(arg)) }],
  ["grep", { globSafe: true }],
  ["egrep", { globSafe: true }],
  ["fgrep", { globSafe: true }],
  // --pre and --hostname-bin run a program of the caller's choosing.
  ["rg", { check: noneOf((arg) => matchesLong(arg, ["pre", "hostname-bin"])) }],
  // -o/--output writes a file; --compress-program runs one.
  [
    "sort",
    { check: noneOf((arg) => hasShort(arg, "o") || matchesLong(arg, ["output", "compress-program"])) },
  ],
  ["uniq", { check: uniq }],
  ["sed", { check: sed }],
  ["jq", {}],
]);

/** An output redirection that writes nothing anywhere, or an input one from a plain file. */
function harmlessRedirection(redirection: ShellRedirection): boolean {
  const { operator, target } = redirection;
  switch (operator) {
    case ">&":
    case "<&":
      // `2>&1`, `>&2`: descriptor duplication. `>&file` is bash for `&>file` and writes.
      return /^\d+$/.test(target);
    case ">":
    case ">>":
    case ">|":
    case "&>":
    case "&>>":
      return target === "/dev/null";
    case "<":
      // bash opens /dev/tcp/host/port itself: a network connection, not a read.
      return target === "/dev/null" || !target.startsWith("/dev/");
    default:
      // `<>` creates the file; here-docs and here-strings feed input whose expansions run.
      return false;
  }
}

function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

function segmentIsEphemeral(segment: ShellSegment): boolean {
  if (segment.dangers.length > 0 || segment.assignments.length > 0) return false;
  if (!segment.redirections.every(harmlessRedirection)) return false;
  const [name, ...args] = segment.argv;
  const first = segment.words[0];
  if (name === undefined || first === undefined) return false;
  // `ɡit` (U+0261) or a zero-width joiner renders like `git` in a log yet names another program; a path
  // (`/tmp/ls`) or a quoted name (`'ls'` to skip an alias or function) is not the command on the list.
  if (first.quoted || !isPrintableAscii(name) || name.includes("/")) return false;
  const rule = COMMANDS.get(name);
  if (rule === undefined) return false;
  if (!rule.globSafe && segment.words.slice(1).some((word) => word.leadingGlob)) return false;
  return rule.check === undefined || rule.check(args);
}

/**
 * True when re-running `command` gives the fresh result and running it changes nothing: the coordinator
 * may run it itself, and its result expires in the store. See the module comment for the rules.
 */
export function isEphemeral(command: string): boolean {
  if (typeof command !== "string" || command.length > MAX_GLANCE_CHARS || command.trim() === "") return false;
  // Control characters (other than tab and newline) are never typed by a model for a glance; a carriage
  // return can hide the rest of a line from a terminal or a log.
  for (let i = 0; i < command.length; i += 1) {
    const code = command.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) return false;
  }
  const parsed = parseShell(command);
  if (!parsed.parseable || parsed.segments.length === 0) return false;
  return parsed.segments.every(segmentIsEphemeral);
}

/** Longest label; the expiry hint stays one short line. */
const LABEL_CHARS = 60;

/**
 * A one-line rendering of a command for the expiry hint: whitespace collapsed, backticks (which would
 * break the hint's own quoting) replaced, long commands cut with `…`.
 */
export function ephemeralLabel(command: string): string {
  const flat = command.replace(/\s+/g, " ").trim().replaceAll("`", "'");
  return flat.length > LABEL_CHARS ? `${flat.slice(0, LABEL_CHARS - 1)}…` : flat;
}

/** The text that replaces an expired glance result, e.g. ``[`git status -s` 的结果已过期(第 7 轮前),...]``. */
export function ephemeralExpiredHint(command: string, turnsAgo: number, locale: Locale): string {
  return EPHEMERAL_EXPIRED[locale](ephemeralLabel(command), turnsAgo);
}
