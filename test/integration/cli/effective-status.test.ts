import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { effectiveStatus } from "../../../src/storage/run-directory.js";
import { newStepRecord } from "../../../src/records/step-record.js";

describe("effectiveStatus", () => {
  it("shows a running step whose process is gone as interrupted", () => {
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
    expect(effectiveStatus({ ...newStepRecord("s", "a", "p"), pid: gone })).toBe("interrupted");
  });

  it("keeps running while the process lives, and leaves finished steps alone", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
    try {
      expect(effectiveStatus({ ...newStepRecord("s", "a", "p"), pid: child.pid! })).toBe("running");
      expect(effectiveStatus({ ...newStepRecord("s", "a", "p"), status: "done", pid: 999_999_999 })).toBe(
        "done",
      );
    } finally {
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});
