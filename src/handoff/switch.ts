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
 * - A weak section never costs the strong ones: it is asked for once more, then filled in alone
 *   (mechanical.ts, follow-up.ts). Only a handoff with nothing usable degrades whole.
 * - The writing turn ends in the handoff's text: both, because each covers what the other cannot. The
 *   writing session turns back a subagent, a Write or a command (guards/writing-guard.ts), so the handoff
 *   cannot leave for a file the successor never reads; a handoff that is in a file anyway (written
 *   before the turn) is read from the file the answer names (named-file.ts) instead of degrading.
 * - The successor's prompt is built from the file as it stands on disk, so a person's edit counts.
 *
 * This module produces and freezes the document; the step loop (runtime/drive/step-run.ts) runs the writing
 * turn for it, records what happened, and starts the successor.
 */
import { DEFAULTS } from "../defaults.js";
import type { Locale } from "../locale/locale.js";
import { degraded } from "./degraded.js";
import type { Handoff } from "./handoff-document.js";
import { followUpPrompt, takeFollowUp } from "./follow-up.js";
import { freezeHandoff, readFrozenHandoff } from "./freeze-handoff.js";
import { fillWeak } from "./mechanical.js";
import { namedHandoffFile } from "./named-file.js";
import { parseHandoff } from "./read-handoff.js";
import { assessHandoff, isHollow, qualityMissing } from "./handoff-quality.js";
import { HANDOFF_SECTIONS, type HandoffSectionName } from "../handoff-sections.js";

/** What one writing turn (the first, or the follow-up) produced: its answer, or why there is none. */
export interface WritingTurn {
  /** The turn's final answer; null when it failed or ended without one. */
  text: string | null;
  /** Why there is no usable answer (the error, or how the turn ended). */
  error: string | null;
  /** The main thread's context after the turn (tokens): is there room for a follow-up? */
  context: number;
}

export interface ProducedHandoff {
  handoff: Handoff;
  /** Why it degraded, whole or in part; null for a handoff the session wrote entirely itself. */
  why: string | null;
  /** Sections that were missing or hollow in what the session wrote first. */
  missing: HandoffSectionName[];
  /**
   * Sections still weak after the follow-up, filled in mechanically (mechanical.ts) while the rest is
   * the session's own; empty when nothing or everything was mechanical (see `why`).
   */
  weak: HandoffSectionName[];
  /** The session was asked once more for its weak sections. */
  askedAgain: boolean;
  /** The file the answer named and the handoff was read from (named-file.ts); null when it was the answer. */
  from: string | null;
}

export interface ProduceHandoffInput {
  step: string;
  /** The step's original task: a degraded handoff (or a mechanical `doing`) carries its beginning. */
  task: string;
  locale: Locale;
  workspace: string;
  /** The window: a follow-up turn is asked only when there is room below it. */
  window: number;
  /** Why no writing turn can be asked for (overflow, no session); null when it can. */
  cannotWrite: string | null;
  /** The writing turn's prompt. */
  prompt: string;
  /** Runs one writing turn in the same session; only called when `cannotWrite` is null. */
  write: (prompt: string) => Promise<WritingTurn>;
}

/**
 * Asks the session for its handoff and checks it. A weak required section is asked for once more (if
 * there is room); one still weak is filled in mechanically and the rest kept. Only a handoff with
 * nothing usable in it (no answer, or no section that says anything) is replaced whole by the degraded one.
 */
export async function produceHandoff(input: ProduceHandoffInput): Promise<ProducedHandoff> {
  const none = { missing: [], weak: [], askedAgain: false, from: null };
  const whole = (why: string, rest: Omit<ProducedHandoff, "handoff" | "why"> = none): ProducedHandoff => ({
    handoff: degraded(input.step, input.task, { why, locale: input.locale }),
    why,
    ...rest,
  });
  if (input.cannotWrite !== null) return whole(input.cannotWrite);
  const turn = await input.write(input.prompt);
  if (turn.text === null || turn.text === "") return whole(turn.error ?? "the writing turn gave no answer");

  const answer = readAnswer(turn.text, input);
  let handoff = answer.handoff;
  const missing = qualityMissing(handoff);
  let weak = missing;
  let askedAgain = false;
  if (weak.length > 0 && turn.context + DEFAULTS.followUpRoom <= input.window) {
    askedAgain = true;
    const again = await input.write(followUpPrompt(weak, input.locale));
    if (again.text) handoff = takeFollowUp(handoff, again.text, weak);
    weak = qualityMissing(handoff);
  }
  const rest = { missing, askedAgain, from: answer.from };
  if (weak.length === 0) return { handoff, why: null, weak, ...rest };
  const why = `missing: ${weak.join(", ")}`;
  if (!HANDOFF_SECTIONS.some((name) => !isHollow(handoff[name]))) return whole(why, { weak: [], ...rest });
  const partly = `${why}; filled in mechanically, the sections the session wrote kept`;
  return { handoff: fillWeak(handoff, weak, input), why: partly, weak, ...rest };
}

/**
 * The handoff in the writing turn's answer; when the answer says nothing itself but names a handoff
 * file in the workspace ("The handoff is in .flower/notes/my-handoff.md"), the handoff in that file.
 */
function readAnswer(text: string, input: ProduceHandoffInput): { handoff: Handoff; from: string | null } {
  const written = parseHandoff(text, input.step);
  if (HANDOFF_SECTIONS.some((name) => !isHollow(written[name]))) return { handoff: written, from: null };
  const named = namedHandoffFile(text, input.workspace, input.step);
  if (!named) return { handoff: written, from: null };
  return { handoff: parseHandoff(named.text, input.step), from: named.path };
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
