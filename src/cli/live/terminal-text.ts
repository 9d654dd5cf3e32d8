/**
 * Making arbitrary text (task prompts, tool commands, model output) safe and short for one terminal
 * line. Shared by the live display and the `runs`/`show` reports.
 */

/** One line without control characters: escape codes from tool output would corrupt the terminal. */
export function oneLine(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- removing escape sequences is the point
      .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "")
      .replace(/[\r\n\t]+/g, " ")
      // eslint-disable-next-line no-control-regex -- and so is removing the remaining control characters
      .replace(/[\u0000-\u001f\u007f]/g, "")
      .replace(/ {2,}/g, " ")
      .trim()
  );
}

/** At most `max` characters (code points, so no broken surrogate pairs), `…` where cut. */
export function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

/** Wide characters (CJK, full-width forms) take two terminal columns. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** Terminal columns a one-line string takes. */
export function columnsOf(text: string): number {
  let columns = 0;
  for (const char of text) columns += WIDE.test(char) ? 2 : 1;
  return columns;
}

/**
 * At most `max` terminal columns, `…` where cut. A line longer than the terminal wraps, and the live
 * view's in-place gauge can only clear the last physical line: a wrapped line left two or three lines of
 * debris at 120 columns.
 */
export function fitColumns(text: string, max: number): string {
  if (max < 1 || columnsOf(text) <= max) return text;
  let used = 0;
  let out = "";
  for (const char of text) {
    const width = WIDE.test(char) ? 2 : 1;
    if (used + width > max - 1) break;
    out += char;
    used += width;
  }
  return `${out}…`;
}
