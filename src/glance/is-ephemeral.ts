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
 * invariant is pinned by test/unit/glance/glance.test.ts over a corpus with adversarial cases.
 *
 * A command is ephemeral only when it parses, and every segment (split on `&&`, `||`, `;`, `|`, `&`,
 * newlines) is a listed read-only command without a write-capable flag, without substitutions or
 * expansions, without assignments and without redirections other than to `/dev/null` or another
 * descriptor. Everything unknown is refused: a false "no" costs one subagent, a false "yes" runs an
 * arbitrary command on the main thread.
 */
import { COMMANDS } from "./command-table.js";
import { parseShell, type ShellRedirection, type ShellSegment } from "./shell-words.js";

/**
 * Longer input is refused unread: a glance is one line or three, and a huge command is where a payload
 * hides past what anybody (or any test) looked at.
 */
export const MAX_GLANCE_CHARS = 4_000;

/** An output redirection that writes nothing anywhere (`/dev/null`, `>&1`, `>&2`), or an input one from a plain file. */
function harmlessRedirection(redirection: ShellRedirection): boolean {
  const { operator, target } = redirection;
  switch (operator) {
    case ">&":
      // `2>&1`, `>&2`: output joined into the two the tool reads. Any other descriptor (`>&3`, `2>&9`)
      // is one the shell inherited, which may be an open file or socket: a write past the table. `>&file`
      // is bash for `&>file` and writes too.
      return target === "1" || target === "2";
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
      // `<>` creates the file; here-docs and here-strings feed input whose expansions run; `<&3` reads a
      // descriptor the shell inherited.
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
  // Anywhere in the word, not only at its start: `find . -de*` deletes once a file called `-delete`
  // exists, and `uniq x*` writes its second match. Found by the differential fuzz (glance.fuzz.test.ts).
  if (!rule.globSafe && segment.words.slice(1).some((word) => word.glob)) return false;
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
