/**
 * A generation's per-turn series: one `[context, spills, denials]` entry per main-thread response
 * (`GenerationRecord.turns`), which the views draw as the context curve with what each turn spilled
 * and had denied. Kept by the ledger (step-ledger.ts), the record's one writer, which hands it the
 * booked generation.
 *
 * Apart from the ledger because of one rule learned from the binary's order of events: spills and
 * denials do not arrive in the turn they belong to (see count()).
 */
import type { GenerationRecord } from "../../records/step-record.js";

export class TurnSeries {
  /** Spills and denials seen before this generation's first response: they belong to its first turn. */
  #early = { spills: 0, denials: 0 };

  /** A new generation: nothing is waiting for its first turn. */
  reset(): void {
    this.#early = { spills: 0, denials: 0 };
  }

  /** A main-thread response of the booked generation (none: nothing to add to). */
  turn(generation: GenerationRecord | undefined, context: number): void {
    if (!generation) return;
    (generation.turns ??= []).push([context, this.#early.spills, this.#early.denials]);
    this.reset();
  }

  /**
   * Spills and denials go to the turn they belong to. The binary runs a tool as soon as its block is
   * streamed, before the response ends: a denial comes before the context of the response that asked
   * for it, so it waits for the next turn. A spill comes when the tool's output is back, after that
   * response: it belongs to the last turn.
   */
  count(generation: GenerationRecord | undefined, spills: number, denials: number): void {
    this.#early.denials += denials;
    const last = generation?.turns?.at(-1);
    if (last) last[1] += spills;
    else this.#early.spills += spills;
  }
}
