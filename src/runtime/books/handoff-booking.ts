/**
 * What a handoff leaves in the step record: the degraded count and why, the frozen file (and the
 * archive move of the previous one), the burned session, and the handing generation's end and handoff
 * entry. Called by the ledger (step-ledger.ts), the record's one writer, which saves right after.
 *
 * Apart from the ledger because this is one event's bookkeeping with its own rules (records follow an
 * archived file; a handoff without a file leaves its prompt pending instead), not the folding of the
 * stream the ledger does turn by turn.
 */
import { degradedError } from "../../handoff/degraded.js";
import type { FrozenForSuccessor, ProducedHandoff } from "../../handoff/switch.js";
import type { GenerationRecord, StepRecord } from "../../records/step-record.js";

/** One handoff as the generation switch hands it to the ledger. */
export interface HandoffBooking {
  /** The session that wrote it (retired from now on); null when there was none. */
  burned: string | null;
  produced: ProducedHandoff;
  frozen: FrozenForSuccessor;
  /** The successor's first prompt: pending in the record when no file holds it. */
  prompt: string;
  cutCalls: number;
  finishedCalls: number;
}

/** Books a handoff onto `record` and its handing `generation` (undefined while none is booked). */
export function bookHandoff(
  record: StepRecord,
  generation: GenerationRecord | undefined,
  booking: HandoffBooking,
  now: () => string,
): void {
  const { burned, produced, frozen, prompt, cutCalls, finishedCalls } = booking;
  const { why } = produced;
  if (why !== null) {
    record.degraded += 1;
    record.errors.push(degradedError(why, "zh"));
  }
  if (frozen.path) {
    // The previous generation's file moved to the archive: its records follow it.
    if (frozen.archived) followArchived(record, frozen.path, frozen.archived);
    record.handoffs.push(frozen.path);
    record.pendingHandoff = frozen.path;
  } else {
    record.pendingPrompt = prompt;
  }
  if (burned) record.retired.push(burned);
  if (generation) {
    generation.endedAt = now();
    generation.handoff = {
      path: frozen.path,
      degraded: why !== null,
      why,
      missing: produced.missing,
      weak: produced.weak,
      askedAgain: produced.askedAgain,
      ...(produced.from !== null ? { from: produced.from } : {}),
      scene: frozen.scene,
      cutCalls,
      finishedCalls,
    };
  }
}

function followArchived(record: StepRecord, from: string, to: string): void {
  record.handoffs = record.handoffs.map((path) => (path === from ? to : path));
  for (const generation of record.history) {
    if (generation.handoff?.path === from) generation.handoff.path = to;
  }
}
