/**
 * Issue 23, "one word, one meaning" in the live view: a path a person needs is never cut (it goes on a
 * line of its own), the crossing of the warning line is marked, and the handoff's last line says what the
 * new session starts from. At the widths people use (60, 80, 100 columns), in both languages.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { Display } from "../../../src/cli/live/display.js";
import { seedHandoff } from "./display-output.js";
import { columnsOf } from "../../../src/cli/live/terminal-text.js";
import type { Locale } from "../../../src/locale/locale.js";
import type { FlowerEvent } from "../../../src/runtime/events.js";

const HOME = "/home/u";
const WORKSPACE = "/srv/checkouts/customer-portal-monorepo/packages/billing-service";
const HANDOFF = `${WORKSPACE}/.flower/notes/handoff-work-generation-2.md`;
const SPILL = `${HOME}/projects/customer-portal/.flower/spill/bash-2026-12-02T00-41-56-0001.txt`;
const LOG = `${WORKSPACE}/.flower/artifacts/goal-check-1.run-1.log`;
const FROZEN = `${WORKSPACE}/.flower/notes/requirements-2026-12-02-r1.md`;

function events(): FlowerEvent[] {
  const step = "work";
  const [first, ...handoff] = seedHandoff(step, HANDOFF, {
    doing: "fixing the build",
    next: "run the tests",
  });
  return [
    first!,
    { type: "spill", step, tool: "Bash", path: SPILL, chars: 108_900 },
    ...handoff,
    { type: "context", step, context: 36_800, window: 200_000, at: 150_000, generation: 2 },
    {
      type: "document-frozen",
      step: "requirements",
      kind: "requirements",
      title: "Requirements",
      path: FROZEN,
      sections: [{ heading: "Task", text: "fix the build" }],
      degraded: false,
    } as FlowerEvent,
    {
      type: "goal-checks",
      step,
      round: 1,
      passed: 0,
      total: 1,
      results: [{ index: 1, command: "npm test", passed: false, exitCode: 1, logPath: LOG }],
    } as FlowerEvent,
  ];
}

/** What a terminal of `columns` shows after the run: `\r` returns, ESC[2K clears, `\n` moves down. */
function screen(locale: Locale, columns: number): string[] {
  let output = "";
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      output += chunk.toString();
      callback();
    },
  });
  const display = new Display({ out, tty: true, locale, home: HOME, columns: () => columns });
  for (const event of events()) display.handle(event);
  display.close();
  const lines: string[] = [""];
  let row = 0;
  // eslint-disable-next-line no-control-regex -- the terminal codes are what this splits on
  for (const token of output.split(/(\r|\x1b\[2K|\n)/)) {
    if (token === "" || token === "\r") continue;
    if (token === "\x1b[2K") lines[row] = "";
    else if (token === "\n") lines[++row] ??= "";
    else lines[row] += token;
  }
  return lines;
}

const WIDTHS = [60, 80, 100];
const shown = (path: string) => (path.startsWith(`${HOME}/`) ? `~${path.slice(HOME.length)}` : path);

describe.each(["en", "zh"] as const)("the live view at 60, 80 and 100 columns (%s)", (locale) => {
  it.each(WIDTHS)("shows every path whole, on a line of its own (%i columns)", (columns) => {
    const lines = screen(locale, columns);
    for (const path of [HANDOFF, SPILL, LOG, FROZEN])
      expect(
        lines.map((line) => line.trim()),
        lines.join("\n"),
      ).toContain(shown(path));
    // Every other line still fits the terminal.
    const paths = new Set([HANDOFF, SPILL, LOG, FROZEN].map(shown));
    for (const line of lines) if (!paths.has(line.trim())) expect(columnsOf(line)).toBeLessThan(columns);
  });

  it.each(WIDTHS)("marks the crossing of the warning line (%i columns)", (columns) => {
    const mark = locale === "en" ? "warning line crossed" : "已过预警线";
    const crossing = screen(locale, columns).filter((line) => line.includes("130.0K/200K"));
    expect(crossing).toHaveLength(1);
    expect(crossing[0]).toMatch(/^! /);
    expect(crossing[0]).toContain(mark);
  });

  it.each(WIDTHS)("says the new session starts from the handoff, whole (%i columns)", (columns) => {
    const restart =
      locale === "en"
        ? "<- new session starts from the handoff, not from 152.0K"
        : "<- 新会话只从交接开始,不带旧的 152.0K 上下文";
    expect(screen(locale, columns)).toContain(restart);
  });
});
