/**
 * What a `--notify` value names: an http(s) URL is a webhook, other text a shell command, another scheme
 * is refused (named); what a message shows of a value leaves out where a webhook keeps its secret.
 */
import { describe, expect, it } from "vitest";
import { notificationEnv, parseNotifyTarget, shownTarget } from "../../../src/notify/index.js";

describe("parseNotifyTarget", () => {
  it.each([
    ["notify-send flower", { kind: "command", command: "notify-send flower" }],
    ["  node notify.mjs out.jsonl  ", { kind: "command", command: "node notify.mjs out.jsonl" }],
    // No `//`: text, run by the shell (it fails there, as any wrong command does).
    ["mailto:me@example.com", { kind: "command", command: "mailto:me@example.com" }],
    ["https://hooks.example.com/T1/B2?x=1", { kind: "webhook", url: "https://hooks.example.com/T1/B2?x=1" }],
    ["HTTP://127.0.0.1:8080/hook", { kind: "webhook", url: "http://127.0.0.1:8080/hook" }],
  ])("%j", (value, target) => {
    expect(parseNotifyTarget(value)).toEqual(target);
  });

  it.each([
    ["", { refused: "empty" }],
    ["   ", { refused: "empty" }],
    [42, { refused: "empty" }],
    ["ftp://example.com/x", { refused: "scheme", scheme: "ftp" }],
    ["Postgres://u:p@h/db", { refused: "scheme", scheme: "postgres" }],
    ["http://", { refused: "url" }],
    ["https://exa mple.com/", { refused: "url" }],
  ])("refuses %j", (value, refusal) => {
    expect(parseNotifyTarget(value)).toEqual(refusal);
  });
});

describe("shownTarget", () => {
  it("shows a webhook as its scheme and host: the path, query and user part may hold its secret", () => {
    expect(shownTarget("https://hooks.slack.com/services/T000/B000/XXXXSECRET")).toBe(
      "https://hooks.slack.com/…",
    );
    expect(shownTarget("https://user:pw@example.com:8443/?token=abc")).toBe("https://example.com:8443/…");
    expect(shownTarget("http://127.0.0.1:9000/")).toBe("http://127.0.0.1:9000");
  });

  it("shows a refused URL without its user, password or path", () => {
    expect(shownTarget("ftp://bob:secret@files.example.com/drop?k=1")).toBe("ftp://***@files.example.com/…");
    expect(shownTarget("ftp://files.example.com")).toBe("ftp://files.example.com");
  });

  it("shows a command on one short line", () => {
    expect(shownTarget("node  notify.mjs\n  out.jsonl")).toBe("node notify.mjs out.jsonl");
    const long = `echo ${"x".repeat(100)}`;
    expect(Array.from(shownTarget(long))).toHaveLength(60);
    expect(shownTarget(long).endsWith("…")).toBe(true);
  });
});

describe("notificationEnv", () => {
  it("gives a command every field; no command to go on is an empty variable", () => {
    expect(
      notificationEnv({
        event: "done",
        run: "fix",
        step: "work",
        status: "done",
        why: "the run is done",
        continue: null,
        at: "2026-01-01T00:00:00.000Z",
      }),
    ).toEqual({
      FLOWER_NOTIFY_EVENT: "done",
      FLOWER_NOTIFY_RUN: "fix",
      FLOWER_NOTIFY_STEP: "work",
      FLOWER_NOTIFY_STATUS: "done",
      FLOWER_NOTIFY_WHY: "the run is done",
      FLOWER_NOTIFY_CONTINUE: "",
      FLOWER_NOTIFY_AT: "2026-01-01T00:00:00.000Z",
    });
  });
});
