/**
 * The frozen handoff as a person left it before `continue`. An edit is respected as written; but a
 * file that was emptied or overwritten with bytes that are not text would start the successor from a
 * handoff of five "(empty)" sections, without the task and without saying so. Such a file is replaced,
 * for the successor's prompt, by the degraded handoff (marker, the task's beginning), and the reason is
 * returned for the record. The file itself is left as the person left it.
 */
import { readFileSync } from "node:fs";
import type { Locale } from "../locale/locale.js";
import { degraded } from "./degraded.js";
import type { Handoff } from "./handoff-document.js";
import { parseHandoff } from "./read-handoff.js";

export interface EditedHandoff {
  handoff: Handoff;
  /** Why the file could not be used (then `handoff` is the degraded one); null when it was used. */
  unusable: string | null;
}

export function readEditedHandoff(
  path: string,
  options: { step: string; task: string; locale: Locale },
): EditedHandoff {
  let why: string | null = null;
  let text = "";
  try {
    const bytes = readFileSync(path);
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.includes("\u0000")) why = `${path} holds binary data, not text`;
    else if (text.trim() === "") why = `${path} is empty`;
  } catch (error) {
    why =
      error instanceof TypeError
        ? `${path} is not UTF-8 text`
        : `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  if (why === null) return { handoff: parseHandoff(text, options.step), unusable: null };
  return {
    handoff: degraded(options.step, options.task, { why, locale: options.locale }),
    unusable: why,
  };
}
