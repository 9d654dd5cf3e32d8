/**
 * The handoff switch: what happens between "this session is full" and "a new session takes over".
 *
 * Why this module exists: a long step outlives its context. When the main thread crosses the handoff
 * line (or the API says the prompt no longer fits), the SAME session writes a structured handoff, it is
 * frozen to disk, and a NEW session (no resume, no fork) takes over from the file. The rules, each
 * learned from a failure:
 * - The writing turn is exempt from the threshold (see trigger.ts): without that every generation
 *   degrades, and everything still looks normal.
 * - A handoff that cannot be written degrades, it does not stop: auto-compact is off, so stopping here
 *   means running into the window. An overflow has no session left to ask, so it always degrades.
 * - The successor's prompt is built from the file as it stands on disk, so a person's edit counts.
 *
 * This module produces and freezes the document; the step loop (runtime/step-run.ts) runs the writing
 * turn for it, records what happened, and starts the successor.
 */
import type { Locale } from "../locale/locale.js";
import { degraded } from "./degraded.js";
import type { Handoff } from "./document.js";
import { freezeHandoff, readFrozenHandoff } from "./freeze.js";
import { parseHandoff } from "./parse.js";
import { assessHandoff } from "./quality.js";
import type { HandoffSectionName } from "./sections.js";

/** What the writing turn produced: its answer, or why there is none. */
export interface WritingTurn {
  /** The turn's final answer; null when it failed or ended without one. */
  text: string | null;
  /** Why there is no usable answer (the error, or how the turn ended). */
  error: string | null;
}

export interface ProducedHandoff {
  handoff: Handoff;
  /** Why it degraded; null for a handoff the session wrote itself. */
  why: string | null;
  /** Sections that were missing or hollow in what the session wrote. */
  missing: HandoffSectionName[];
}

export interface ProduceHandoffInput {
  step: string;
  /** The step's original task: a degraded handoff carries its beginning in `scene`. */
  task: string;
  locale: Locale;
  workspace: string;
  /** Why no writing turn can be asked for (overflow, no session); null when it can. */
  cannotWrite: string | null;
  /** Runs the writing turn in the same session; only called when `cannotWrite` is null. */
  write: () => Promise<WritingTurn>;
}

/** Asks the session for its handoff, checks it, and degrades when it is unusable. */
export async function produceHandoff(input: ProduceHandoffInput): Promise<ProducedHandoff> {
  let why = input.cannotWrite;
  let missing: HandoffSectionName[] = [];
  if (why === null) {
    const turn = await input.write();
    if (turn.text === null || turn.text === "") {
      why = turn.error ?? "the writing turn gave no answer";
    } else {
      const written = parseHandoff(turn.text, input.step);
      missing = assessHandoff(written, { workspace: input.workspace }).missing;
      if (missing.length === 0) return { handoff: written, why: null, missing };
      why = `missing: ${missing.join(", ")}`;
    }
  }
  return { handoff: degraded(input.step, input.task, { why, locale: input.locale }), why, missing };
}

export interface FrozenForSuccessor {
  /** The frozen file; null without a workbench (the handoff lives only in the successor's prompt). */
  path: string | null;
  /** Where the previous generation's file was moved, if there was one. */
  archived: string | null;
  /** The handoff the successor reads: the file as it is on disk now, or the document itself. */
  successor: Handoff;
  /** Which paths named in `scene` exist on disk. */
  scene: { found: string[]; missing: string[] };
}

/** Freezes the handoff (when there is a notes folder) and reads back what the successor will get. */
export function freezeForSuccessor(
  handoff: Handoff,
  options: { notesDir: string | null; step: string; locale: Locale; workspace: string; now: Date },
): FrozenForSuccessor {
  const scene = assessHandoff(handoff, { workspace: options.workspace }).paths;
  if (!options.notesDir) return { path: null, archived: null, successor: handoff, scene };
  const frozen = freezeHandoff(handoff, {
    notesDir: options.notesDir,
    step: options.step,
    locale: options.locale,
    now: options.now,
  });
  return { ...frozen, successor: readFrozenHandoff(frozen.path, options.step), scene };
}
