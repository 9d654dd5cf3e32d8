/**
 * Where the closed code fences are in a list of lines. The document parser uses it twice — a `## x`
 * inside a fence is code, not a heading, and a whole document may be wrapped in one — but the fence
 * rules are plain Markdown, independent of any document, so they live on their own.
 */

/** For each line: is it inside (or a delimiter of) a closed code fence? An unclosed fence is plain text. */
export function fenceMask(lines: string[]): boolean[] {
  const mask = lines.map(() => false);
  for (const block of fenceRanges(lines)) {
    for (let i = block.open; i <= block.close; i++) mask[i] = true;
  }
  return mask;
}

export function fenceRanges(lines: string[]): Array<{ open: number; close: number }> {
  const ranges: Array<{ open: number; close: number }> = [];
  let i = 0;
  while (i < lines.length) {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(lines[i] ?? "");
    if (!opening) {
      i++;
      continue;
    }
    const fence = opening[1] ?? "```";
    const closing = new RegExp(`^\\s{0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    let close = -1;
    for (let j = i + 1; j < lines.length; j++) {
      if (closing.test(lines[j] ?? "")) {
        close = j;
        break;
      }
    }
    if (close === -1) {
      i++;
      continue;
    }
    ranges.push({ open: i, close });
    i = close + 1;
  }
  return ranges;
}
