/**
 * `--handoff-rule line|cost` on the command line: the built CLI, the real `claude` binary and the
 * offline kit. The cost rule hands off as soon as re-reading the context has cost as much as one
 * handoff — far below the line — and the step keeps the rule it was started with; a bad value is one
 * usage line naming it, before anything is written.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { cleanEnv, runFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

function record(root: string, step: string): StepRecord {
  return (JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8")) as ManifestFile).steps[step]!;
}

/**
 * ~3,400 characters as Read shows it (under the spill guard's 4,000, so it stays in context): about 850
 * tokens by the kit's count. Each file is read once: a re-read of an unchanged file is a stub.
 */
const PAGE = Array.from({ length: 50 }, (_, line) => `line ${line}: ${"lorem ipsum ".repeat(4)}`).join("\n");
const FILES = 30;

const HANDOFF = handoffMarkdown({
  doing: "GEN-1: reading the pages one by one.",
  next: ["Say it is finished."],
});

/** Each main turn reads the next page; after all of them, one generation would be done. */
function growingPolicy() {
  return (request: ModelRequest) => {
    if (request.isHandoffTurn) return text(HANDOFF);
    if (request.firstUserText().includes("GEN-1")) return text("Finished from the handoff.");
    if (request.kind !== "main") return undefined;
    if (request.countToolResults("Read") >= FILES) return text("Finished in one generation.");
    return toolUse("Read", { file_path: `page-${request.countToolResults("Read") + 1}.txt` });
  };
}

describe("flower --handoff-rule", () => {
  it("cost: the step hands off far below the line and records the rule; line: the same work stays in one generation", async () => {
    const model = await startModel({ policy: growingPolicy() });
    const env = cleanEnv(model.env());
    const runs: Record<string, StepRecord> = {};
    for (const rule of ["cost", "line"] as const) {
      const root = temp.make(`flower-rule-${rule}-`);
      for (let file = 1; file <= FILES; file++) writeFileSync(join(root, `page-${file}.txt`), PAGE);
      const run = await runFlower(
        ["--direct", "--window", "200000", "--handoff-rule", rule, "--step", "s", "Read the pages"],
        { env, cwd: root, timeoutMs: 150_000 },
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      runs[rule] = record(root, "s");
    }
    const cost = runs.cost!;
    const line = runs.line!;
    expect(cost.settings?.handoff.rule).toBe("cost");
    expect(
      cost.generations,
      JSON.stringify({ turns: cost.history.map((g) => g.turns), policy: cost.policy }),
    ).toBe(2);
    expect(cost.degraded).toBe(0);
    // The line of a 200k window is 150k; the cost rule went far before it, once staying had cost a handoff.
    expect(cost.history[0]!.context).toBeLessThan(50_000);
    expect(cost.result).toBe("Finished from the handoff.");
    expect(line.settings?.handoff.rule).toBe("line");
    expect(line.generations).toBe(1);
    expect(line.result).toBe("Finished in one generation.");
    model.assertNoErrors();
  }, 300_000);

  it("a value that is not a rule: one line naming it, exit 2, nothing written", async () => {
    const root = temp.make("flower-rule-bad-");
    const run = await runFlower(["--handoff-rule", "cheap", "Say hello"], { env: cleanEnv({}), cwd: root });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'flower: --handoff-rule must be line (hand off at the line, window - headroom) or cost (as soon as staying costs more than a handoff), got "cheap"',
    );
    expect(existsSync(join(root, "runs"))).toBe(false);
  });
});
