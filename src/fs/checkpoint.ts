/**
 * Named points where a crash test can stop a process exactly, then kill it with SIGKILL.
 *
 * A kill by timer lands wherever the process happens to be; a test that must kill "during a spill
 * write" needs the process to be there. With `FLOWER_TEST_PAUSE_AT=<point>[:<n>]` in the environment,
 * the n-th time (default the first) this process reaches `checkpoint(<point>)` it writes
 * `FLOWER_TEST_PAUSE_FILE` (the point's name) and blocks its thread for good: nothing more happens in
 * that process, so whatever is on disk at that moment is what a SIGKILL there leaves behind. The test
 * waits for the file, kills the process, and checks what is left.
 *
 * Without the variable (always, outside such tests) a checkpoint is one environment lookup.
 */
import { writeFileSync } from "node:fs";

/** The points flower code marks; a test names one of them. */
export type CheckpointName =
  /** A spill file's bytes are in its temporary file; the rename has not happened. */
  | "spill-write"
  /** A new INDEX.md is in its temporary file; the rename has not happened. */
  | "index-write"
  /** `forget` has deleted some of a step's sessions and not the others. */
  | "forget"
  /**
   * A step the run pauses after is done (its document frozen, its record written and its lease
   * released); the pause is not reported yet: no pause lines printed, a fleet run's row not `paused`.
   */
  | "workflow-pause";

const reached = new Map<string, number>();

export function checkpoint(name: CheckpointName): void {
  const wanted = process.env.FLOWER_TEST_PAUSE_AT;
  if (wanted === undefined || wanted === "") return;
  const [point, nth = "1"] = wanted.split(":");
  if (point !== name) return;
  const count = (reached.get(name) ?? 0) + 1;
  reached.set(name, count);
  if (count !== Number(nth)) return;
  const marker = process.env.FLOWER_TEST_PAUSE_FILE;
  if (marker) writeFileSync(marker, name);
  // Blocks this thread (the event loop with it) until the test's SIGKILL arrives.
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
