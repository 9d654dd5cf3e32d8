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
