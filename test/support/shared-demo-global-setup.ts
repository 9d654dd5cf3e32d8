/**
 * A vitest globalSetup (the e2e project): one `flower demo --keep` for the test files that read a
 * finished demo, recorded once per test run instead of once per file. A demo is the priciest thing the
 * e2e tier does (eight real `claude` sessions through the built CLI), and three files only read its
 * result: what it printed (test/e2e/cli/demo.test.ts), its run directory (the same file's
 * show/report/forget tests, and `flower serve` in test/e2e/cli/serve-browser.test.ts), and the
 * OpenTelemetry it sent (test/e2e/cli/telemetry-demo.test.ts). So the one demo runs as the telemetry
 * test needs it — OTEL_EXPORTER_OTLP_ENDPOINT at a receiver, a credential planted in its environment —
 * and exits 0 with nothing on stderr all the same, which demo.test.ts checks on this very run.
 *
 * It starts in the background (the run does not wait for it) and only when the run has one of
 * SHARED_DEMO_READERS; a reader waits for it through test/support/shared-demo.ts. What needs a fresh demo
 * (the pseudo-terminal, zh, the removed workspace) still runs its own.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { TestProject } from "vitest/node";
import { cleanEnv, killGroup, spawnFlower, type Finished } from "../e2e/cli/helpers.js";
import { OtlpReceiver, type ReceivedMetric, type ReceivedSpan } from "./otlp-receiver.js";

/** The test files that read the shared demo; the demo is recorded only for a run that has one. */
export const SHARED_DEMO_READERS = [
  "test/e2e/cli/demo.test.ts",
  "test/e2e/cli/serve-browser.test.ts",
  "test/e2e/cli/telemetry-demo.test.ts",
];

/** Planted in the demo's environment: a credential the redactor knows and the binary does not use. */
export const SHARED_DEMO_PLANTED_SECRET = "AKIA-PLANTED-Secret-9f3Kq7Lm2Xw";

/** A hang guard, not a speed claim: the demo takes well under a minute on a quiet machine. */
export const SHARED_DEMO_TIMEOUT_MS = 300_000;

/** What the recording leaves in `<dir>/recording.json` once the demo has ended (whatever its exit). */
export interface SharedDemoRecording {
  /** `flower demo --keep --workspace <dir>/demo`, as the terminal got it. */
  finished: Finished;
  /** Everything the OTLP receiver took while the demo ran. */
  spans: ReceivedSpan[];
  metrics: ReceivedMetric[];
  requests: Array<{ path: string; contentType: string; json: unknown }>;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared demo's folder (its workspace is `demo/`), or "" when no file of this run reads it. */
    flowerSharedDemo: string;
  }
}

export const RECORDING_FILE = "recording.json";

/**
 * Whether this run has a reader. vitest's state lists the run's files by the time a globalSetup runs (an
 * experimental API: should it go, the demo is recorded for every e2e run rather than for none).
 */
function runHasReader(project: TestProject): boolean {
  let paths: string[];
  try {
    paths = project.vitest.state.getPaths();
  } catch {
    return true;
  }
  if (paths.length === 0) return true;
  const root = project.vitest.config.root;
  return paths.some((path) => SHARED_DEMO_READERS.includes(relative(root, path).split("\\").join("/")));
}

export default function setup(project: TestProject): () => Promise<void> {
  if (!runHasReader(project)) {
    project.provide("flowerSharedDemo", "");
    return async () => {};
  }
  const dir = mkdtempSync(join(tmpdir(), "flower-shared-demo-"));
  project.provide("flowerSharedDemo", dir);
  const receiver = new OtlpReceiver();
  let demo: ReturnType<typeof spawnFlower> | undefined;
  let ended = false;
  const recorded = (async () => {
    await receiver.start();
    demo = spawnFlower(["demo", "--keep", "--workspace", join(dir, "demo")], {
      env: cleanEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        AWS_SECRET_ACCESS_KEY: SHARED_DEMO_PLANTED_SECRET,
      }),
      timeoutMs: SHARED_DEMO_TIMEOUT_MS,
    });
    const finished = await demo.done;
    ended = true;
    await receiver.quiet();
    return { finished, spans: receiver.spans, metrics: receiver.metrics, requests: receiver.requests };
  })().then(
    (recording: SharedDemoRecording) => recording,
    // A demo that could not start still leaves a recording: each reader's first test then says why.
    (error: unknown): SharedDemoRecording => ({
      finished: { code: null, signal: null, stdout: "", stderr: String(error), timedOut: false },
      spans: [],
      metrics: [],
      requests: [],
    }),
  );
  // Written whole and renamed into place: a reader polling for the file never sees half of it.
  const written = recorded.then((recording) => {
    const partial = join(dir, `${RECORDING_FILE}.partial`);
    writeFileSync(partial, JSON.stringify(recording));
    renameSync(partial, join(dir, RECORDING_FILE));
  });
  return async () => {
    // A run stopped early (Ctrl-C, a bail) must not leave the demo and its `claude` behind.
    if (demo && !ended) killGroup(demo.child);
    await written.catch(() => undefined);
    await receiver.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
}
