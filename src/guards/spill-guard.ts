/**
 * Layer three of the context economy: spill at once. A PostToolUse hook looks at a tool's result before
 * the model sees it; every string field longer than the threshold goes to a file in the spill directory
 * and is replaced by one pointer line + its first characters. Nothing is lost, it just is not carried
 * along in every later request (one run spilled 103 results, 791.4K chars, this way).
 *
 * Three rules learned the hard way:
 * - Only string fields of objects are replaced and the structure is kept: `updatedToolOutput` must have
 *   the tool_response's shape or the CLI ignores it (a Read replaced by a plain string is silently
 *   dropped). Arrays are never entered: they may hold image blocks.
 * - A Read of a spill file is never spilled again. Otherwise the pointer's "read it with Read" is a lie:
 *   read back, over the threshold, spilled, a pointer again. The first live run looped 7–8 turns on it
 *   ("The spill read loops back on itself") before crawling through in 40-line pieces.
 * - A Read whose response is not text (image, PDF, notebook) is left alone.
 */
import { randomBytes } from "node:crypto";
import { realpath } from "node:fs/promises";
import path from "node:path";
import type { HookCallback, HookCallbackMatcher, HookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../defaults.js";
import { writeFileAtomicallyAsync } from "../fs/atomic-write.js";
import { makePrivateDirectoryAsync } from "../fs/private-files.js";
import { ConfigurationError } from "../errors.js";
import { isLocale, type Locale } from "../locale/locale.js";
import { SPILL_POINTER } from "./guard-text.js";

export const SPILL_GUARD_MATCHER = "Bash|Read|Grep|Glob|WebFetch|WebSearch";

export interface SpillInfo {
  tool: string;
  /** Absolute path of the spill file. */
  path: string;
  /** Length of the spilled text. */
  chars: number;
}

export interface SpillGuardOptions {
  /** Directory the spill files go to, normally `<workspace>/.flower/spill`. Created on first spill. */
  dir: string;
  /**
   * String fields longer than this many characters are spilled. `null` or `0` means "do not install";
   * use `spillGuards()` for that.
   * @default 4000
   */
  threshold?: number | null;
  /**
   * Characters of the original kept after the pointer line.
   * @default 400
   */
  previewChars?: number;
  /**
   * Spill only the main thread's results. Off by default: subagents' long outputs are spilled too.
   * @default false
   */
  mainOnly?: boolean;
  /** @default "Bash|Read|Grep|Glob|WebFetch|WebSearch" */
  matcher?: string;
  /** Language of the pointer line. */
  locale: Locale;
  /** Called once per spilled field. Errors it throws are swallowed. */
  onSpill?: (info: SpillInfo) => void;
  /**
   * Applied to a spilled text before it is written: the runtime passes its SecretRedactor so a subagent's
   * `env` output cannot put a credential in a spill file. (The preview left in the result goes to the
   * model as the rest of the output does; the store redacts it on the way to the rows.)
   * @default the text unchanged
   */
  redact?: (text: string) => string;
  /** Test seam: time and randomness of spill file names. */
  _internal?: { now?: () => Date; randomId?: () => string };
}

/** Where a string field sits in the response: object keys from the root. */
export type FieldPath = readonly string[];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Rebuilds `value` with every string longer than `threshold` passed through `replace`; objects are
 * copied only where something changed, arrays and everything else are returned as they are.
 */
export function mapLongStrings(
  value: unknown,
  threshold: number,
  replace: (text: string, field: FieldPath) => string,
  field: FieldPath = [],
): unknown {
  if (typeof value === "string") return value.length > threshold ? replace(value, field) : value;
  if (!isPlainObject(value)) return value;
  let changed = false;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const mapped = mapLongStrings(child, threshold, replace, [...field, key]);
    if (mapped !== child) changed = true;
    copy[key] = mapped;
  }
  return changed ? copy : value;
}

