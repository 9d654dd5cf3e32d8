/**
 * The last lines the `claude` child wrote on stderr, kept so that a child that exits abnormally can say
 * why (it refused to start as root, it rejected an option). Before this the stream was discarded and a
 * refused start read only "Claude Code process exited with code 1", three times.
 *
 * Bounded: the last MAX_LINES lines and at most MAX_BYTES characters in all (a chatty child cannot grow
 * the driver's memory), each line cut to MAX_LINE_CHARS. Redacted line by line as each line completes,
 * before anything is cut, so a credential the child printed is replaced whole (a cut first could leave a
 * piece of it that no longer matches). Kept in memory only; what is shown goes through the same redactor.
 */
import type { StderrSink } from "../../agents/spawn-claude.js";

/** Lines kept (the `-v` view shows them all; an error message the last few). */
export const MAX_LINES = 40;
/** Characters kept in all. */
export const MAX_BYTES = 8_192;
/** A longer line is cut (an error line is short; a dumped object is not worth more). */
export const MAX_LINE_CHARS = 500;
/** Lines an error message quotes. */
export const ERROR_LINES = 3;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /\u001b\[[0-9;?]*[A-Za-z]|[\u0000-\u0008\u000b-\u001f\u007f]/g;

export class StderrTail implements StderrSink {
  readonly #redact: (text: string) => string;
  readonly #lines: string[] = [];
  #chars = 0;
  /** The current line, not ended yet. */
  #partial = "";
  #ended = false;
  #onEnd: Array<() => void> = [];

  constructor(redact: (text: string) => string = (text) => text) {
    this.#redact = redact;
  }

  write(text: string): void {
    const parts = (this.#partial + text).split(/\r?\n/);
    this.#partial = parts.pop() ?? "";
    for (const line of parts) this.#keep(line);
    // A line without an end that grows past the bound is kept as it is, in pieces.
    if (this.#partial.length > MAX_BYTES) {
      this.#keep(this.#partial);
      this.#partial = "";
    }
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#partial !== "") this.#keep(this.#partial);
    this.#partial = "";
    for (const resolve of this.#onEnd.splice(0)) resolve();
  }

  /** Resolves when the stream ended, or after `ms` (a grandchild may hold it open): never hangs. */
  async settled(ms: number): Promise<void> {
    if (this.#ended) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.#onEnd.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The kept lines, oldest first (with the line still being written, if any); the last `count` only. */
  lines(count: number = MAX_LINES): string[] {
    const all = this.#partial.trim() !== "" ? [...this.#lines, this.#clean(this.#partial)] : this.#lines;
    return all.slice(-count);
  }

  #clean(line: string): string {
    // Colour codes and other control characters are noise in a record or an error message.
    const plain = this.#redact(line).replace(CONTROL, "");
    return plain.length > MAX_LINE_CHARS ? `${plain.slice(0, MAX_LINE_CHARS - 3)}...` : plain.trimEnd();
  }

  #keep(raw: string): void {
    const line = this.#clean(raw);
    if (line.trim() === "") return;
    this.#lines.push(line);
    this.#chars += line.length;
    while (this.#lines.length > MAX_LINES || (this.#chars > MAX_BYTES && this.#lines.length > 1)) {
      this.#chars -= this.#lines.shift()!.length;
    }
  }
}
