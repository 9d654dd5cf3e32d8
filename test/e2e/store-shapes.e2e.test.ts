/**
 * The store on the shapes real transcripts have (issue 42, items 10 to 13), resumed through the real
 * binary against the kit in strict mode. One transcript holds them all: a session the binary wrote, a
 * compaction (what came before it and the response it preserves), the recorded denial
 * (unit/session-layers/fixtures), a person's rejection at the permission prompt, a call an interrupt
 * stopped, a glance shorter than its expiry hint among longer ones, an abandoned branch and an old inline
 * sidechain. The same stored transcript is resumed twice: once from the rows as they are, once through
 * the default `PruningSessionStore`. The rewritten request must be valid, no bigger than the raw one,
 * and carry the person's rejection word for word.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionKey, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { delegateDenialReason } from "../../src/guards/delegate-guard.js";
import { PruningSessionStore } from "../../src/session-layers/pruning-store.js";
import { INTERRUPTED_NOTE } from "../../src/session-layers/store-notice-text.js";
import type { RewriteReport } from "../../src/session-layers/passes/rewrite-report.js";
import { SqliteSessionStore } from "../../src/storage/sqlite/sqlite-session-store.js";
import { text, type ModelRequest } from "../../src/testing/index.js";
import { useTempDirs } from "../support/temp-dir.js";
import { REJECTED_TEXT, TranscriptBuilder, bash } from "../unit/session-layers/transcript-fixtures.js";
import { runQuery, useModels } from "./sdk-session.js";

const temp = useTempDirs();
const startModel = useModels();

type Entry = SessionStoreEntry;

/** A `git status -s` longer than its expiry hint, marked so the test can find it in a request. */
const status = (label: string): string =>
  Array.from({ length: 8 }, (_, line) => ` M src/${label}/file-${line}.ts`).join("\n");

const RECORDED = new URL("../unit/session-layers/fixtures/coordinator-denied-bash.jsonl", import.meta.url);

/** The UUID group each builder prefix's entries get (the builder names entries `b-1`, `m-1`, `s-1`). */
const GROUPS: Record<string, string> = { b: "8000", m: "9000", s: "a000" };

/**
 * Builder entries as the binary writes them: UUIDs, this session's id and workspace, and times after the
 * session's own (where a parent is missing the binary falls back on times).
 */
function asWritten(entries: readonly Entry[], sessionId: string, cwd: string): Entry[] {
  const start = Date.now();
  return entries.map((entry, index) => {
    const json = JSON.stringify(entry).replace(/"([bms])-(\d+)"/g, (_, prefix: string, n: string) =>
      JSON.stringify(`00000000-0000-4000-${GROUPS[prefix]}-${n.padStart(12, "0")}`),
    );
    const written = JSON.parse(json) as Entry;
    if (written.uuid === undefined) return { ...written, sessionId };
    return { ...written, sessionId, cwd, timestamp: new Date(start + index * 10).toISOString() };
  });
}

/** The recorded denial turn, in this session and workspace, hanging from `parent`. */
function recordedDenial(sessionId: string, cwd: string, parent: string): Entry[] {
  const lines = readFileSync(RECORDED, "utf8").trim().split("\n");
  const entries = lines.map(
    (line) =>
      JSON.parse(
        line
          .replaceAll("00000000-0000-4000-8000-000000000001", sessionId)
          .replaceAll("/home/user/project", cwd),
      ) as Entry,
  );
  const first = entries.find((entry) => typeof entry.uuid === "string")!;
  first["parentUuid"] = parent;
  return entries;
}

