/**
 * A shared store's step records kept by a reader that shows them every second (`flower serve --store`):
 * read whole once, then only what was written since (postgres-run-records.ts `changes`), and the names
 * of all steps only when the count says one went (a `forget`). Reading every record each second read
 * 65 MB a second at 10,000 records; this reads what changed.
 */
import type { StepRecord } from "../records/step-record.js";
import type { PostgresRunRecords } from "./postgres/postgres-run-records.js";

export class FollowedRecords {
  readonly #source: Pick<PostgresRunRecords, "changes" | "names">;
  readonly #records = new Map<string, StepRecord>();
  /** The server's time of the last read; null before the first. */
  #at: string | null = null;

  constructor(source: Pick<PostgresRunRecords, "changes" | "names">) {
    this.#source = source;
  }

  /** Every step, oldest update first, as the store has them now. */
  async list(): Promise<StepRecord[]> {
    const change = await this.#source.changes(this.#at);
    for (const record of change.records) this.#records.set(record.step, record);
    if (this.#records.size !== change.count) {
      const names = new Set(await this.#source.names());
      for (const step of this.#records.keys()) if (!names.has(step)) this.#records.delete(step);
      // One the window missed (a write that took longer than it to commit): read them all again.
      if (this.#records.size !== names.size) {
        this.#records.clear();
        for (const record of (await this.#source.changes(null)).records)
          this.#records.set(record.step, record);
      }
    }
    this.#at = change.at;
    return [...this.#records.values()].sort(
      (a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.step.localeCompare(b.step),
    );
  }
}
