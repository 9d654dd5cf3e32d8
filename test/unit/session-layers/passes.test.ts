import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { blobAddress } from "../../../src/session-layers/blob-store.js";
import { expireEphemeral } from "../../../src/session-layers/passes/expire-ephemeral.js";
import { pruneDenials } from "../../../src/session-layers/passes/prune-denials.js";
import { pruneDisconnects } from "../../../src/session-layers/passes/prune-disconnects.js";
import { rewriteTranscript } from "../../../src/session-layers/passes/rewrite.js";
import { removeToolCalls } from "../../../src/session-layers/passes/remove-tool-calls.js";
import { turnsAfter } from "../../../src/session-layers/passes/transcript-entries.js";
import { spillPath, trimResults } from "../../../src/session-layers/passes/trim-results.js";
import {
  EPHEMERAL_EXPIRED as EXPIRED_HINT,
  ephemeralExpiredHint as expiredHint,
  ephemeralLabel as commandLabel,
  INTERRUPTED_NOTE,
  TRIM_POINTER,
} from "../../../src/session-layers/store-notice-text.js";
import {
  INTERRUPTED_TEXT,
  TranscriptBuilder,
  apiMessages,
  assertLinksResolve,
  assertPaired,
  bash,
  deepFreeze,
  read,
  resultBlockById,
  testIsEphemeral,
  toolUseIds,
  type Entry,
} from "./transcript-fixtures.js";

const content = (entries: readonly Entry[], id: string): unknown =>
  resultBlockById(entries, id)?.block["content"];

/** A `git status -s` output longer than any expiry hint (an expiry never puts in more than it takes out). */
const status = (i: number): string =>
  Array.from({ length: 8 }, (_, line) => ` M src/module-${i}/file-${line}.ts`).join("\n");

describe("store texts", () => {
  it("keeps the seed's expiry hint byte-exact", () => {
    expect(EXPIRED_HINT.zh("git status -s", 7)).toBe(
      "[`git status -s` 的结果已过期(第 7 轮前),当前状态可能已变。需要请重新执行]",
    );
    expect(INTERRUPTED_NOTE.zh).toBe("[上一轮在此处被中断,该工具结果未产生]");
    expect(EXPIRED_HINT.en("ls", 3)).toContain("`ls`");
    expect(TRIM_POINTER.en("/w/.flower/spill/x.txt", 5000)).toContain("/w/.flower/spill/x.txt");
  });

  it("renders a command label on one line without backticks", () => {
    expect(commandLabel("git status -s &&\n  echo `x`")).toBe("git status -s && echo 'x'");
    expect(commandLabel("ls " + "a".repeat(100))).toHaveLength(60);
  });
});

describe("turnsAfter", () => {
  it("counts model responses after an entry, one per message.id, synthetic errors excluded", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    t.response("looking", [bash("git status -s"), bash("ls")]); // entries 1..5
    t.response("done");
    t.apiErrorMessage();
    t.prompt("again");
    t.response("ok");
    const turns = turnsAfter(t.entries);
    expect(turns[0]).toBe(3);
    expect(turns[4]).toBe(2); // the `ls` result: "done" and "ok" follow
    expect(turns.at(-1)).toBe(0);
  });
});

describe("expireEphemeral", () => {
  function glances(count: number): { entries: Entry[]; ids: string[] } {
    const t = new TranscriptBuilder();
    t.prompt("watch the repo");
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push(...t.response(null, [bash("git status -s", status(i))]));
    t.response("all clean");
    return { entries: t.entries, ids };
  }

  it("replaces all but the newest keepEphemeral results with the hint naming command and turns ago", () => {
    const { entries, ids } = glances(8);
    const { entries: out, report } = expireEphemeral(deepFreeze(entries), {
      keepEphemeral: 6,
      isEphemeral: testIsEphemeral,
      locale: "zh",
    });
    expect(report.expired).toBe(2);
    // The first glance is followed by 8 responses (7 more glances and the final one).
    expect(content(out, ids[0] as string)).toBe(
      "[`git status -s` 的结果已过期(第 8 轮前),当前状态可能已变。需要请重新执行]",
    );
    expect(content(out, ids[1] as string)).toBe(expiredHint("git status -s", 7, "zh"));
    for (const id of ids.slice(2)) expect(content(out, id)).toBe(content(entries, id));
    expect(report.charsSaved).toBe(
      status(0).length +
        status(1).length -
        expiredHint("git status -s", 8, "zh").length -
        expiredHint("git status -s", 7, "zh").length,
    );
    assertPaired(out);
    assertLinksResolve(out);
  });

  it("leaves non-ephemeral, denied and interrupted results alone", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    const [test] = t.response(null, [bash("npm test", "42 passed")]);
    const [denied] = t.response(null, [bash("git status -s", "", "denied")]);
    const [stopped] = t.response(null, [bash("ls", "", "interrupted")]);
    t.prompt("continue");
    t.response("ok");
    const { entries: out, report } = expireEphemeral(t.entries, {
      keepEphemeral: 0,
      isEphemeral: testIsEphemeral,
      locale: "en",
    });
    expect(report.expired ?? 0).toBe(0);
    expect(content(out, test as string)).toBe("42 passed");
    expect(content(out, denied as string)).toContain("POLICY-DENIED");
    expect(content(out, stopped as string)).toBe(INTERRUPTED_TEXT);
  });

  it("does not mutate its input and returns unchanged entries as the same objects", () => {
    const { entries } = glances(3);
    const frozen = deepFreeze(structuredClone(entries));
    const { entries: out } = expireEphemeral(frozen, {
      keepEphemeral: 1,
      isEphemeral: testIsEphemeral,
      locale: "zh",
    });
    expect(frozen).toEqual(entries);
    expect(out[0]).toBe(frozen[0]);
  });
});

