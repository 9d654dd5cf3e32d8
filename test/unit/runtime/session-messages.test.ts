/**
 * The session runner's rules for a person's messages (session-run.ts), over an in-process stand-in for
 * the binary that keeps the real one's queue semantics (checked against CLI 2.1.332, see
 * test/e2e/cli/say.test.ts): a message sent into the streaming input is taken (`command_lifecycle`
 * queued) and goes into the main thread's next request (started); one still taken but not started when
 * the driver interrupts survives the interrupt and starts a turn of its own; one sent while no turn
 * runs starts a turn. The binary's frames are the only way the driver learns any of this.
 */
import type { Query, SDKMessage, SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { HandoffPolicy } from "../../../src/handoff/policy.js";
import type { PersonMessage } from "../../../src/records/person-messages.js";
import type { FlowerEvent } from "../../../src/runtime/events.js";
import type { MessageSource } from "../../../src/runtime/person/message-inbox.js";
import { runSession, type SessionRunInput } from "../../../src/runtime/session/session-run.js";
import { init, response, result } from "../../support/scripted-query.js";

const SID = "s1";

/** One main-thread response of the script; `before` runs just before it is streamed (a message arrives). */
interface Turn {
  context: number;
  stop: "tool_use" | "end_turn";
  before?: () => void;
}

const lifecycle = (uuid: string, state: string) =>
  ({ type: "command_lifecycle", command_uuid: uuid, state, session_id: SID }) as unknown as SDKMessage;

const textOf = (message: SDKUserMessage): string =>
  typeof message.message.content === "string" ? message.message.content : "?";

/** Lets the runner's pushes reach the stand-in's input reader. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The binary's side, as far as messages go: what it was sent, which requests carried what, interrupts. */
class FakeBinary {
  readonly sent: string[] = [];
  /** Per main-thread request, the messages folded into it (or that started its turn). */
  readonly requests: string[][] = [];
  interrupts = 0;
  /** Called when the driver interrupts (a message said right then). */
  onInterrupt: (() => void) | null = null;
  /** `frames`: it sends lifecycle frames (a binary that does not cannot be told anything mid-session). */
  constructor(
    readonly turns: Turn[],
    readonly frames = true,
  ) {}

  query = (input: { prompt: AsyncIterable<SDKUserMessage> }): Query => {
    const { sent, requests, turns, frames: withFrames } = this;
    const taken: SDKUserMessage[] = [];
    const outbox: SDKMessage[] = [];
    let inputEnded = false;
    let interrupted = false;
    const reader = (async () => {
      for await (const message of input.prompt) {
        taken.push(message);
        sent.push(textOf(message));
        if (withFrames && message.uuid) outbox.push(lifecycle(message.uuid, "queued"));
      }
      inputEnded = true;
    })();
    const start = (messages: SDKUserMessage[]): SDKMessage[] => {
      const frames = withFrames ? messages.map((m) => lifecycle(m.uuid!, "started")) : [];
      requests.push(messages.map(textOf));
      return frames;
    };
    async function* play(): AsyncGenerator<SDKMessage, void> {
      await settle();
      let script = 0;
      // A turn starts with what was taken: the prompt (or a message the binary starts a turn with).
      let opening = taken.splice(0);
      while (true) {
        yield* start(opening);
        yield init(SID);
        let first = true;
        while (script < turns.length) {
          const turn = turns[script++]!;
          if (!first) {
            // The next request of the turn carries what was taken meanwhile.
            yield* outbox.splice(0);
            yield* start(taken.splice(0));
          }
          first = false;
          turn.before?.();
          await settle();
          yield* outbox.splice(0);
          for (const message of response(SID, turn.context, turn.stop)) {
            yield message;
            await settle();
          }
          yield* outbox.splice(0);
          if (interrupted) break;
          if (turn.stop === "end_turn") break;
        }
        yield interrupted
          ? result(SID, { subtype: "error_during_execution", isError: true })
          : result(SID, { text: `answer after ${script} responses` });
        interrupted = false;
        // Taken and not started: a turn of its own, also after an interrupt. Otherwise the end of input ends it.
        while (taken.length === 0 && !inputEnded) await settle();
        yield* outbox.splice(0);
        if (taken.length === 0) break;
        opening = taken.splice(0);
      }
      await reader;
    }
    return Object.assign(play(), {
      interrupt: async () => {
        this.interrupts += 1;
        interrupted = true;
        this.onInterrupt?.();
        return undefined;
      },
      close: () => undefined,
    }) as unknown as Query;
  };
}

/** The run's messages, as an inbox gives them to a session. */
class Messages implements MessageSource {
  readonly waiting: PersonMessage[] = [];
  readonly givenIds: string[] = [];
  #listener: (() => void) | null = null;

  /** `silent`: not told to the session (a shared store's read that comes only at the next boundary). */
  say(text: string, options: { silent?: boolean } = {}): PersonMessage {
    const message = { id: crypto.randomUUID(), run: "r", text, by: "ann@box", at: new Date().toISOString() };
    this.waiting.push(message);
    if (!options.silent) this.#listener?.();
    return message;
  }
  pending(): PersonMessage[] {
    return this.waiting.filter((message) => !this.givenIds.includes(message.id));
  }
  onArrival(listener: () => void): () => void {
    this.#listener = listener;
    return () => (this.#listener = null);
  }
  given(message: PersonMessage): void {
    this.givenIds.push(message.id);
  }
}

const messages = () => new Messages();

function run(
  binary: FakeBinary,
  inbox: MessageSource,
  extra: Partial<SessionRunInput> = {},
): { outcome: ReturnType<typeof runSession>; events: FlowerEvent[]; stop: AbortController } {
  const events: FlowerEvent[] = [];
  const stop = new AbortController();
  const outcome = runSession({
    step: "busy",
    options: {},
    prompt: "Count the lines",
    policy: new HandoffPolicy({ window: 100_000, headroom: 50_000 }),
    generation: 1,
    writing: false,
    sink: (event) => events.push(event),
    onSession: () => undefined,
    stopSignal: stop.signal,
    query: binary.query,
    messages: inbox,
    ...extra,
  });
  return { outcome, events, stop };
}

const delivered = (events: FlowerEvent[]) =>
  events.flatMap((event) => (event.type === "person-message" ? [event.text] : []));

describe("a person's messages in a session", () => {
  it("sends one waiting at the start after the prompt; the next request carries it; it is booked once", async () => {
    const inbox = messages();
    inbox.say("Look at b.ts first");
    const binary = new FakeBinary([
      { context: 10_000, stop: "tool_use" },
      { context: 11_000, stop: "tool_use" },
      { context: 12_000, stop: "end_turn" },
    ]);
    const { outcome, events } = run(binary, inbox);
    expect((await outcome).kind).toBe("completed");
    expect(binary.requests).toEqual([["Count the lines"], ["Look at b.ts first"], []]);
    expect(delivered(events)).toEqual(["Look at b.ts first"]);
    expect(inbox.pending()).toEqual([]);
  });

  it("two said in a row mid-turn go into the next request in the order said", async () => {
    const inbox = messages();
    const binary = new FakeBinary([
      { context: 10_000, stop: "tool_use", before: () => (inbox.say("first"), inbox.say("second")) },
      { context: 11_000, stop: "tool_use" },
      { context: 12_000, stop: "end_turn" },
    ]);
    const { outcome, events } = run(binary, inbox);
    expect((await outcome).kind).toBe("completed");
    expect(binary.requests[1]).toEqual(["first", "second"]);
    expect(delivered(events)).toEqual(["first", "second"]);
  });

  it("a handoff due while a message is taken but not started waits a boundary for it, then interrupts", async () => {
    const inbox = messages();
    // The line is at 50k: the second response crosses it, just after the message was sent.
    const binary = new FakeBinary([
      { context: 10_000, stop: "tool_use" },
      { context: 60_000, stop: "tool_use", before: () => inbox.say("keep the totals") },
      { context: 61_000, stop: "tool_use" },
      { context: 62_000, stop: "tool_use" },
    ]);
    const { outcome, events } = run(binary, inbox);
    const ended = await outcome;
    expect(ended.kind).toBe("handoff-due");
    // It went into the third request, in this generation, and nothing started a turn after the interrupt.
    expect(binary.requests).toEqual([["Count the lines"], [], ["keep the totals"]]);
    expect(delivered(events)).toEqual(["keep the totals"]);
    expect(binary.interrupts).toBe(1);
  });

  it("without room before the window it does not wait: the turn the message starts is cut at once, and it is booked", async () => {
    const inbox = messages();
    // 80k of a 100k window: less than the in-flight margin (25k) is left.
    const binary = new FakeBinary([
      { context: 10_000, stop: "tool_use" },
      { context: 80_000, stop: "tool_use", before: () => void inbox.say("said near the window") },
      { context: 81_000, stop: "tool_use" },
      { context: 82_000, stop: "tool_use" },
    ]);
    const { outcome, events } = run(binary, inbox);
    expect((await outcome).kind).toBe("handoff-due");
    expect(binary.requests).toEqual([["Count the lines"], [], ["said near the window"]]);
    expect(binary.interrupts).toBe(2);
    expect(delivered(events)).toEqual(["said near the window"]);
  });

  it("sends nothing once a handoff is due: the message waits for the successor", async () => {
    const inbox = messages();
    const binary = new FakeBinary([
      { context: 60_000, stop: "tool_use" },
      { context: 61_000, stop: "tool_use" },
    ]);
    binary.onInterrupt = () => void inbox.say("for the next generation");
    const { outcome, events } = run(binary, inbox);
    expect((await outcome).kind).toBe("handoff-due");
    expect(binary.sent).toEqual(["Count the lines"]);
    expect(delivered(events)).toEqual([]);
    expect(inbox.pending().map((message) => message.text)).toEqual(["for the next generation"]);
  });

  it("the handoff-writing turn is given nothing", async () => {
    const inbox = messages();
    inbox.say("not for the writing turn");
    const binary = new FakeBinary([{ context: 5_000, stop: "end_turn" }]);
    const { outcome } = run(binary, inbox, { writing: true });
    expect((await outcome).kind).toBe("completed");
    expect(binary.sent).toEqual(["Count the lines"]);
  });

  it("one taken while the last answer streams starts a turn of its own; the last answer is the one after it", async () => {
    const inbox = messages();
    const binary = new FakeBinary([
      { context: 10_000, stop: "end_turn", before: () => void inbox.say("one more thing") },
      { context: 11_000, stop: "end_turn" },
    ]);
    const { outcome, events } = run(binary, inbox);
    const ended = await outcome;
    expect(ended.kind).toBe("completed");
    expect(binary.requests).toEqual([["Count the lines"], ["one more thing"]]);
    expect(ended.resultText).toBe("answer after 2 responses");
    expect(delivered(events)).toEqual(["one more thing"]);
  });

  it("one read only at the turn's end (a shared store's answer) is sent then, and gets its turn", async () => {
    const inbox = messages();
    const binary = new FakeBinary([
      { context: 10_000, stop: "end_turn", before: () => void inbox.say("read late", { silent: true }) },
      { context: 11_000, stop: "end_turn" },
    ]);
    const { outcome, events } = run(binary, inbox);
    expect((await outcome).resultText).toBe("answer after 2 responses");
    expect(binary.requests).toEqual([["Count the lines"], ["read late"]]);
    expect(delivered(events)).toEqual(["read late"]);
  });

  it("not in a step that ends in a document: words read at its end wait for the run's next session", async () => {
    const inbox = messages();
    const binary = new FakeBinary([
      {
        context: 10_000,
        stop: "end_turn",
        before: () => void inbox.say("for the next step", { silent: true }),
      },
    ]);
    const { outcome } = run(binary, inbox, { lateMessages: false });
    const ended = await outcome;
    expect(ended.resultText).toBe("answer after 1 responses");
    expect(binary.sent).toEqual(["Count the lines"]);
    expect(inbox.pending().map((message) => message.text)).toEqual(["for the next step"]);
  });

  it("a stop with a message taken but not started: the turn it starts is interrupted at once; it is booked", async () => {
    const inbox = messages();
    const stopping: { stop?: AbortController } = {};
    const binary = new FakeBinary([
      { context: 10_000, stop: "tool_use" },
      {
        context: 11_000,
        stop: "tool_use",
        before: () => {
          inbox.say("said just before Ctrl-C");
          stopping.stop!.abort();
        },
      },
      { context: 12_000, stop: "tool_use" },
      { context: 13_000, stop: "tool_use" },
    ]);
    const started = run(binary, inbox);
    stopping.stop = started.stop;
    const ended = await started.outcome;
    expect(ended.kind).toBe("stopped");
    // The binary started it as a turn after the stop's interrupt: in the transcript, and cut at once.
    expect(binary.requests).toEqual([["Count the lines"], [], ["said just before Ctrl-C"]]);
    expect(binary.interrupts).toBe(2);
    expect(delivered(started.events)).toEqual(["said just before Ctrl-C"]);
  });

  it("a binary that says nothing about its queue is sent nothing (nothing could say it arrived)", async () => {
    const inbox = messages();
    inbox.say("unheard");
    const binary = new FakeBinary(
      [
        { context: 10_000, stop: "tool_use" },
        { context: 11_000, stop: "end_turn" },
      ],
      false,
    );
    const { outcome } = run(binary, inbox);
    expect((await outcome).kind).toBe("completed");
    expect(binary.sent).toEqual(["Count the lines"]);
    expect(inbox.pending()).toHaveLength(1);
  });
});
