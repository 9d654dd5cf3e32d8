/** Shared set-up for runtime e2e tests: a workspace, a run dir, an offline model, a runtime. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Runtime, type RuntimeOptions } from "../../src/index.js";
import type { FlowerEvent } from "../../src/runtime/events.js";
import { startFakeModel, type FakeModel, type FakeModelOptions } from "../../src/testing/index.js";

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
  const root = await mkdtemp(join(tmpdir(), "flower-test-"));
  const workspace = join(root, "workspace");
  const runDir = join(root, "runs");
  const { mkdir } = await import("node:fs/promises");
  await mkdir(workspace);
  const model = await startFakeModel(modelOptions);
  const events: FlowerEvent[] = [];
  const runtimes: Runtime[] = [];
  return {
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
      for (const rt of runtimes) rt.close();
      await model.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
