/**
 * How the glance table reads a command's arguments: long options by unambiguous prefix (as GNU getopt
 * and git's parse-options accept them), short-option clusters, and the rule shape every listed command has.
 */

export interface CommandRule {
  /** The arguments after the command name; true when this use only reads. */
  check?: (args: readonly string[]) => boolean;
  /**
   * The command has no write or exec flag at all, so a word like `*` that may expand to a file named
   * `-delete` or `--output=x` cannot turn it into a writer.
   */
  globSafe?: boolean;
}

/** `--name` or `--name=value` → `name`; null for anything else. */
export function longName(arg: string): string | null {
  if (!arg.startsWith("--") || arg.length === 2) return null;
  const eq = arg.indexOf("=");
  return eq < 0 ? arg.slice(2) : arg.slice(2, eq);
}

/**
 * GNU getopt_long and git's parse-options accept any unambiguous abbreviation (`--out=x` is
 * `--output=x`), so a dangerous long option is matched by prefix, not by equality.
 */
export function matchesLong(arg: string, names: readonly string[]): boolean {
  const name = longName(arg);
  return name !== null && names.some((danger) => danger.startsWith(name));
}

/** The letters of a short-option cluster (`-la` → `la`); null when `arg` is not one. */
export function shortCluster(arg: string): string | null {
  if (arg.length < 2 || arg[0] !== "-" || arg[1] === "-") return null;
  return arg.slice(1);
}

export function hasShort(arg: string, letters: string): boolean {
  const cluster = shortCluster(arg);
  return cluster !== null && [...letters].some((letter) => cluster.includes(letter));
}

export function noneOf(predicate: (arg: string) => boolean): (args: readonly string[]) => boolean {
  return (args) => !args.some(predicate);
}
