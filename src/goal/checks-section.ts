/**
 * Finding the checks section in a whole goal document: its heading (`## 检查`, `**Checks**` and
 * friends) and its body up to the next heading of the same or a higher level. Its own file because it
 * is about the document's outline, while the rest of the goal-document reader is about single lines.
 */
import { asciiPunctuation } from "./fullwidth.js";

/** Heading words of the checks section, both languages (lowercase, compared after stripping marks). */
const CHECK_HEADINGS = [
  "checks",
  "check",
  "goal checks",
  "acceptance checks",
  "verification",
  "how to verify",
  "检查",
  "检查项",
  "验收检查",
  "检查命令",
  "验证",
  "验证方式",
];

export const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BOLD_HEADING = /^\s*(?:\*\*|__)(.+?)(?:\*\*|__)\s*[:]?\s*$/;

function headingWords(title: string): string {
  return asciiPunctuation(title)
    .replace(/[*_`]/g, "")
    .replace(/^\s*(?:\d+[.)、]|[一二三四五六七八九十]+[、.])\s*/, "")
    .replace(/[(].*?[)]/g, "")
    .replace(/[:]\s*$/, "")
    .trim()
    .toLowerCase();
}

/**
 * The body of the document's checks section (heading `检查` / `checks` and friends, `#` or bold), up
 * to the next heading of the same or a higher level; null when there is none.
 */
export function findChecksSection(document: string): string | null {
  const lines = document.split(/\r?\n/);
  let inFence = false;
  for (const [position, line] of lines.entries()) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = HEADING.exec(line);
    const bold = heading ? null : BOLD_HEADING.exec(line);
    const title = heading?.[2] ?? bold?.[1];
    if (title === undefined || !CHECK_HEADINGS.includes(headingWords(title))) continue;
    const level = heading ? heading[1]!.length : 7;
    const body: string[] = [];
    let innerFence = false;
    for (const next of lines.slice(position + 1)) {
      if (/^\s*(```|~~~)/.test(next)) innerFence = !innerFence;
      if (!innerFence) {
        const nextHeading = HEADING.exec(next);
        if (nextHeading && nextHeading[1]!.length <= level) break;
        if (!nextHeading && level === 7 && BOLD_HEADING.test(next)) break;
      }
      body.push(next);
    }
    return body.join("\n");
  }
  return null;
}