describe("trimResults", () => {
  it("spills long results except the newest keepRecent and returns the files to write", () => {
    const t = new TranscriptBuilder();
    t.prompt("read things");
    const long = "x".repeat(2500);
    const [first] = t.response(null, [read("/repo/a.txt", long)]);
    const [short] = t.response(null, [read("/repo/b.txt", "short")]);
    const [recent] = t.response(null, [read("/repo/c.txt", "y".repeat(3000))]);
    t.response("done");
    const {
      entries: out,
      report,
      spills,
    } = trimResults(deepFreeze(t.entries), {
      keepRecent: 1,
      minChars: 2000,
      spillDir: "/ws/.flower/spill",
      locale: "zh",
    });
    const path = spillPath("/ws/.flower/spill", long);
    expect(path).toMatch(/^\/ws\/\.flower\/spill\/trim-[0-9a-f]{20}\.txt$/);
    expect(spills).toEqual([{ path, content: long }]);
    expect(report).toEqual({ trimmed: 1, charsSaved: 2500 - TRIM_POINTER.zh(path, 2500).length });
    expect(content(out, first as string)).toBe(TRIM_POINTER.zh(path, 2500));
    expect(content(out, short as string)).toBe("short");
    expect(content(out, recent as string)).toBe("y".repeat(3000));
  });

  // spill-restore finds a spill file's blob by its name: the name must stay the blob address's prefix,
  // whichever hash function computes it (ASCII, CJK and astral characters: the UTF-8 bytes are hashed).
  it("names a spill file after the first 20 hex digits of the text's blob address", () => {
    for (const text of ["export const x = 1;\n".repeat(150), "结果 ".repeat(900), "😀 emoji ".repeat(300)]) {
      const path = spillPath("/ws/.flower/spill", text);
      expect(path).toBe(`/ws/.flower/spill/trim-${blobAddress(text).slice(0, 20)}.txt`);
      expect(blobAddress(text)).toBe(createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex"));
    }
  });

  it("never trims results holding images and reads text-block results", () => {
    const t = new TranscriptBuilder();
    t.prompt("look");
    const [image, blocks] = t.response(null, [read("/repo/p.png", ""), read("/repo/q.txt", "")]);
    t.response("done");
    const entries = t.entries.map((entry) => {
      const found = entry["message"] as { content: Array<Record<string, unknown>> };
      const block = found.content[0];
      if (block?.["tool_use_id"] === image)
        return {
          ...entry,
          message: {
            ...found,
            content: [{ ...block, content: [{ type: "image", source: { data: "A".repeat(5000) } }] }],
          },
        };
      if (block?.["tool_use_id"] === blocks)
        return {
          ...entry,
          message: { ...found, content: [{ ...block, content: [{ type: "text", text: "z".repeat(2100) }] }] },
        };
      return entry;
    });
    const { report, spills } = trimResults(entries, {
      keepRecent: 0,
      minChars: 2000,
      spillDir: "/s",
      locale: "en",
    });
    expect(report.trimmed).toBe(1);
    expect(spills[0]?.content).toBe("z".repeat(2100));
  });
});

describe("pruneDenials", () => {
  it("removes older denials with their tool_use, keeps the newest and re-links the chain", () => {
    const t = new TranscriptBuilder();
    t.prompt("fix it");
    const [d1] = t.response(null, [bash("rm -rf build", "", "denied")]);
    const [d2] = t.response(null, [bash("npm publish", "", "denied")]);
    t.response("I will delegate");
    const { entries: out, report } = pruneDenials(deepFreeze(t.entries), { keepDenials: 1 });
    expect(report.prunedDenials).toBe(1);
    expect(out.flatMap(toolUseIds)).toEqual([d2]);
    expect(resultBlockById(out, d1 as string)).toBeUndefined();
    expect(resultBlockById(out, d2 as string)?.entry["toolDenialKind"]).toBe("permission-rule");
    expect(out).toHaveLength(t.entries.length - 2);
    assertPaired(out);
    assertLinksResolve(out);
  });

  it("recognises denials only by the structural marker, never by text", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    t.response(null, [bash("echo", "PreToolUse:Bash hook error: POLICY-DENIED-XYZ")]);
    t.response(null, [bash("echo", "PreToolUse:Bash hook error: POLICY-DENIED-XYZ")]);
    const { report } = pruneDenials(t.entries, { keepDenials: 0 });
    expect(report.prunedDenials ?? 0).toBe(0);
  });

  it("keeps the accepted sibling of a denied call in the same response", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    const [denied, sibling] = t.response("two at once", [
      bash("rm -rf x", "", "denied"),
      read("/repo/a", "A"),
    ]);
    t.response("next");
    const { entries: out, report } = pruneDenials(deepFreeze(t.entries), { keepDenials: 0 });
    expect(report.prunedDenials).toBe(1);
    expect(out.flatMap(toolUseIds)).toEqual([sibling]);
    expect(resultBlockById(out, denied as string)).toBeUndefined();
    expect(resultBlockById(out, sibling as string)?.block["content"]).toBe("A");
    assertPaired(out);
    assertLinksResolve(out);
  });

  it("takes every result of a marked multi-result entry as denied, and keeps the message's text", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    const [a, b] = t.response("both", [bash("rm a", "", "denied"), bash("rm b", "", "denied")], {
      multiBlock: true,
    });
    const [kept] = t.response(null, [bash("ls", "x")]);
    const { entries: out, report } = pruneDenials(t.entries, { keepDenials: 0 });
    expect(report.prunedDenials).toBe(2);
    expect(out.flatMap(toolUseIds)).toEqual([kept]);
    expect(resultBlockById(out, a as string) ?? resultBlockById(out, b as string)).toBeUndefined();
    expect(apiMessages(out)[1]?.entries[0]?.["message"]).toMatchObject({
      content: [{ type: "text", text: "both" }],
    });
    assertPaired(out);
    assertLinksResolve(out);
  });
});

