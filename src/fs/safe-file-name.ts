/**
 * A step name as a file-name part. Step names are free text (`"fix build"`, `"a/b"`, `"../x"`), but a
 * file named after one must stay in its folder: separators, `..`, control characters and leading dots
 * are removed; whitespace becomes `-`.
 */
export function safeFileName(step: string): string {
  const cleaned = step
    .normalize("NFC")
    .replace(/[\\/:*?"<>|\p{Cc}]/gu, "_")
    .replace(/\s+/gu, "-")
    .replace(/\.{2,}/g, "_")
    .replace(/^[.\-_]+|[.\-_ ]+$/g, "")
    .slice(0, 100);
  return cleaned === "" ? "step" : cleaned;
}
