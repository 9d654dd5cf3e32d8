/**
 * The store's passes on the shapes real transcripts have (issue 42, items 10 to 13): a person's
 * rejection, results shorter than their expiry hint, a compaction boundary, an abandoned branch, an old
 * inline sidechain, and a denial recorded from the bundled binary (fixtures/coordinator-denied-bash.jsonl,
 * written by test/support/record-denial-fixture.mjs). Each shape is one the passes met on 38 public
 * Claude Code transcripts and handled wrongly.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { delegateDenialReason } from "../../../src/guards/delegate-guard.js";
import { pruneDenials } from "../../../src/session-layers/passes/prune-denials.js";
import { resumedChain } from "../../../src/session-layers/passes/resumed-chain.js";
import { rewriteTranscript, type RewriteOptions } from "../../../src/session-layers/passes/rewrite.js";
import { trimResults } from "../../../src/session-layers/passes/trim-results.js";
import { EPHEMERAL_EXPIRED, INTERRUPTED_NOTE } from "../../../src/session-layers/store-notice-text.js";
import { strictViolation } from "./cli-messages.js";
import {
  REFUSED_TEXT,
  REJECTED_TEXT,
  TranscriptBuilder,
  bash,
  deepFreeze,
  resultBlockById,
  testIsEphemeral,
  toolUseIds,
  type Entry,
} from "./transcript-fixtures.js";

/** The store's defaults (what `flower` runs with), trim on and small enough to reach short results. */
const DEFAULTS: RewriteOptions = {
  locale: "en",
  disconnects: true,
  denials: { keepDenials: 1 },
  expire: { keepEphemeral: 6, isEphemeral: testIsEphemeral },
  trim: null,
};

const content = (entries: readonly Entry[], id: string): unknown =>
  resultBlockById(entries, id)?.block["content"];

/** A `git status -s` longer than any hint. */
const status = (i: number): string =>
  Array.from({ length: 8 }, (_, line) => ` M src/module-${i}/file-${line}.ts`).join("\n");

const expired = (value: unknown): boolean =>
  typeof value === "string" && value.startsWith("[The result of `");

