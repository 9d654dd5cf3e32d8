/**
 * A quality check on a written handoff, beyond `complete()`. A model that is out of breath writes
 * headings with nothing under them, echoes the prompt's instruction back, or writes "TBD"; formally the
 * handoff is complete, in substance the successor gets nothing. Such sections count as missing here.
 * And `scene` is only useful if its pointers point somewhere: every path named there is checked on disk.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { Handoff } from "./handoff-document.js";
import { HANDOFF_PROMPT } from "./prompt.js";
import { HANDOFF_SECTIONS, REQUIRED, type HandoffSectionName } from "../handoff-sections.js";
import { EMPTY_SECTION, SECTION_HEADINGS } from "./handoff-document-text.js";
import { isHollowText } from "../documents/hollow.js";

export interface AssessOptions {
  /** Relative paths in `scene` are resolved against it. */
  workspace: string;
  /** For `~` expansion. @default os.homedir() */
  home?: string;
}

export interface HandoffAssessment {
  /** Required sections that are empty, only a placeholder, or near-empty. */
  missing: HandoffSectionName[];
  /** Any section (required or not) that is written but says nothing: placeholder or near-empty. */
  hollow: HandoffSectionName[];
  /** No required section is missing by this stricter reading. */
  complete: boolean;
  /** Paths named in `scene`, as written there, split by whether they exist on disk. */
  paths: { found: string[]; missing: string[] };
}

const PROMPT_TEXTS = Object.values(HANDOFF_PROMPT).map((prompt) => prompt.replace(/\s+/g, " ").toLowerCase());
const HEADING_TEXTS = new Set(
  Object.values(SECTION_HEADINGS).flatMap((headings) => Object.values(headings).map((h) => h.toLowerCase())),
);
const EMPTY_TEXTS = new Set(Object.values(EMPTY_SECTION).map((text) => text.toLowerCase()));

/** True if the section is written but carries nothing a successor could use. */
export function isHollow(text: string): boolean {
  return isHollowText(text, { prompts: PROMPT_TEXTS, headings: HEADING_TEXTS, empty: EMPTY_TEXTS });
}

/** Required sections that are missing once hollow ones count as missing: `complete()` plus a quality check. */
export function qualityMissing(handoff: Handoff): HandoffSectionName[] {
  return REQUIRED.filter((name) => isHollow(handoff[name]));
}

/** Assesses a handoff's sections and checks the paths its `scene` names on disk. */
export function assessHandoff(handoff: Handoff, options: AssessOptions): HandoffAssessment {
  const home = options.home ?? homedir();
  const missing = qualityMissing(handoff);
  const hollow = HANDOFF_SECTIONS.filter((name) => handoff[name] !== "" && isHollow(handoff[name]));
  const found: string[] = [];
  const absent: string[] = [];
  for (const path of scenePaths(handoff.scene)) {
    (existsSync(resolveScenePath(path, options.workspace, home)) ? found : absent).push(path);
  }
  return { missing, hollow, complete: missing.length === 0, paths: { found, missing: absent } };
}

/** A path from `scene` on disk: `~` is the home directory, relative paths are in the workspace. */
export function resolveScenePath(path: string, workspace: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(workspace, path);
}

/** Extension-less names that are still unmistakably files. */
const BARE_FILE_NAMES = new Set([
  "Makefile",
  "GNUmakefile",
  "makefile",
  "Dockerfile",
  "Justfile",
  "Rakefile",
  "Gemfile",
  "Procfile",
  "README",
  "LICENSE",
  "HANDOFF.md",
]);

const FILE_NAME = /^[\p{L}\p{N}_.@+-]+\.[A-Za-z][A-Za-z0-9]{0,9}$/u;
const TRAILING = /[.,;:!?)\]}>'"。,;:!?)】」』、]+$/u;
const LEADING = /^[([{<'"(【「『]+/u;

/**
 * Every path named in `scene`, in order, without duplicates: backticked paths (absolute, `~/...`,
 * relative with a slash, or a file name with an extension), and bare paths starting with `/`, `~/`,
 * `./` or `../` (or relative ones with a slash and a file extension). A `:line` suffix is dropped.
 */
export function scenePaths(scene: string): string[] {
  const paths: string[] = [];
  const add = (candidate: string): void => {
    const path = candidate.replace(/:\d+(?::\d+)?$/, "");
    if (!paths.includes(path)) paths.push(path);
  };
  // Fenced blocks are contents (a degraded handoff's task), not pointers.
  const text = scene.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1\s*$/gm, "");
  const outside = text.replace(/`([^`\n]+)`/g, (_match, inner: string) => {
    const candidate = clean(inner);
    if (candidate && isPathLike(candidate, true)) add(candidate);
    return " ";
  });
  for (const token of outside.split(/[\s,;,;、()()「」<>":]+/u)) {
    // "日志:/var/log/x.log": a label glued to a path by a colon.
    const glued = /[:=](?=\/|~\/|\.\.?\/)/.exec(token);
    const candidate = clean(glued ? token.slice(glued.index + 1) : token);
    if (candidate && isPathLike(candidate, false)) add(candidate);
  }
  return paths;
}

function clean(raw: string): string {
  let text = raw.trim();
  for (let round = 0; round < 3; round++) {
    const before = text;
    text = text
      .replace(/:\d+(?::\d+)?$/, "")
      .replace(TRAILING, "")
      .replace(LEADING, "");
    if (text === before) break;
  }
  return text;
}

function isPathLike(text: string, backticked: boolean): boolean {
  if (text.length < 2 || /\s/.test(text) || text.includes("://")) return false;
  if (/[*?$|{}=&;`]/.test(text) || text.includes("(") || text.startsWith("-")) return false;
  if (/^v?\d+(?:\.\d+)+$/.test(text)) return false;
  if (
    text.startsWith("/") ||
    text.startsWith("~/") ||
    text === "~" ||
    text.startsWith("./") ||
    text.startsWith("../")
  ) {
    return text.length > 1 && !/^\/+$/.test(text);
  }
  const last = text.split("/").filter(Boolean).pop() ?? "";
  if (backticked) return text.includes("/") || FILE_NAME.test(last) || BARE_FILE_NAMES.has(last);
  return text.includes("/") && FILE_NAME.test(last);
}
