/**
 * The live view's lines for a run's work (src/checkpoints/): the files brought to the last checkpoint as a step
 * goes on, and a checkpoint that failed, are said always, in one line each; a checkpoint that changed
 * files only under -v. `--json` passes the events through as they are.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Display } from "../../../src/cli/live/display.js";
import { eventSink, makeOutput } from "../../../src/cli/live/live-run.js";
import type { Locale } from "../../../src/locale/locale.js";
import type { FlowerEvent } from "../../../src/runtime/events.js";
import { displayOutput } from "./display-output.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const TEN = Array.from({ length: 10 }, (_, index) => `src/f${index + 1}.ts`);

const RESTORED: FlowerEvent = {
  type: "work-restored",
  step: "fix",
  commit: "c7",
  dropped: 2,
  restored: TEN,
  kept: ["notes.txt"],
};

const WARNING: FlowerEvent = {
  type: "work-warning",
  step: "fix",
  message: "a checkpoint of the run's files failed (call): ENOSPC\nno space left on device",
};

function checkpoint(files: string[], changed = true, tool?: string): FlowerEvent {
  return {
    type: "work-checkpoint",
    step: "fix",
    kind: "call",
    commit: "c8",
    changed,
    files,
    leftOut: [],
    ...(tool ? { tool, call: "toolu_1" } : {}),
  };
}

/** What the view prints on a pipe, with -v. */
function verbose(events: FlowerEvent[], locale: Locale): string {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const display = new Display({ out, tty: false, locale, home: "/home/u", verbose: true });
  for (const event of events) display.handle(event);
  display.close();
  return chunks.join("");
}

describe("the live view of a run's files", () => {
  it("says the files put back and kept as they were in one line, naming eight of each at most", () => {
    expect(displayOutput([RESTORED], "en")).toBe(
      "<- files brought to the last checkpoint: 10 put back (src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts, src/f5.ts, src/f6.ts, src/f7.ts, src/f8.ts and 2 more)" +
        " · 1 kept as they were (notes.txt) · 2 checkpoints dropped (their calls' results are not in the session)\n",
    );
    expect(displayOutput([RESTORED], "zh")).toBe(
      "<- 文件回到上一个检查点:放回 10 个(src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts, src/f5.ts, src/f6.ts, src/f7.ts, src/f8.ts,还有 2 个)" +
        " · 1 个保持原样(notes.txt) · 丢弃 2 个会话里没有结果的检查点\n",
    );
    expect(displayOutput([{ ...RESTORED, restored: ["a.txt"], kept: [], dropped: 0 }], "en")).toBe(
      "<- files brought to the last checkpoint: 1 put back (a.txt)\n",
    );
  });

  it("says a checkpoint that failed on one line", () => {
    expect(displayOutput([WARNING], "en")).toBe(
      "!  checkpoints: a checkpoint of the run's files failed (call): ENOSPC no space left on device\n",
    );
    expect(displayOutput([WARNING], "zh")).toBe(
      "!  检查点:a checkpoint of the run's files failed (call): ENOSPC no space left on device\n",
    );
  });

  it("shows a checkpoint that changed files only under -v, and never one that changed nothing", () => {
    const events = [
      checkpoint(["a.txt", "b.txt", "c.txt"]),
      checkpoint([], false),
      checkpoint(["d.txt"], true, "Edit"),
    ];
    expect(displayOutput(events, "en")).toBe("");
    expect(verbose(events, "en")).toBe(
      "   checkpoint: 3 files (a.txt, b.txt, c.txt)\n   checkpoint: 1 file (d.txt) · after Edit\n",
    );
    expect(verbose(events, "zh")).toBe(
      "   检查点:3 个文件(a.txt, b.txt, c.txt)\n   检查点:1 个文件(d.txt) · Edit 之后\n",
    );
    expect(verbose([checkpoint(TEN)], "en")).toBe(
      "   checkpoint: 10 files (src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts, src/f5.ts, src/f6.ts, src/f7.ts, src/f8.ts and 2 more)\n",
    );
  });

  it("--json passes the three events through as they are", () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const sink = eventSink(makeOutput(true, "en"), false);
    const events = [RESTORED, WARNING, checkpoint(["a.txt"], true, "Write")];
    for (const event of events) sink.handle(event);
    sink.close();
    vi.restoreAllMocks();
    expect(written.map((line) => JSON.parse(line) as FlowerEvent)).toEqual(events);
  });
});