describe("a person's rejection (item 10)", () => {
  it("reaches the model as written; an interrupted call becomes the note", () => {
    const t = new TranscriptBuilder();
    t.prompt("clean up");
    // The shape in every public transcript: no toolDenialKind, the CLI's rejection text.
    const [rejected] = t.response("Removing the build folder.", [bash("rm -rf build", "", "rejected")]);
    t.prompt("Keep build/, clean only dist/.");
    // The binary's interruption of a running call (recorded): the same words plus its correction.
    const [stopped] = t.response(null, [bash("sleep 20", "", "interrupted")]);
    t.prompt("go on");
    t.response("ok");
    const { entries, report } = rewriteTranscript(deepFreeze(t.entries), DEFAULTS);
    expect(content(entries, rejected!)).toBe(REJECTED_TEXT);
    expect(content(entries, stopped!)).toBe(INTERRUPTED_NOTE.en);
    expect(report.interrupted).toBe(1);
    expect(strictViolation(entries)).toBeNull();
  });

  it("keeps the person's words after the rejection, and the binary's own forms of a rejection", () => {
    const t = new TranscriptBuilder();
    t.prompt("ship it");
    const [withWords, tui, callback] = t.response(null, [
      bash("npm publish", "", "rejected"),
      bash("git push --force", "", "rejected"),
      bash("touch made.txt", "", "refused"),
    ]);
    t.prompt("next");
    t.response("done");
    const words = `${REJECTED_TEXT.slice(0, REJECTED_TEXT.indexOf(" STOP"))} To tell you how to proceed, the user said:\nuse the release script`;
    const entries = t.entries.map((entry) => {
      const block = resultBlockById([entry], withWords!)?.block;
      if (block !== undefined)
        return { ...entry, message: { role: "user", content: [{ ...block, content: words }] } };
      // CLI 2.1.332 marks a rejection at its prompt.
      if (resultBlockById([entry], tui!) !== undefined)
        return {
          ...entry,
          toolDenialKind: "user-rejected",
          permissionDecision: { decision: "reject", source: "user_reject" },
        };
      return entry;
    });
    const out = rewriteTranscript(deepFreeze(entries), {
      ...DEFAULTS,
      denials: { keepDenials: 0 },
      expire: { keepEphemeral: 0, isEphemeral: () => true },
    });
    expect(content(out.entries, withWords!)).toBe(words);
    expect(content(out.entries, tui!)).toBe(REJECTED_TEXT);
    // A person's "no" through the SDK carries the rule's marker; it is not a rule's denial.
    expect(content(out.entries, callback!)).toBe(REFUSED_TEXT);
    expect(out.report).toMatchObject({ interrupted: 0, prunedDenials: 0, expired: 0 });
  });

  it("takes a call an interrupt stopped before it started for an interruption, not a person's no", () => {
    // What CLI 2.1.332 writes for a queued call when flower stops a session (a stop, the handoff switch):
    // the rejection's words, marked user-rejected, but no person's decision.
    const t = new TranscriptBuilder();
    t.prompt("go");
    const [queued] = t.response(null, [bash("npm test", "", "rejected")]);
    t.prompt("go on");
    t.response("ok");
    const entries = t.entries.map((entry) =>
      resultBlockById([entry], queued!) === undefined
        ? entry
        : { ...entry, toolDenialKind: "user-rejected", toolDenialBeforeRun: true },
    );
    const { entries: out, report } = rewriteTranscript(deepFreeze(entries), DEFAULTS);
    expect(content(out, queued!)).toBe(INTERRUPTED_NOTE.en);
    expect(report.interrupted).toBe(1);
  });

  it("leaves the binary's own note for an aborted call as it is", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    const [aborted] = t.response(null, [bash("git status", status(0))]);
    for (let i = 1; i < 3; i += 1) t.response(null, [bash("git status", status(i))]);
    t.response("done");
    const note =
      "[Tool call did not complete: the turn was ended to deliver the message that follows. Nothing refused it; re-run it if still needed.]";
    const entries = t.entries.map((entry) => {
      const block = resultBlockById([entry], aborted!)?.block;
      if (block === undefined) return entry;
      return {
        ...entry,
        toolUseResult: note,
        toolDenialKind: "interrupted",
        message: { role: "user", content: [{ ...block, content: note, is_error: true }] },
      };
    });
    const out = rewriteTranscript(entries, {
      ...DEFAULTS,
      expire: { keepEphemeral: 0, isEphemeral: testIsEphemeral },
    });
    expect(content(out.entries, aborted!)).toBe(note);
    expect(out.report).toMatchObject({ interrupted: 0, expired: 2 });
  });
});

