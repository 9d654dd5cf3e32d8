/** What the live view prints for a list of events, on a plain (not a tty) output. */
import { Writable } from "node:stream";
import { Display } from "../../../src/cli/display.js";
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
