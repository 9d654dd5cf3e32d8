/** What the live view prints for a list of events, on a plain (not a tty) output. */
import { Writable } from "node:stream";
import { Display } from "../../../src/cli/live/display.js";
import type { Locale } from "../../../src/locale/locale.js";
import type { FlowerEvent } from "../../../src/runtime/events.js";

export function displayOutput(events: FlowerEvent[], locale: Locale): string {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const display = new Display({ out, tty: false, locale, home: "/home/u" });
  for (const event of events) display.handle(event);
  display.close();
  return chunks.join("");
}

/**
 * The seed's handoff on a 200K window with the line at 150K: context at 130K (near), 152K, the writing
 * turn, the handoff frozen at `path` with `sections`, and generation 2's first call (it reads the
 * handoff): the successor started, so the view says where it starts from.
 */
export function seedHandoff(step: string, path: string, sections: Record<string, string>): FlowerEvent[] {
  return [
    { type: "context", step, context: 130_000, window: 200_000, at: 150_000, generation: 1 },
    { type: "handoff", step, phase: "near", generation: 1, context: 130_000, window: 200_000 },
    { type: "context", step, context: 152_000, window: 200_000, at: 150_000, generation: 1 },
    { type: "handoff", step, phase: "writing", generation: 1, context: 152_000, window: 200_000 },
    {
      type: "handoff",
      step,
      phase: "done",
      generation: 2,
      context: 152_000,
      window: 200_000,
      degraded: false,
      path,
      sections,
    },
    { type: "tool-use", step, agent: "coordinator", tool: "Read", summary: path },
  ];
}
