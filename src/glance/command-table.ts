/**
 * The glance table's commands: each is read-only, its result goes stale, and running it again gives
 * the fresh one. A rule's `check` refuses the flags that would make the command write or run a program.
 */
import { hasShort, matchesLong, noneOf, type CommandRule } from "./arguments.js";
import { git } from "./git-rules.js";

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

export const COMMANDS: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
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
