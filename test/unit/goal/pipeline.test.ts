import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  allPassed,
  guardRoundMessage,
  guardStatusLine,
  parseGoalChecks,
  runChecks,
} from "../../../src/goal/index.js";

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "goal-pipeline-"));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe("goal document → checks → guard round", () => {
  it("runs a frozen goal's checks and builds the round's message from what failed", async () => {
    await writeFile(path.join(workspace, "app.ts"), "// TODO: totals\n// TODO: coupon\nexport {};\n");
    const document = [
      "## goal",
      "No TODO left in app.ts, and the build script exists.",
      "## checks",
      "- `grep -c TODO app.ts` → output matches `^0$`",
      "- `test -f build.sh` — exit 0",
      "- `echo ok` — output contains `ok`",
    ].join("\n");
    const { checks, unparsed } = parseGoalChecks(document);
    expect(unparsed).toEqual([]);
    const logDir = path.join(workspace, ".flower", "artifacts");
    const results = await runChecks(checks, { workspace, logDir, timeoutMs: 10_000 });
    expect(results.map((result) => result.passed)).toEqual([false, false, true]);
    expect(allPassed(results)).toBe(false);

    const message = guardRoundMessage({ round: 1, rounds: 3, locale: "en", results });
    expect(message).toContain("2 of 3 checks failed");
    expect(message).toContain("1. `grep -c TODO app.ts` — exit 0, but the output does not match /^0$/");
    expect(message).toContain("   | 2");
    expect(message).toContain(
      `2. \`test -f build.sh\` — exit 1 (expected 0)\n   log: ${logDir}/goal-check-2.log`,
    );
    expect(guardStatusLine({ round: 1, rounds: 3, results, locale: "zh" })).toBe(
      "守门第 1/3 轮 · 3 项检查中 2 项未通过",
    );

    await writeFile(path.join(workspace, "app.ts"), "export {};\n");
    await writeFile(path.join(workspace, "build.sh"), "#!/bin/sh\n");
    expect(allPassed(await runChecks(checks, { workspace, logDir }))).toBe(true);
  });
});
