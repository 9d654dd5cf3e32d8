/**
 * Recognising a section heading in any of the forms models write: ATX (`## Next`), bold (`**Next:**`),
 * setext, a `label:` line, a numbered or bracketed line. Kept apart from parse.ts because these rules
 * are about one line (and the one after it), while the parser is about the document around them. The
 * heading words come from the document being read (an alias table), the rules are the same for all.
 */

/** Heading words (lowercase) and the section key each opens; longest first (see aliasTable). */
export type AliasTable = ReadonlyArray<readonly [alias: string, target: string]>;

/** An alias table from words per target; longest first, so `what i am doing now` wins over `doing`. */
export function aliasTable(
  entries: Iterable<readonly [target: string, aliases: readonly string[]]>,
): AliasTable {
  const table: Array<readonly [string, string]> = [];
  for (const [target, aliases] of entries) {
    for (const alias of aliases) {
      const word = alias.trim().toLowerCase().replace(/\s+/g, " ");
      if (word !== "" && !table.some(([known]) => known === word)) table.push([word, target]);
    }
  }
  return table.sort((a, b) => b[0].length - a[0].length);
}

export interface Heading<Target extends string = string> {
  section: Target;
  /** Content written on the heading's own line (`doing: ...`, `**Next:** ...`). */
  inline: string;
  /** Lines consumed (2 for a setext heading). */
  span: number;
}

/** Recognises a section heading in any of the forms models write. `next` is the following line (setext). */
export function matchHeading<Target extends string = string>(
  line: string,
  next: string | undefined,
  table: ReadonlyArray<readonly [string, Target]>,
): Heading<Target> | null {
  const trimmed = line.trim();
  if (trimmed === "") return null;

  // ## Heading   (ATX, any level, optional closing hashes; content after a colon is inline)
  const atx = /^#{1,6}\s+(.*?)(?:\s+#+)?$/.exec(trimmed);
  if (atx) return fromTitle(atx[1] ?? "", table);

  // **Heading**, **Heading:** text, - **Heading**: text, __Heading__
  const bold = /^(?:[-*+]\s+)?(?:\d+[.)]\s*)?(\*\*|__)(.+?)\1\s*(.*)$/.exec(trimmed);
  if (bold) {
    const title = bold[2] ?? "";
    const after = bold[3] ?? "";
    const matched = fromTitle(title, table);
    if (matched) {
      const inline = [matched.inline, after.replace(/^[::\-—–]\s*/, "").trim()].filter((part) => part !== "");
      return { ...matched, inline: inline.join(" ") };
    }
  }

  // Heading                (setext: the next line is === or ---)
  // ---------
  if (next !== undefined && /^\s{0,3}(=+|-+)\s*$/.test(next)) {
    const section = lookup(cleanTitle(trimmed), "strict", table);
    if (section) return { section: section.section, inline: "", span: 2 };
  }

  // doing: text  /  1. Next step: text  /  - `scene`: text  /  现场:text
  const label = /^(?:[-*+]\s+)?([^::]{1,48}?)\s*[::]\s*(.*)$/.exec(trimmed);
  if (label) {
    const section = lookup(cleanTitle(label[1] ?? ""), "decorated", table);
    if (section) return { section: section.section, inline: (label[2] ?? "").trim(), span: 1 };
  }

  // 1. 现在在做什么  /  一、下一步  /  【现场】  /  Next step   (a line that is only a heading)
  const section = lookup(cleanTitle(trimmed), "strict", table);
  if (section) return { section: section.section, inline: "", span: 1 };
  return null;
}

/** A heading's title; text after a colon on the heading line is the section's first line. */
function fromTitle<Target extends string>(
  raw: string,
  table: ReadonlyArray<readonly [string, Target]>,
): Heading<Target> | null {
  const colon = /^(.*?)\s*[::]\s*(.*)$/.exec(raw);
  if (colon?.[2]) {
    const head = lookup(cleanTitle(colon[1] ?? ""), "decorated", table);
    if (head) return { section: head.section, inline: colon[2].trim(), span: 1 };
  }
  const found = lookup(cleanTitle(raw), "loose", table);
  return found ? { section: found.section, inline: headingRest(raw, found.rest), span: 1 } : null;
}

/**
 * Words after the section's name on a heading line (`## Next — run the tests first`, `## Doing right
 * now`) are the section's first line, in the case they were written in: they are the model's words. A
 * parenthesis or bracket alone (`## 下一步 (next)`, `Decided (with reasons)`) decorates the heading and is
 * not kept.
 */
function headingRest(raw: string, rest: string): string {
  const words = rest.replace(/^[\s—–\-::,,]+/, "").trim();
  if (words === "" || /^[(([【〔][^()()]*[))\]】〕]$/.test(words)) return "";
  const at = raw.toLowerCase().lastIndexOf(words);
  return (at === -1 ? words : raw.slice(at, at + words.length)).replace(/(\*\*|__)$/, "").trim();
}

/**
 * Lowercased title without markup, numbering, brackets or a trailing colon.
 * "**1. 现在在做什么**" → "现在在做什么"; "【Scene】" → "scene"; "`doing`:" → "doing".
 */
function cleanTitle(raw: string): string {
  let text = raw.trim().replace(/[’‘]/g, "'");
  for (let round = 0; round < 3; round++) {
    const before = text;
    text = text
      .replace(/^(\*\*|__|\*|_|`)(.+)\1$/, "$2")
      .replace(/^[[【〔](.+)[\]】〕]$/, "$1")
      .replace(/^(?:\d{1,2}|[一二三四五六七八九十]{1,3}|[a-e])\s*[.)、.:]\s*/i, "")
      .replace(/^[((]\d{1,2}[))]\s*/, "")
      .replace(/^(?:(?:section|part)\b\s*\d*|第[一二三四五六七八九十\d]+(?:段|部分))\s*[:.:、]?\s*/i, "")
      .replace(/\s*[::]$/, "")
      .trim();
    if (text === before) break;
  }
  return text.toLowerCase().replace(/\s+/g, " ");
}

/**
 * strict: the whole title is an alias. decorated: an alias, optionally followed by a parenthesis or a
 * dash (`Decided (with reasons)`). loose: an alias followed by any separator and anything (headings only).
 */
function lookup<Target extends string>(
  title: string,
  mode: "strict" | "decorated" | "loose",
  table: ReadonlyArray<readonly [string, Target]>,
): { section: Target; rest: string } | null {
  if (title === "") return null;
  for (const [alias, section] of table) {
    if (title === alias) return { section, rest: "" };
    if (mode === "strict" || !title.startsWith(alias)) continue;
    const rest = title.slice(alias.length);
    // A hyphen or slash glued to the word makes another word (`scene-graph`, `next/prev`), not a decoration.
    const separated =
      mode === "loose" ? /^(?:\s|[((—–::,,[【])/.test(rest) : /^\s*[((—–【[]|^\s+[-/|]/.test(rest);
    if (separated) return { section, rest };
  }
  return null;
}
