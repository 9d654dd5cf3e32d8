/**
 * The work page of a step record: the chain's tip, what each generation changed, what was left out.
 * Called by the ledger (step-ledger.ts), the record's one writer, which saves after each fold.
 *
 * A generation is booked only when its session exists (the ledger's rule), but its `start` checkpoint is
 * taken before its first request: the checkpoint waits here and is attached when the generation is booked.
 */
import type { GenerationRecord, GenerationWork, StepRecord, StepWork } from "../../records/step-record.js";
import type { WorkCheckpointEvent, WorkRestoredEvent } from "../events.js";

/** How many warnings a record keeps: a store that stays away must not grow the record without end. */
const MAX_WARNINGS = 10;

export class WorkBooks {
  /** The start checkpoint of a generation not booked yet. */
  #pendingStart: string | null = null;

  /** The step's work begins (or goes on): where its files are and what its chain is. */
  begin(
    record: StepRecord,
    work: Omit<StepWork, "checkpoints" | "leftOut" | "tip"> & { tip: string | null },
  ): void {
    const previous = record.work;
    record.work = {
      ...work,
      // A continue keeps the chain's count and what it left out; the run's start stays the first one.
      start: previous?.start ?? work.start,
      checkpoints: previous?.run === work.run ? previous.checkpoints : 0,
      leftOut: previous?.leftOut ?? [],
      ...(previous?.warnings ? { warnings: previous.warnings } : {}),
    };
  }

  checkpoint(record: StepRecord, generation: GenerationRecord | undefined, event: WorkCheckpointEvent): void {
    const work = record.work;
    if (!work) return;
    work.tip = event.commit;
    work.start ??= event.commit;
    if (event.changed) work.checkpoints += 1;
    if (event.leftOut.length > 0 || event.kind !== "call") work.leftOut = event.leftOut;
    if (event.kind === "start" && generation === undefined) {
      this.#pendingStart = event.commit;
      return;
    }
    if (!generation) return;
    const books = (generation.work ??= { start: event.commit, end: event.commit, files: [] });
    books.end = event.commit;
    for (const file of event.files) if (!books.files.includes(file)) books.files.push(file);
  }

  /** A generation was booked: it starts from the checkpoint taken before its first request. */
  booked(generation: GenerationRecord, tip: string | null): void {
    const start = this.#pendingStart ?? tip;
    this.#pendingStart = null;
    if (start === null) return;
    generation.work = { start, end: start, files: [] } satisfies GenerationWork;
  }

  restored(record: StepRecord, event: WorkRestoredEvent): void {
    if (record.work) record.work.tip = event.commit;
  }

  warning(record: StepRecord, message: string): void {
    if (!record.work) return;
    const warnings = (record.work.warnings ??= []);
    if (warnings.includes(message) || warnings.length >= MAX_WARNINGS) return;
    warnings.push(message);
  }

  /** The handoff's "doing" becomes the generation's line on the handed-back branch. */
  summarize(generation: GenerationRecord | undefined, summary: string): void {
    if (generation?.work && summary.trim() !== "") generation.work.summary = oneLine(summary);
  }
}

/** The first line that says something, at most 200 characters. */
function oneLine(text: string): string {
  const line = text
    .split("\n")
    .map((part) => part.replace(/^[\s>*#-]+/, "").trim())
    .find((part) => part !== "");
  return (line ?? "").slice(0, 200);
}