describe("never longer (item 11)", () => {
  it("keeps a glance result no longer than its hint, empty ones included, and never reports a loss", () => {
    const t = new TranscriptBuilder();
    t.prompt("watch");
    const outputs = ["", " M a.ts", status(0), "", status(1)];
    const ids = outputs.map((output) => t.response(null, [bash("git status -s", output)])[0]!);
    t.response("done");
    const { entries, report } = rewriteTranscript(t.entries, {
      ...DEFAULTS,
      expire: { keepEphemeral: 0, isEphemeral: testIsEphemeral },
    });
    ids.forEach((id, index) => {
      const original = outputs[index]!;
      if (original.length > 200) expect(expired(content(entries, id))).toBe(true);
      else expect(content(entries, id)).toBe(original);
    });
    expect(report.expired).toBe(2);
    expect(report.charsSaved).toBeGreaterThan(0);
    const short = rewriteTranscript(
      t.entries.filter((entry) => !JSON.stringify(entry).includes("module-")),
      { ...DEFAULTS, expire: { keepEphemeral: 0, isEphemeral: testIsEphemeral } },
    );
    expect(short.report).toMatchObject({ expired: 0, charsSaved: 0 });
  });

  it("does not trim a result into a longer pointer", () => {
    const t = new TranscriptBuilder();
    t.prompt("read");
    const [small] = t.response(null, [bash("cat a", "x".repeat(50))]);
    const [big] = t.response(null, [bash("cat b", "y".repeat(5000))]);
    t.response("done");
    const out = trimResults(t.entries, {
      keepRecent: 0,
      minChars: 1,
      spillDir: "/ws/.flower/spill",
      locale: "en",
    });
    expect(content(out.entries, small!)).toBe("x".repeat(50));
    expect(content(out.entries, big!)).toMatch(/^\[This tool result \(5000 chars\) was moved to /);
    expect(out.report.trimmed).toBe(1);
    expect(out.report.charsSaved).toBeGreaterThan(4000);
  });
});

describe("counted on the chain the binary resumes (item 12)", () => {
  it("leaves what lies before a compaction alone: it neither expires nor shields", () => {
    const t = new TranscriptBuilder();
    t.prompt("watch");
    const before = Array.from({ length: 8 }, (_, i) => t.response(null, [bash("git status", status(i))])[0]!);
    t.response("summarising soon");
    t.compactBoundary();
    t.prompt("go on");
    const after = Array.from(
      { length: 3 },
      (_, i) => t.response(null, [bash("git status", status(10 + i))])[0]!,
    );
    t.response("done");
    const { entries, report } = rewriteTranscript(deepFreeze(t.entries), DEFAULTS);
    for (const id of [...before, ...after]) expect(content(entries, id)).toBe(content(t.entries, id));
    expect(report.expired).toBe(0);
  });

  it("counts what the boundary preserves: it is sent after the summary", () => {
    const t = new TranscriptBuilder();
    t.prompt("watch");
    t.response(null, [bash("git status", status(0))]);
    const head = t.last!;
    const [preserved] = t.response(null, [bash("git status", status(1))]);
    const tail = t.last!;
    // The preserved segment is the glance's call and result, from the assistant entry to the result.
    const segment = t.entries
      .slice(t.entries.findIndex((entry) => entry.uuid === head) + 1)
      .filter((entry) => typeof entry.uuid === "string")
      .map((entry) => entry.uuid as string);
    expect(segment.at(-1)).toBe(tail);
    t.compactBoundary(segment);
    const after = Array.from(
      { length: 6 },
      (_, i) => t.response(null, [bash("git status", status(10 + i))])[0]!,
    );
    t.response("done");
    const chain = resumedChain(t.entries);
    expect(segment.every((uuid) => chain.has(uuid))).toBe(true);
    expect(chain.has(head)).toBe(false);
    const { entries, report } = rewriteTranscript(t.entries, DEFAULTS);
    expect(expired(content(entries, preserved!))).toBe(true);
    for (const id of after) expect(content(entries, id)).toBe(content(t.entries, id));
    expect(report.expired).toBe(1);
  });

  it("leaves an abandoned branch alone and counts turns along the chain", () => {
    const t = new TranscriptBuilder();
    t.prompt("watch");
    const [first] = t.response(null, [bash("git status", status(0))]);
    const fork = t.last!;
    // A branch the person rewound away from: six glances and an answer, never sent again.
    const abandoned = Array.from(
      { length: 6 },
      (_, i) => t.response(null, [bash("git status", status(20 + i))])[0]!,
    );
    t.response("abandoned answer");
    t.branchFrom(fork);
    t.prompt("try again");
    const kept = Array.from(
      { length: 6 },
      (_, i) => t.response(null, [bash("git status", status(40 + i))])[0]!,
    );
    t.response("done");
    const { entries, report } = rewriteTranscript(deepFreeze(t.entries), DEFAULTS);
    for (const id of [...abandoned, ...kept]) expect(content(entries, id)).toBe(content(t.entries, id));
    // The first glance is the oldest of seven on the chain; seven responses follow it there (not fourteen).
    expect(content(entries, first!)).toBe(EPHEMERAL_EXPIRED.en("git status", 7));
    expect(report.expired).toBe(1);
  });

  it("resumes from the checkpoint when the last rows lie on a branch that was rewound away from", () => {
    const t = new TranscriptBuilder();
    t.prompt("watch");
    const glances = Array.from(
      { length: 7 },
      (_, i) => t.response(null, [bash("git status", status(i))])[0]!,
    );
    t.response("done");
    const leaf = t.last!;
    t.checkpoint(leaf);
    const [dead] = t.response(null, [bash("git status", status(9))]);
    t.checkpoint();
    // The person rewinds to before the last glance: the CLI names where it went back to.
    t.checkpoint(leaf, { explicit: true });
    const chain = resumedChain(t.entries);
    expect(chain.has(leaf)).toBe(true);
    const { entries, report } = rewriteTranscript(t.entries, DEFAULTS);
    expect(expired(content(entries, glances[0]!))).toBe(true);
    expect(content(entries, dead!)).toBe(status(9));
    expect(report.expired).toBe(1);
  });

  it("leaves an old inline sidechain alone and does not count its glances", () => {
    const t = new TranscriptBuilder();
    t.prompt("watch");
    const main = [t.response(null, [bash("git status", status(0))])[0]!];
    const sub = new TranscriptBuilder({ prefix: "s", agentId: "a1" });
    sub.prompt("look around");
    const inSidechain = Array.from(
      { length: 6 },
      (_, i) => sub.response(null, [bash("ls", status(30 + i))])[0]!,
    );
    sub.response("report");
    t.inlineSidechain(sub);
    for (let i = 1; i < 6; i += 1) main.push(t.response(null, [bash("git status", status(i))])[0]!);
    t.response("done");
    const { entries, report } = rewriteTranscript(deepFreeze(t.entries), {
      ...DEFAULTS,
      expire: { keepEphemeral: 5, isEphemeral: testIsEphemeral },
    });
    for (const id of inSidechain) expect(content(entries, id)).toBe(content(t.entries, id));
    expect(expired(content(entries, main[0]!))).toBe(true);
    expect(report.expired).toBe(1);
  });

  it("keeps the newest denial on the chain, not one on an abandoned branch", () => {
    const t = new TranscriptBuilder();
    t.prompt("test");
    const [onChain] = t.response(null, [bash("npm test", "", "denied")]);
    const fork = t.last!;
    const [offChain] = t.response(null, [bash("make", "", "denied")]);
    t.branchFrom(fork);
    const [newest] = t.response(null, [bash("npm test", "", "denied")]);
    t.response("delegating");
    const { entries, report } = rewriteTranscript(t.entries, DEFAULTS);
    expect(report.prunedDenials).toBe(1);
    expect(entries.flatMap(toolUseIds)).not.toContain(onChain);
    expect(entries.flatMap(toolUseIds)).toEqual(expect.arrayContaining([offChain, newest]));
  });
});

describe("a denial recorded from the bundled binary (item 13)", () => {
  const recorded: Entry[] = readFileSync(
    new URL("./fixtures/coordinator-denied-bash.jsonl", import.meta.url),
    "utf8",
  )
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Entry);
  const reason = `PreToolUse:Bash hook error: ${delegateDenialReason("Bash", true, "en")}`;

  it("is what flower's guard denies: two Bash calls, each marked by the harness", () => {
    const denials = recorded.filter((entry) => entry["toolDenialKind"] === "permission-rule");
    expect(denials).toHaveLength(2);
    for (const denial of denials) {
      expect((denial["message"] as { content: Array<{ content: unknown }> }).content[0]!.content).toBe(
        reason,
      );
      expect(denial["permissionDecision"]).toMatchObject({ decision: "reject", source: "hook" });
    }
    expect(strictViolation(recorded)).toBeNull();
  });

  it("loses the older denial with its call, keeps the newer one and every sentence, and stays valid", () => {
    const { entries, report } = rewriteTranscript(deepFreeze(structuredClone(recorded)), DEFAULTS);
    expect(report.prunedDenials).toBe(1);
    expect(report.charsSaved).toBeGreaterThan(reason.length);
    const calls = (entries: readonly Entry[]) => entries.flatMap(toolUseIds);
    expect(calls(recorded)).toEqual(["toolu_fake_0", "toolu_fake_2"]);
    expect(calls(entries)).toEqual(["toolu_fake_2"]);
    expect(resultBlockById(entries, "toolu_fake_0")).toBeUndefined();
    expect(resultBlockById(entries, "toolu_fake_2")?.entry).toEqual(
      resultBlockById(recorded, "toolu_fake_2")?.entry,
    );
    const words = JSON.stringify(entries);
    for (const sentence of [
      "Let me run the tests (try 0).",
      "Let me run the tests (try 1).",
      "I will send an engineer.",
    ])
      expect(words).toContain(sentence);
    expect(strictViolation(entries)).toBeNull();
    // Nothing else changed: the same entries minus the two that held only the pruned call and its result.
    expect(entries).toHaveLength(recorded.length - 2);
    expect(pruneDenials(entries, { keepDenials: 1 }).report).toEqual({});
  });
});
