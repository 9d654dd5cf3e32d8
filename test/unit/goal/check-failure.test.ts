import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkFailureText,
  describeCheckFailure,
  type CheckFailure,
} from "../../../src/goal/check-failure.js";
import { runChecks } from "../../../src/goal/checks.js";

/** Every kind of failure with its words in both languages. */
const CASES: Array<[CheckFailure, string, string]> = [
  [
    { kind: "spawn-error", message: "spawn /bin/sh ENOENT" },
    "could not start /bin/sh: spawn /bin/sh ENOENT",
    "无法启动 /bin/sh:spawn /bin/sh ENOENT",
  ],
  [{ kind: "aborted" }, "aborted", "已中止"],
  [{ kind: "timed-out", timeoutMs: 1_500 }, "timed out after 1.5 s", "超时(1.5 秒后被终止)"],
  [{ kind: "signal", signal: "SIGKILL" }, "ended by SIGKILL", "被信号 SIGKILL 终止"],
  [{ kind: "signal", signal: null }, "ended by a signal", "被信号终止"],
  [
    { kind: "not-found", name: "pytest" },
    "command not found: pytest (exit 127)",
    "命令不存在:pytest(退出码 127)",
  ],
  [{ kind: "not-found", name: null }, "command not found (exit 127)", "命令不存在(退出码 127)"],
  [{ kind: "not-executable" }, "command not executable (exit 126)", "命令无法执行(退出码 126)"],
  [{ kind: "exit-code", exitCode: 3, expected: 0 }, "exit code 3, expected 0", "退出码 3(应为 0)"],
  [{ kind: "no-match", pattern: "^0$" }, "output does not match /^0$/", "输出不匹配 /^0$/"],
];

describe("a check's failure in the reader's language", () => {
  it.each(CASES)("%o", (failure, en, zh) => {
    expect(describeCheckFailure(failure, "en")).toBe(en);
    expect(describeCheckFailure(failure, "zh")).toBe(zh);
  });

  it("words a result by its failure, and falls back to the stored reason without one", () => {
    const failure: CheckFailure = { kind: "timed-out", timeoutMs: 1_000 };
    expect(checkFailureText({ failure, reason: "timed out after 1 s" }, "zh")).toBe("超时(1 秒后被终止)");
    // A record written before the failure was kept: its English reason, in either view.
    expect(checkFailureText({ reason: "timed out after 1 s" }, "zh")).toBe("timed out after 1 s");
    expect(checkFailureText({ failure: null, reason: null }, "en")).toBe("");
    // A kind written by a later version: the stored reason, not an empty or invented line.
    const later = { kind: "out-of-memory" } as unknown as CheckFailure;
    expect(describeCheckFailure(later, "zh")).toBeNull();
    expect(checkFailureText({ failure: later, reason: "out of memory" }, "zh")).toBe("out of memory");
  });
});

describe("the runner keeps the failure it worded", () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), "goal-failure-"));
  });
  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  it("records each failure as data and its English reason as the same words", async () => {
    const results = await runChecks(
      [
        { command: "true" },
        { command: "exit 4" },
        { command: "echo 7", expect: { pattern: "^0$" } },
        { command: "flower-no-such-command-xyz" },
        { command: "sleep 5", timeoutMs: 200 },
        { command: "kill -9 $$" },
      ],
      { workspace, logDir: path.join(workspace, "logs"), killGraceMs: 100 },
    );
    expect(results.map((result) => result.failure)).toEqual([
      null,
      { kind: "exit-code", exitCode: 4, expected: 0 },
      { kind: "no-match", pattern: "^0$" },
      { kind: "not-found", name: "flower-no-such-command-xyz" },
      { kind: "timed-out", timeoutMs: 200 },
      { kind: "signal", signal: "SIGKILL" },
    ]);
    for (const result of results)
      expect(result.reason).toBe(result.failure ? describeCheckFailure(result.failure, "en") : null);
    expect(results.map((result) => checkFailureText(result, "zh"))).toEqual([
      "",
      "退出码 4(应为 0)",
      "输出不匹配 /^0$/",
      "命令不存在:flower-no-such-command-xyz(退出码 127)",
      "超时(0.2 秒后被终止)",
      "被信号 SIGKILL 终止",
    ]);
  });
});