/**
 * Whether `mapLongStrings` would replace anything: the same walk (object string fields, arrays never
 * entered), but it allocates nothing and stops at the first long string. Almost every tool result is
 * short, and the hook answers those without copying the response or touching the disk.
 */
export function hasLongString(value: unknown, threshold: number): boolean {
  if (typeof value === "string") return value.length > threshold;
  if (!isPlainObject(value)) return false;
  return Object.keys(value).some((key) => hasLongString(value[key], threshold));
}

/** The first `chars` code units, without cutting a surrogate pair in half. */
export function previewOf(text: string, chars: number): string {
  let end = Math.min(chars, text.length);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** What a spilled field becomes: the pointer line, then the beginning of the text. */
export function spillReplacement(
  filePath: string,
  text: string,
  previewChars: number,
  locale: Locale,
): string {
  const pointer = SPILL_POINTER[locale](filePath, text.length);
  const preview = previewOf(text, previewChars);
  return preview === "" ? pointer : `${pointer}\n${preview}`;
}

export interface SpillTransformOptions {
  threshold: number;
  previewChars: number;
  locale: Locale;
  /** Where the text of a field is (or will be) stored. */
  pathFor: (text: string, field: FieldPath) => string;
}

/**
 * The pure transform: the tool response with each long string field replaced by its pointer, and the
 * list of what was replaced. `output` is the response itself (same object) when nothing was long.
 */
export function spillToolResponse(
  response: unknown,
  options: SpillTransformOptions,
): { output: unknown; spills: Array<{ field: FieldPath; path: string; chars: number }> } {
  const spills: Array<{ field: FieldPath; path: string; chars: number }> = [];
  const output = mapLongStrings(response, options.threshold, (text, field) => {
    const filePath = options.pathFor(text, field);
    spills.push({ field, path: filePath, chars: text.length });
    return spillReplacement(filePath, text, options.previewChars, options.locale);
  });
  return { output, spills };
}

/** A tool name or field key as a file-name part: no separators, no dots, bounded. */
export function sanitizeNamePart(part: string): string {
  const safe = part.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return (safe === "" ? "x" : safe).slice(0, 40);
}

function isInside(dir: string, candidate: string): boolean {
  const relative = path.relative(dir, candidate);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

async function realOrResolved(target: string): Promise<string> {
  try {
    return await realpath(target);
  } catch {
    return path.resolve(target);
  }
}

/** Does a Read's `file_path` point into the spill directory (symlinks and `..` resolved)? */
async function readsSpillFile(toolInput: unknown, cwd: string, dir: string): Promise<boolean> {
  if (typeof toolInput !== "object" || toolInput === null) return false;
  const filePath = (toolInput as { file_path?: unknown }).file_path;
  if (typeof filePath !== "string" || filePath === "") return false;
  const target = path.resolve(cwd, filePath);
  if (isInside(path.resolve(dir), target)) return true;
  return isInside(await realOrResolved(dir), await realOrResolved(target));
}

function validateThreshold(value: unknown): number | null {
  if (value === undefined) return DEFAULTS.spillThreshold;
  if (value === null || value === 0) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ConfigurationError(
      "spillThreshold",
      value,
      "a positive integer, or null/0 to not install the spill guard",
    );
  }
  return value;
}

/** Same as `spillGuard`, but `[]` when the threshold is `null` or `0` (the guard is not installed). */
export function spillGuards(options: SpillGuardOptions): HookCallbackMatcher[] {
  return validateThreshold(options.threshold) === null ? [] : [spillGuard(options)];
}

/** The PostToolUse matcher for `options.hooks.PostToolUse`. */
export function spillGuard(options: SpillGuardOptions): HookCallbackMatcher {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError("spillGuard options", options, "an object { dir, locale, ... }");
  }
  const threshold = validateThreshold(options.threshold);
  if (threshold === null) {
    throw new ConfigurationError(
      "spillThreshold",
      options.threshold,
      "a positive integer here; use spillGuards() to skip installing",
    );
  }
  const { dir: rawDir, locale, onSpill, mainOnly = false, matcher = SPILL_GUARD_MATCHER } = options;
  const previewChars = options.previewChars ?? DEFAULTS.spillPreviewChars;
  if (typeof rawDir !== "string" || rawDir === "")
    throw new ConfigurationError("dir", rawDir, "a directory path");
  if (!isLocale(locale)) throw new ConfigurationError("locale", locale, '"zh" or "en"');
  if (!Number.isInteger(previewChars) || previewChars < 0) {
    throw new ConfigurationError("previewChars", previewChars, "a non-negative integer");
  }
  if (typeof mainOnly !== "boolean") throw new ConfigurationError("mainOnly", mainOnly, "a boolean");
  if (typeof matcher !== "string" || matcher === "")
    throw new ConfigurationError("matcher", matcher, "a tool-name pattern");
  if (onSpill !== undefined && typeof onSpill !== "function")
    throw new ConfigurationError("onSpill", onSpill, "a function");
  const redact = options.redact ?? ((text: string) => text);
  if (typeof redact !== "function") throw new ConfigurationError("redact", redact, "a function");

  const dir = path.resolve(rawDir);
  const now = options._internal?.now ?? (() => new Date());
  const randomId = options._internal?.randomId ?? (() => randomBytes(4).toString("hex"));
  let counter = 0;

  /** Unique even for two spills in the same millisecond of two processes: time + counter + random. */
  function fileFor(tool: string, field: FieldPath): string {
    counter += 1;
    const stamp = now().toISOString().replace(/[-:.]/g, "").replace("T", "-");
    const fieldPart = field.length === 0 ? "" : `-${sanitizeNamePart(field.join("."))}`;
    const name = `${stamp}-${String(counter).padStart(4, "0")}-${sanitizeNamePart(randomId())}-${sanitizeNamePart(tool)}${fieldPart}.txt`;
    const file = path.resolve(dir, name);
    // The name is built from sanitized parts, so this cannot fail; it is the last line of defence should
    // that ever change (a tool name like `../../x` must not write outside the spill directory).
    if (!isInside(dir, file)) throw new Error(`spill file name escapes ${dir}: ${name}`);
    return file;
  }

  const callback: HookCallback = async (input) => {
    if (input.hook_event_name !== "PostToolUse") return {};
    if (mainOnly && typeof input.agent_id === "string" && input.agent_id !== "") return {};
    const tool = input.tool_name;
    const response = input.tool_response;
    if (tool === "Read" && (!isPlainObject(response) || response.type !== "text")) return {};
    // The CLI waits for this answer on every call, and nearly every result is short: decide that first,
    // in memory. Only a result that would be spilled pays for the Read's spill-file check, which resolves
    // both paths on disk (two realpath calls, ~70 µs of the ~80 µs a short Read cost before).
    if (!hasLongString(response, threshold)) return {};
    if (tool === "Read" && (await readsSpillFile(input.tool_input, input.cwd, dir))) return {};
    try {
      const pending: Array<{ file: string; text: string }> = [];
      const { output, spills } = spillToolResponse(response, {
        threshold,
        previewChars,
        locale,
        pathFor: (text, field) => {
          const file = fileFor(tool, field);
          pending.push({ file, text: redact(text) });
          return file;
        },
      });
      if (spills.length === 0) return {};
      await makePrivateDirectoryAsync(dir);
      for (const { file, text } of pending)
        await writeFileAtomicallyAsync(file, text, { checkpoint: "spill-write" });
      for (const spill of spills) {
        try {
          onSpill?.({ tool, path: spill.path, chars: spill.chars });
        } catch {
          // An observer's bug must not undo a spill that is already on disk.
        }
      }
      const result: HookJSONOutput = {
        hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: output },
      };
      return result;
    } catch {
      // Disk full, permissions...: the model gets the original output. A pointer to a file that was
      // never written would lose the result for good.
      return {};
    }
  };

  return { matcher, hooks: [callback] };
}