describe("the store on real transcripts' shapes, through the real binary", () => {
  it("resumes valid and no bigger, the rejection word for word, only the chain counted", async () => {
    const model = await startModel({
      validation: "strict",
      policy: (request: ModelRequest) =>
        text(request.allText().includes("RESUMED") ? "resumed fine" : "hello"),
    });
    const cwd = temp.make("flower-shapes-");
    const raw = new SqliteSessionStore({ path: join(cwd, "raw.db") });
    const reports: RewriteReport[] = [];
    const pruning = new PruningSessionStore({
      inner: new SqliteSessionStore({ path: join(cwd, "rewritten.db") }),
      workspace: cwd,
      locale: "en",
      onLoad: (key, report) => {
        if (key.subpath === undefined) reports.push(report);
      },
    });
    try {
      // A session the binary wrote itself; everything below extends it.
      const first = await runQuery(model, "Say hello.", cwd, { sessionStore: raw });
      const sessionId = first.results[0]!.session_id;
      const key: SessionKey = { projectKey: raw.projectKeysOf(sessionId)[0]!, sessionId };
      const written = (await raw.load(key))!;
      const leaf = written.filter((entry) => typeof entry.uuid === "string").at(-1)!.uuid!;

      // Before a compaction: four glances the binary drops on resume, and the response it preserves.
      const before = new TranscriptBuilder({ prefix: "b" }).branchFrom(leaf);
      before.prompt("Watch the repo.");
      for (let i = 0; i < 4; i += 1) before.response(null, [bash("git status -s", status(`before-${i}`))]);
      before.response("Compacting now.");
      const preserved = before.last!;
      before.compactBoundary([preserved]);
      const compacted = asWritten(before.entries, sessionId, cwd);
      const summary = compacted.at(-1)!.uuid!;

      // After it: the recorded denial turn, then the person's rejection, an interruption and glances.
      const denial = recordedDenial(sessionId, cwd, summary);
      const after = new TranscriptBuilder({ prefix: "m" });
      after.branchFrom(denial.filter((entry) => typeof entry.uuid === "string").at(-1)!.uuid!);
      after.prompt("Clean up the build.");
      const [rejected] = after.response("Removing the build folder.", [bash("rm -rf build", "", "rejected")]);
      after.prompt("Keep build/, clean only dist/.");
      const [stopped] = after.response(null, [bash("sleep 20", "", "interrupted")]);
      after.prompt("Go on, watch the repo.");
      const [short] = after.response(null, [bash("git status -s", "")]);
      for (let i = 0; i < 8; i += 1) after.response(null, [bash("git status -s", status(`after-${i}`))]);
      const fork = after.last!;
      // A branch the person rewound away from: written, never sent again.
      for (let i = 0; i < 3; i += 1) after.response(null, [bash("git status -s", status(`abandoned-${i}`))]);
      after.response("Abandoned answer.");
      after.branchFrom(fork);
      // An old CLI's subagent, written inline.
      const sidechain = new TranscriptBuilder({ prefix: "s", agentId: "a-inline" });
      sidechain.prompt("Look around.");
      for (let i = 0; i < 3; i += 1) sidechain.response(null, [bash("ls", status(`sidechain-${i}`))]);
      sidechain.response("Report: all there.");
      after.inlineSidechain(sidechain);
      after.response("Ready.");
      const tail = [...compacted, ...denial, ...asWritten(after.entries, sessionId, cwd)];
      await raw.append(key, tail);
      await pruning.inner.append(key, [...written, ...tail]);

      const resumeRaw = await runQuery(model, "RESUMED: carry on.", cwd, {
        sessionStore: raw,
        resume: sessionId,
      });
      const rawRequest = model.requests.find((r) => r.allText().includes("RESUMED"))!;
      const resumed = await runQuery(model, "RESUMED: carry on.", cwd, {
        sessionStore: pruning,
        resume: sessionId,
      });
      const request = model.requests.filter((r) => r.allText().includes("RESUMED")).at(-1)!;
      expect(request).not.toBe(rawRequest);
      expect(resumeRaw.results.at(-1)).toMatchObject({ subtype: "success", result: "resumed fine" });
      expect(resumed.results.at(-1)).toMatchObject({ subtype: "success", result: "resumed fine" });

      // Valid for the strictest provider, and no bigger than what the rows as they are resume to.
      expect(model.exchanges.filter((e) => e.status !== 200).map((e) => e.reply)).toEqual([]);
      const size = (r: ModelRequest) => JSON.stringify(r.body.messages).length;
      expect(size(request)).toBeLessThan(size(rawRequest));

      const results = new Map(request.toolResults().map((result) => [result.toolUseId, result.text]));
      // The person's rejection reaches the model word for word; the interrupted call reads as interrupted.
      expect(results.get(rejected!)).toBe(REJECTED_TEXT);
      expect(results.get(stopped!)).toBe(INTERRUPTED_NOTE.en);
      // The short glance stays (its hint is longer); two long ones expire: 9 on the chain, 6 kept.
      expect(results.get(short!)).toBe("");
      const hints = request.toolResults().filter((r) => r.text.startsWith("[The result of `git status -s`"));
      expect(hints).toHaveLength(2);
      // The older recorded denial went with its call; the newer stays.
      const reason = `PreToolUse:Bash hook error: ${delegateDenialReason("Bash", true, "en")}`;
      expect(rawRequest.toolResults().filter((r) => r.text === reason)).toHaveLength(2);
      expect(request.toolResults().filter((r) => r.text === reason)).toHaveLength(1);
      expect(request.allText()).toContain("Let me run the tests (try 0).");
      // What the binary does not send was neither counted nor rewritten: the load's own report.
      for (const label of ["before-0", "abandoned-0", "sidechain-0"]) {
        expect(rawRequest.allText()).not.toContain(`src/${label}/`);
        expect(request.allText()).not.toContain(`src/${label}/`);
      }
      expect(request.allText()).toContain("Compacting now.");
      expect(reports.at(-1)).toMatchObject({ expired: 2, prunedDenials: 1, interrupted: 1 });
      expect(reports.at(-1)!.charsSaved).toBeGreaterThan(0);
    } finally {
      raw.close();
      await pruning.close();
    }
  });
});
