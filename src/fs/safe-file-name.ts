/**
 * A step name as a file-name part. Step names are free text (`"fix build"`, `"a/b"`, `"../x"`), but a
 * file named after one must stay in its folder: separators, `..`, control characters and leading dots
 * are removed; whitespace becomes `-`. At most 100 characters and 120 UTF-8 bytes: file systems limit a
 * name to 255 bytes, and 100 CJK characters are already 300 (the prefix, suffix and an atomic write's
 * temporary name come on top).
 */
export function safeFileName(step: string): string {
  const cleaned = step
    .normalize("NFC")
    .replace(/[\\/:*?"<>|\p{Cc}]/gu, "_")
    .replace(/\s+/gu, "-")
    .replace(/\.{2,}/g, "_")
    .replace(/^[.\-_]+|[.\-_ ]+$/g, "")
    .slice(0, 100);
  const bounded = withinBytes(cleaned, MAX_BYTES);
  return bounded === "" ? "step" : bounded;
}

const MAX_BYTES = 120;

/** The longest prefix of whole code points that fits in `limit` UTF-8 bytes. */
function withinBytes(value: string, limit: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of value) {
    bytes += Buffer.byteLength(character);
    if (bytes > limit) break;
    end += character.length;
  }
  return value.slice(0, end);
}
