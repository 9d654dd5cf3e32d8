/**
 * The one `flower demo --keep` of a test run, for the files that read a finished demo (listed in
 * SHARED_DEMO_READERS): test/support/shared-demo-global-setup.ts records it in the background when the
 * run starts, with the telemetry receiver on; `sharedDemo()` waits for it and hands over what the demo
 * printed, where it left its workspace and run directory, and what the receiver took.
 *
 * Other files read the same run at the same time, so the recording is read-only: its workspace
 * stays as the demo left it (the run's records name its files by absolute path), and a file that
 * writes to the run directory (`flower forget`, a report, another run beside the demo) works on its
 * own copy (`copyRunDir`).
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import {
  RECORDING_FILE,
  SHARED_DEMO_TIMEOUT_MS,
  type SharedDemoRecording,
} from "./shared-demo-global-setup.js";

export { SHARED_DEMO_PLANTED_SECRET } from "./shared-demo-global-setup.js";

export interface SharedDemo extends SharedDemoRecording {
  /** The run's name. */
  run: "demo";
  /** The demo's workspace (`--workspace`): shared, not to be written. */
  workspace: string;
  /** Its `.flower/notes`, where the frozen documents and handoffs are. */
  notes: string;
  /** The run directory as the demo left it: shared, not to be written (see copyRunDir). */
  runDir: string;
}

/** How long a reader waits: the demo's own hang guard, and the time its reader may have to queue behind. */
export const SHARED_DEMO_WAIT_MS = SHARED_DEMO_TIMEOUT_MS + 60_000;

/** Waits for the run's shared demo to end (whatever its exit code: the reader's tests check it). */
export async function sharedDemo(): Promise<SharedDemo> {
  const dir = inject("flowerSharedDemo");
  if (!dir)
    throw new Error(
      "this run recorded no shared demo: a file that reads it must be listed in SHARED_DEMO_READERS " +
        "(test/support/shared-demo-global-setup.ts)",
    );
  const file = join(dir, RECORDING_FILE);
  const deadline = Date.now() + SHARED_DEMO_WAIT_MS;
  while (!existsSync(file)) {
    if (Date.now() > deadline)
      throw new Error(`the shared demo left no ${file} in ${SHARED_DEMO_WAIT_MS / 1000} s`);
    await new Promise((go) => setTimeout(go, 250));
  }
  const recording = JSON.parse(readFileSync(file, "utf8")) as SharedDemoRecording;
  const workspace = join(dir, "demo");
  return {
    ...recording,
    run: "demo",
    workspace,
    notes: join(workspace, ".flower", "notes"),
    runDir: join(workspace, "runs"),
  };
}

/** A copy of the demo's run directory (databases, manifest) in `into`, for a reader that writes to it. */
export function copyRunDir(demo: SharedDemo, into: string): string {
  const runDir = join(into, "runs");
  cpSync(demo.runDir, runDir, { recursive: true });
  return runDir;
}