describe("removeToolCalls", () => {
  it("removes one call of a parallel response and keeps its siblings, each still answered", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    const [a, b, c] = t.response("three", [bash("ls"), read("/r/x", "X"), bash("git status -s")]);
    t.response("done");
    const { entries: out, removedEntries } = removeToolCalls(deepFreeze(t.entries), [b as string]);
    expect(removedEntries).toBe(2);
    expect(out.flatMap(toolUseIds)).toEqual([a, c]);
    assertPaired(out);
    assertLinksResolve(out);
  });

  it("strips a block from a multi-block entry and keeps the entry", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    const [a, b] = t.response("two", [bash("ls"), read("/r/x", "X")], { multiBlock: true });
    const { entries: out, removedEntries } = removeToolCalls(t.entries, [a as string]);
    expect(removedEntries).toBe(0);
    expect(out.flatMap(toolUseIds)).toEqual([b]);
    assertPaired(out);
  });

  // Pins the exact output where only blocks go and no entry is dropped: the removal must still count as
  // a change (re-link and merge run), count only the removed blocks, and keep the siblings in order.
  it("strips blocks without dropping an entry: exact output, the next response merged into the open one", () => {
    const input: Entry[] = deepFreeze([
      { type: "user", uuid: "u1", parentUuid: null, message: { role: "user", content: "go" } },
      {
        type: "assistant",
        uuid: "a1",
        parentUuid: "u1",
        message: {
          id: "m1",
          role: "assistant",
          content: [
            { type: "text", text: "two calls" },
            { type: "tool_use", id: "t1", name: "Bash", input: { command: "rm x" } },
            { type: "tool_use", id: "t2", name: "Read", input: { file_path: "/r" } },
          ],
        },
      },
      {
        type: "user",
        uuid: "u2",
        parentUuid: "a1",
        message: {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "denied" },
            { type: "tool_result", tool_use_id: "t2", content: "R" },
          ],
        },
      },
      {
        type: "assistant",
        uuid: "a2",
        parentUuid: "u2",
        message: { id: "m2", role: "assistant", content: [{ type: "text", text: "next" }] },
      },
      {
        type: "assistant",
        uuid: "a3",
        parentUuid: "a2",
        message: { id: "m3", role: "assistant", content: [{ type: "text", text: "and on" }] },
      },
    ]);
    const result = removeToolCalls(input, ["t1"]);
    expect(result.removedEntries).toBe(0);
    // The tool_use's input JSON ({"command":"rm x"}, 18) and the result's text ("denied", 6).
    expect(result.charsRemoved).toBe(24);
    expect(result.entries).toEqual([
      input[0],
      {
        ...input[1],
        message: {
          id: "m1",
          role: "assistant",
          content: [
            { type: "text", text: "two calls" },
            { type: "tool_use", id: "t2", name: "Read", input: { file_path: "/r" } },
          ],
        },
      },
      {
        ...input[2],
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "R" }] },
      },
      input[3],
      // A changed transcript gets its roles repaired: m3 follows m2 with no user entry between.
      { ...input[4], message: { id: "m2", role: "assistant", content: [{ type: "text", text: "and on" }] } },
    ]);
    expect(result.entries[0]).toBe(input[0]);
    expect(result.entries[3]).toBe(input[3]);
  });

  it("removing nothing returns every entry as the same object and repairs nothing", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    t.response("one");
    t.response("two");
    const input = deepFreeze(t.entries);
    const result = removeToolCalls(input, ["no-such-call"]);
    expect(result.charsRemoved).toBe(0);
    expect(result.entries).toHaveLength(input.length);
    result.entries.forEach((entry, index) => expect(entry).toBe(input[index]));
  });
});

