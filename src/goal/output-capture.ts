/**
 * A check's combined output, bounded. Keeps the first `headBytes` and the last `tailBytes`; what lies
 * between is counted, not kept. A check that prints gigabytes costs at most head + tail of memory and
 * of log file, and the log says where it cut.
 */
export class OutputCapture {
  readonly #headBytes: number;
  readonly #tailBytes: number;
  readonly #head: Buffer[] = [];
  #headLength = 0;
  /** Chunks after the head; trimmed from the front so their total stays near `tailBytes`. */
  readonly #tail: Buffer[] = [];
  #tailLength = 0;
  #total = 0;

  constructor(headBytes: number, tailBytes: number) {
    this.#headBytes = headBytes;
    this.#tailBytes = tailBytes;
  }

  /** Bytes received, including those not kept. */
  get totalBytes(): number {
    return this.#total;
  }

  /** Bytes received but kept neither in the head nor in the tail. */
  get omittedBytes(): number {
    return Math.max(0, this.#total - this.#headBytes - this.#tailBytes);
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headLength < this.#headBytes) {
      const take = Math.min(this.#headBytes - this.#headLength, rest.length);
      this.#head.push(rest.subarray(0, take));
      this.#headLength += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    // Copy: a subarray would pin the whole (possibly large) chunk in memory.
    this.#tail.push(Buffer.from(rest));
    this.#tailLength += rest.length;
    while (this.#tail.length > 1 && this.#tailLength - this.#tail[0]!.length >= this.#tailBytes) {
      this.#tailLength -= this.#tail.shift()!.length;
    }
  }

  /** The kept output as parts: the head, and (when something was cut) the tail after the cut. */
  parts(): { head: Buffer; tail: Buffer | null } {
    const head = Buffer.concat(this.#head);
    let tail = Buffer.concat(this.#tail);
    if (tail.length > this.#tailBytes) tail = tail.subarray(tail.length - this.#tailBytes);
    if (this.omittedBytes === 0) return { head: Buffer.concat([head, tail]), tail: null };
    return { head, tail };
  }
}

/** Control sequences (colours, cursor moves) that test runners print; they are noise in a message. */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/**
 * The last `maxLines` non-empty lines of `text`, at most `maxChars` characters, without colour codes.
 * A progress line redrawn with `\r` keeps only its last state.
 */
export function tailOf(text: string, maxLines: number, maxChars: number): string {
  const lines = text
    .replace(ANSI, "")
    .split("\n")
    .map((line) => {
      const redraw = line.replace(/\r+$/, "");
      return redraw.slice(redraw.lastIndexOf("\r") + 1).trimEnd();
    });
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  let tail = lines.slice(-maxLines).join("\n");
  if (tail.length > maxChars) tail = `…${tail.slice(tail.length - maxChars + 1)}`;
  return tail;
}
