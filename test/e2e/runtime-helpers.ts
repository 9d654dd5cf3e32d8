/**
 * Shared set-up for runtime e2e tests: a workspace, a run dir, an offline model, a runtime.
 * Importing this module registers the cleanup in the test file: after each test every rig it made is
 * disposed (its runtimes closed, its model stopped), after the file the temporary directories go.
 */
import { writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach } from "vitest";
import { Runtime, type RuntimeOptions } from "../../src/index.js";
import type { FlowerEvent } from "../../src/runtime/events.js";
import { startFakeModel, type FakeModel, type FakeModelOptions } from "../../src/testing/index.js";
import { useTempDirs } from "../support/temp-dir.js";

const temp = useTempDirs();
const made: Rig[] = [];
afterEach(async () => {
  for (const one of made.splice(0)) await one.dispose();
});

export interface Rig {
  root: string;
  workspace: string;
  runDir: string;
  model: FakeModel;
  events: FlowerEvent[];
  runtime(options?: Partial<RuntimeOptions>): Runtime;
  dispose(): Promise<void>;
}

export async function rig(modelOptions: FakeModelOptions): Promise<Rig> {
  const root = temp.make("flower-test-");
  const workspace = join(root, "workspace");
  const runDir = join(root, "runs");
  await mkdir(workspace);
  const model = await startFakeModel(modelOptions);
  const events: FlowerEvent[] = [];
  const runtimes: Runtime[] = [];
  let disposed = false;
  const madeRig: Rig = {
    root,
    workspace,
    runDir,
    model,
    events,
    runtime(options = {}) {
      const rt = new Runtime({
        workspace,
        runDir,
        locale: "en",
        env: model.env(),
        onEvent: (event) => events.push(event),
        ...options,
      });
      runtimes.push(rt);
      return rt;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      for (const rt of runtimes) rt.close();
      await model.close();
    },
  };
  made.push(madeRig);
  return madeRig;
}

/** Six files of ~10k tokens each in the workspace: a few Reads bring the main thread over a handoff line. */
export function writeBigFiles(workspace: string): void {
  for (let f = 0; f < 6; f++) {
    const lines = Array.from({ length: 400 }, (_, n) => `FILE-${f}-LINE-${n} ${"lorem ipsum ".repeat(6)}`);
    writeFileSync(join(workspace, `big-${f}.txt`), lines.join("\n"));
  }
}

/** The environment of a fixture process that drives `rig`'s runtime (fixtures/*.mjs read these). */
export function fixtureEnv(rig: Rig): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...rig.model.env(),
    FLOWER_TEST_WORKSPACE: rig.workspace,
    FLOWER_TEST_RUN_DIR: rig.runDir,
  };
}