describe("pruneDisconnects", () => {
  it("drops synthetic API-error entries and re-links around them", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    t.apiRetry(1).apiRetry(2).apiErrorMessage();
    t.prompt("go on");
    t.apiRetry(1);
    t.response("fine");
    const { entries: out, report } = pruneDisconnects(deepFreeze(t.entries), { locale: "zh" });
    expect(report.prunedApiErrors).toBe(4);
    expect(out.some((entry) => entry["isApiErrorMessage"] === true || entry["subtype"] === "api_error")).toBe(
      false,
    );
    expect(out).toHaveLength(3);
    expect(apiMessages(out).map((message) => message.role)).toEqual(["user", "assistant"]);
    assertLinksResolve(out);
    expect(report.charsSaved).toBeGreaterThan(50);
  });

  it("replaces an interrupted tool result by the neutral note and keeps the entry", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    const [id] = t.response(null, [bash("sleep 20", "", "interrupted")]);
    t.prompt("continue");
    const { entries: out, report } = pruneDisconnects(t.entries, { locale: "zh" });
    expect(report.interrupted).toBe(1);
    expect(out).toHaveLength(t.entries.length);
    expect(content(out, id as string)).toBe("[上一轮在此处被中断,该工具结果未产生]");
    assertPaired(out);
    // Idempotent: the note is not counted again.
    expect(pruneDisconnects(out, { locale: "zh" }).report.interrupted).toBe(0);
  });

  it("does not take a denial for an interruption", () => {
    const t = new TranscriptBuilder();
    t.prompt("go");
    t.response(null, [bash("rm x", "", "denied")]);
    expect(pruneDisconnects(t.entries, { locale: "en" }).report.interrupted).toBe(0);
  });
});

describe("rewriteTranscript", () => {
  it("runs all passes, leaves markers without uuid untouched and keeps the transcript resumable", () => {
    const t = new TranscriptBuilder();
    t.prompt("work");
    t.marker("mode", "bypassPermissions");
    for (let i = 0; i < 8; i += 1) t.response(null, [bash("ls", status(i))]);
    t.response(null, [bash("rm -rf /", "", "denied")]);
    t.response(null, [bash("rm -rf ~", "", "denied")]);
    t.response(null, [read("/r/big", "b".repeat(5000))]);
    t.apiRetry(1).apiErrorMessage();
    t.prompt("again");
    t.response(null, [bash("sleep 9", "", "interrupted")]);
    t.prompt("go on");
    t.response("done");
    t.marker("cost-state", 0.5);
    const input = deepFreeze(structuredClone(t.entries));
    const result = rewriteTranscript(input, {
      locale: "en",
      disconnects: true,
      denials: { keepDenials: 1 },
      expire: { keepEphemeral: 6, isEphemeral: testIsEphemeral },
      trim: { keepRecent: 1, minChars: 2000, spillDir: "/ws/.flower/spill" },
    });
    expect(result.report).toMatchObject({
      expired: 2,
      trimmed: 1,
      prunedDenials: 1,
      prunedApiErrors: 2,
      interrupted: 1,
    });
    expect(result.report.charsSaved).toBeGreaterThan(4000);
    expect(result.spills).toHaveLength(1);
    expect(result.entries.filter((entry) => entry.uuid === undefined)).toEqual(
      t.entries.filter((entry) => entry.uuid === undefined),
    );
    expect(input).toEqual(t.entries);
    assertPaired(result.entries);
    assertLinksResolve(result.entries);
  });
});
