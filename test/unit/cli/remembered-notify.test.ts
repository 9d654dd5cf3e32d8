/**
 * `--notify` given once is told again by a continue without it: kept per run in the run directory,
 * owner-only, replaced by a new flag, found for a workflow step by its run, and a broken file keeps
 * nothing (the flag still works).
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forgetNotify, notifyFor } from "../../../src/cli/live/remembered-notify.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

describe("a run's --notify, remembered", () => {
  it("keeps what was given for the run, gives it back without the flag, and a new flag replaces it", () => {
    const runDir = join(temp.make("flower-notify-"), "runs");
    expect(notifyFor(runDir, "fix-the-bug", undefined)).toBeUndefined();
    const hook = { kind: "webhook", url: "https://hooks.example.com/T0/secret" } as const;
    expect(notifyFor(runDir, "fix-the-bug", hook)).toEqual(hook);
    expect(statSync(join(runDir, "notify.json")).mode & 0o777).toBe(0o600);
    expect(notifyFor(runDir, "fix-the-bug", undefined)).toEqual(hook);
    // A workflow step continued by its own name is told as its run was; another run is not.
    expect(notifyFor(runDir, "fix-the-bug/work", undefined)).toEqual(hook);
    expect(notifyFor(runDir, "other-run", undefined)).toBeUndefined();
    const command = { kind: "command", command: "sh tell.sh" } as const;
    expect(notifyFor(runDir, "fix-the-bug", command)).toEqual(command);
    expect(notifyFor(runDir, "fix-the-bug", undefined)).toEqual(command);
    expect(JSON.parse(readFileSync(join(runDir, "notify.json"), "utf8"))).toEqual({
      "fix-the-bug": "sh tell.sh",
    });
  });

  it("a broken file remembers nothing and is written afresh by the next flag", () => {
    const runDir = temp.make("flower-notify-broken-");
    writeFileSync(join(runDir, "notify.json"), "{ not json");
    expect(notifyFor(runDir, "r", undefined)).toBeUndefined();
    writeFileSync(join(runDir, "notify.json"), JSON.stringify({ r: "ftp://nope" }));
    expect(notifyFor(runDir, "r", undefined)).toBeUndefined();
    expect(notifyFor(runDir, "r", { kind: "command", command: "true" })).toEqual({
      kind: "command",
      command: "true",
    });
    expect(notifyFor(runDir, "r", undefined)).toEqual({ kind: "command", command: "true" });
  });

  it("forget drops the run's target: a new run of that name is not told", () => {
    const runDir = temp.make("flower-notify-forget-");
    notifyFor(runDir, "r", { kind: "command", command: "true" });
    notifyFor(runDir, "s", { kind: "command", command: "false" });
    forgetNotify(runDir, ["r", "r/work"]);
    expect(notifyFor(runDir, "r", undefined)).toBeUndefined();
    expect(notifyFor(runDir, "s", undefined)).toEqual({ kind: "command", command: "false" });
  });
});
