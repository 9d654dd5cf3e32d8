/**
 * What a printed line says for the person to type, read as a person reads it: the mentions of a
 * `flower` command in a line (`npx flower show demo`, `(see flower --help)`), and which of them do not
 * start the way the person's shell reaches flower. The unit test walks every text table with it; the
 * installed-package test reads the commands' real output with it.
 */

const COMMAND_WORDS =
  'continue|say|show|runs|report|forget|handoff|submit|worker|approve|cancel|demo|diff|apply|discard|fetch|rewind|serve|--help|--version|--yes|-v|--|"<task>"|"<任务>"';

/** `flower <command>` (or `npx flower <command>`), a command word after it. */
const MENTION = new RegExp(`(npx )?flower (${COMMAND_WORDS})(?=[\\s,、:;:)。?]|$)`, "gu");

/**
 * Mentions that say what was done (`rewound … (flower rewind)`, a person's `flower handoff` or `flower say`), not a
 * line to type.
 */
const NOT_TO_TYPE = [/\(flower rewind\)/u, /(\(|via |用 |with )flower handoff/u, /\(flower say[;,),]/u];

/**
 * The mentions of a command in `line` that do not start with `invocation` (`flower` or `npx flower`),
 * each with the line it is in. The program naming itself before its message (`flower show: no step …`,
 * `flower demo — …`) is not a line to type.
 */
export function mistyped(line: string, invocation: "flower" | "npx flower"): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(MENTION)) {
    const npx = match[1] !== undefined;
    if (npx === (invocation === "npx flower")) continue;
    const start = match.index + (npx ? 4 : 0);
    if (!npx && start === 0 && /^flower( [a-z-]+)?(:| —|$)/u.test(line)) continue;
    const around = line.slice(Math.max(0, start - 16), start + match[0].length + 16);
    if (!npx && NOT_TO_TYPE.some((pattern) => pattern.test(around))) continue;
    found.push(`${match[0]}  ←  ${line.slice(0, 200)}`);
  }
  return found;
}
