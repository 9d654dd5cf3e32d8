/**
 * One line per workbench file for INDEX.md: a script's first comment (or docstring), a text's first
 * heading or line, a binary's size. Only the first 8 KB of a file are read.
 */
import { open } from "node:fs/promises";
import path from "node:path";
import type { Locale } from "../locale/locale.js";
import { WORKBENCH_TEXT } from "./workbench-text.js";

/** Bytes read from each file to describe it. */
const HEAD_BYTES = 8_192;
const DESCRIPTION_CHARS = 100;

const SCRIPT_EXTENSIONS = new Set([
  ".py",
  ".sh",
  ".bash",
  ".zsh",
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".mts",
  ".cts",
  ".rb",
  ".pl",
  ".lua",
  ".r",
  ".sql",
  ".ps1",
  ".go",
  ".rs",
]);
const BINARY_EXTENSIONS = new Set([
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".bmp",
  ".ico",
  ".pdf",
  ".zip",
  ".gz",
  ".tgz",
  ".bz2",
  ".xz",
  ".7z",
  ".sqlite",
  ".db",
  ".parquet",
  ".pkl",
  ".npy",
  ".npz",
  ".bin",
  ".so",
  ".dylib",
  ".woff",
  ".woff2",
  ".mp3",
  ".mp4",
]);

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > DESCRIPTION_CHARS ? `${flat.slice(0, DESCRIPTION_CHARS - 1)}…` : flat;
}

/** Lines like `---` or `===` (front matter, underlines) say nothing about the file. */
function isDecoration(line: string): boolean {
  return /^[-=_*~`#\s]*$/.test(line);
}

/** `# x`, `// x`, `-- x`, `/* x`, ` * x`, `; x`, `REM x` → `x`; null when the line is not a comment. */
function commentText(line: string): string | null {
  const trimmed = line.trim();
  for (const marker of ["//", "#", "--", "/*", "*", ";", "%"]) {
    if (trimmed.startsWith(marker))
      return trimmed
        .slice(marker.length)
        .replace(/\*\/\s*$/, "")
        .trim();
  }
  if (/^rem\s/i.test(trimmed)) return trimmed.slice(4).trim();
  return null;
}

/** The first comment line of a script (shebang, encoding and linter lines skipped), or its docstring. */
export function describeScript(text: string): string {
  const lines = text.split(/\r?\n/).slice(0, 60);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (
      line === "" ||
      line.startsWith("#!") ||
      line.includes("-*-") ||
      /^(\/\/|#)\s*(@ts-|eslint|type:|noqa|pylint)/.test(line)
    )
      continue;
    if (line.startsWith('"""') || line.startsWith("'''")) {
      const inline = line
        .slice(3)
        .replace(/("""|''')\s*$/, "")
        .trim();
      if (inline !== "") return oneLine(inline);
      const next = lines.slice(i + 1).find((candidate) => candidate.trim() !== "");
      if (next !== undefined) return oneLine(next.replace(/("""|''')\s*$/, ""));
      continue;
    }
    const comment = commentText(line);
    if (comment !== null && comment !== "" && !isDecoration(comment)) return oneLine(comment);
  }
  return describeText(text);
}

/** The first markdown heading, else the first non-empty line. */
export function describeText(text: string): string {
  const lines = text.split(/\r?\n/).slice(0, 200);
  const heading = lines.find((line) => /^#{1,6}\s+\S/.test(line));
  if (heading !== undefined) return oneLine(heading.replace(/^#{1,6}\s+/, ""));
  const first = lines.find((line) => line.trim() !== "" && !isDecoration(line));
  return first === undefined ? "" : oneLine(first);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** NUL bytes or invalid UTF-8 in the head; a multi-byte character cut at the end of the head is fine. */
function looksBinary(head: Buffer): boolean {
  if (head.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Describes the file at `relative` inside the workbench `dir`; `size` is its size in bytes (already
 * known from the directory walk). A file that cannot be read is described as empty, never thrown.
 */
export async function describeFile(
  dir: string,
  relative: string,
  size: number,
  locale: Locale,
): Promise<{ binary: boolean; description: string }> {
  const text = WORKBENCH_TEXT[locale];
  const extension = path.extname(relative).toLowerCase();
  let head: Buffer;
  try {
    head = BINARY_EXTENSIONS.has(extension) ? Buffer.alloc(0) : await readHead(path.join(dir, relative));
  } catch {
    head = Buffer.alloc(0);
  }
  if (BINARY_EXTENSIONS.has(extension) || looksBinary(head)) {
    return { binary: true, description: text.binary(formatSize(size)) };
  }
  const content = head.toString("utf8");
  const isScript = relative.startsWith("scripts/") || SCRIPT_EXTENSIONS.has(extension);
  const description = isScript ? describeScript(content) : describeText(content);
  return { binary: false, description: description === "" ? text.emptyFile : description };
}
