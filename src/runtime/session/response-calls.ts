/**
 * The tool calls of the main thread's latest response, and which of them have not come back. When the
 * handoff switch interrupts a session at a message boundary, these are the calls it cut (see
 * handoff/cut-calls.ts): without them the successor never learns that a delegated call was issued and
 * never ran.
 *
 * A call counts as run once a result came back, even an error; a result that only says the call was
 * interrupted ("The user doesn't want to proceed with this tool use ...") does not count.
 */
import type { CutCall } from "../../handoff/cut-calls.js";
import { INTERRUPTED_PREFIX } from "../../session-layers/passes/transcript-entries.js";

export class ResponseCalls {
  /** tool_use id → the call, for the latest main-thread response; insertion order is issue order. */
  #calls = new Map<string, CutCall>();

  /** A new main-thread response begins: the previous response's calls are settled one way or the other. */
  start(): void {
    this.#calls = new Map();
  }

  /** The response issued a call. */
  issued(id: string, call: CutCall): void {
    this.#calls.set(id, call);
  }

  /** A result came back for `id`: the call ran, unless the result says it was interrupted. */
  answered(id: string, result: { is_error?: boolean; content?: unknown }): void {
    if (result.is_error === true && resultText(result.content).startsWith(INTERRUPTED_PREFIX)) return;
    this.#calls.delete(id);
  }

  /** The calls of the latest response that did not run, in the order they were issued. */
  open(): CutCall[] {
    return [...this.#calls.values()];
  }
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) =>
      typeof block === "object" && block !== null && typeof (block as { text?: unknown }).text === "string"
        ? (block as { text: string }).text
        : "",
    )
    .join("");
}
