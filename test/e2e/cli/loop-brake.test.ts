/**
 * The loop brake, as a user meets it: the built CLI, the real `claude` binary and the offline kit. A
 * model that fills its context at once every generation (a glance with a huge answer, as a real model
 * can) hands off within its first turns, again and again: a line below what the work needs. The brake
 * stops the step in under three generations with the seeds' diagnosis (the start-up floor; raise the
 * window or use --no-handoff) — no generation cap to wait for.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { cleanEnv, runFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

const HANDOFF = handoffMarkdown({ doing: "Looking around first.", next: ["Look around again."] });

/** Every generation: one glance whose answer fills the context past the line, then the handoff. */
function glancer(request: ModelRequest): Reply | undefined {
  if (request.isHandoffTurn) return text(HANDOFF);
  if (request.kind !== "main") return undefined;
  if (request.countToolResults("Bash") > 0) return text("Still looking.");
  return { ...toolUse("Bash", { command: "ls" }), outputTokens: 60_000 };
}

describe("the loop brake", () => {
  it("generations that reach the line at their first turn: stopped at the second, with the start-up floor diagnosis", async () => {
    const model = await startModel({ policy: glancer });
    const root = temp.make("flower-loop-");
    writeFileSync(join(root, "README.md"), "A project.\n");
    const run = await runFlower(["--direct", "--window", "90000", "--step", "look", "Look around"], {
      env: cleanEnv(model.env()),
      cwd: root,
      timeoutMs: 180_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    // Its first answer puts the successor past the line at once: caught there, not generations later.
    expect(run.stderr).toMatch(
      /Generations hand off before doing any work: generation 2 began at \d+ tokens, already at the handoff line \(40000\)\./,
    );
    expect(run.stdout + run.stderr).toMatch(/start-up floor .*: raise window, or use --no-handoff/);
    const record = (JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8")) as ManifestFile)
      .steps.look as StepRecord;
    expect(record.status).toBe("failed");
    expect(record.generations).toBe(2);
    // One writing turn: the second generation is stopped, not asked for a handoff, and no third begins.
    expect(model.requests.filter((request) => request.isHandoffTurn)).toHaveLength(1);
    model.assertNoErrors();
  }, 240_000);
});
