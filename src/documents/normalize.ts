/** Section text as every frozen document keeps it, and the one Markdown rule the parser must know. */

/**
 * Line endings unified, trailing spaces and the blank lines and rules around the text dropped, so a
 * parsed document compares equal. A rule (`---`) at a section's edge separates it from its neighbours
 * in Markdown; the parser cannot tell it from a separator, so the document does not hold one either.
 */
export function normalizeSection(text: string | null | undefined): string {
  if (!text) return "";
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""));
  let start = 0;
  let end = lines.length;
  const edge = (line: string | undefined): boolean =>
    line === undefined || line.trim() === "" || isRule(line);
  while (start < end && edge(lines[start])) start++;
  while (end > start && edge(lines[end - 1])) end--;
  return lines.slice(start, end).join("\n").trim();
}

/** A Markdown thematic break: three or more `-`, `*` or `_` on a line, optionally spaced. */
export function isRule(line: string): boolean {
  return /^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line);
}
