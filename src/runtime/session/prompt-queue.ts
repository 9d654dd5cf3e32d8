/**
 * Streaming input for `query()`. With an async iterable prompt the session stays open between turns:
 * the loop can interrupt at a message boundary, and an error result does not make the iterator throw
 * (it does in string-prompt mode). Ending the queue lets the CLI finish and exit.
 */
import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";

export class PromptQueue implements AsyncIterable<SDKUserMessage> {
  readonly #pending: SDKUserMessage[] = [];
  #wake: (() => void) | undefined;
  #ended = false;

  /**
   * `uuid` names the message in the transcript (a user entry's `uuid`, or the `source_uuid` of the
   * attachment a message folded in at a boundary becomes) and in the binary's `command_lifecycle` frames.
   */
  push(text: string, uuid?: string): void {
    if (this.#ended) throw new Error("PromptQueue: push after end");
    this.#pending.push({
      type: "user",
      message: { role: "user", content: text },
      parent_tool_use_id: null,
      session_id: "",
      ...(uuid !== undefined ? { uuid: uuid as `${string}-${string}-${string}-${string}-${string}` } : {}),
    });
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  get ended(): boolean {
    return this.#ended;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    while (true) {
      const next = this.#pending.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }
}
