/**
 * Which git invocations only read. git is the one command whose subcommands range from pure reads
 * (`status`, `log`) to history rewrites, so it gets a table of its own; everything not listed is refused.
 */
import { hasShort, longName, matchesLong, shortCluster } from "./arguments.js";

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

export function git(args: readonly string[]): boolean {
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
