/**
 * The step loop's side of a person's messages (step-run.ts), on the step harness: words that came as the
 * session finished make the step go on in the same session (the person said them before it was over),
 * once each, except in a step that ends in a document (its prompt carries what waits); a resumed session whose stored transcript holds a
 * message already (a driver killed before it cleared the channel) is not given it again, and the message
 * is booked once and cleared.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REQUIREMENTS } from "../../../src/documents/builtin/requirements.js";
import type { PersonMessage } from "../../../src/records/person-messages.js";
import type { RunMessages } from "../../../src/runtime/person/message-inbox.js";
import { result } from "../../support/scripted-query.js";
import { session, stepHarness, type StepHarness } from "../../support/step-harness.js";

const harnesses: StepHarness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) rmSync(h.workspace, { recursive: true, force: true });
});

function message(text: string): PersonMessage {
  return { id: crypto.randomUUID(), run: "survey", text, by: "ann@box", at: "2026-12-01T12:00:00.000Z" };
}

/** The run's channel as the driver's inbox sees it; a session's stand-in never says it started one. */
class Channel implements RunMessages {
  readonly rows: PersonMessage[];
  readonly givenIds: string[] = [];
  readonly taken: string[] = [];
  constructor(...rows: PersonMessage[]) {
    this.rows = rows;
  }
  pending(): PersonMessage[] {
    return this.rows.filter((row) => !this.givenIds.includes(row.id) && !this.taken.includes(row.id));
  }
  onArrival(): () => void {
    return () => undefined;
  }
  refresh(): Promise<PersonMessage[]> {
    return Promise.resolve(this.pending());
  }
  async settle(): Promise<void> {
    for (const id of this.givenIds) if (!this.taken.includes(id)) this.taken.push(id);
  }
  given(message: PersonMessage): void {
    this.givenIds.push(message.id);
  }
}

function harness(...args: Parameters<typeof stepHarness>): StepHarness {
  const h = stepHarness(...args);
  harnesses.push(h);
  return h;
}

describe("a person's messages and the step loop", () => {
  it("words that came as the session finished: the same session goes on with them, each once", async () => {
    const late = message("Also count the blank lines");
    const channel = new Channel(late);
    const h = harness(
      [
        session("s1", result("s1", { text: "42 lines" })),
        session("s1", result("s1", { text: "42 lines, 3 blank" })),
      ],
      {},
      "flower-step-messages-",
      // The stand-in never confirms the message started: the loop must not go on with it forever.
      { messages: channel },
    );
    const step = await h.run.run();
    expect(step.status).toBe("done");
    expect(step.result).toBe("42 lines, 3 blank");
    expect(h.calls[1]!.prompt).toBe(late.text);
    expect(h.calls[1]!.options?.resume).toBe("s1");
    h.assertComplete();
  });

  it("a step that ends in a document hears waiting words in its prompt, and goes on with none at its end", async () => {
    const channel = new Channel(message("The goal should name the test"));
    const h = harness(
      [session("s1", result("s1", { text: "## Task\nFix it." }))],
      (workspace) => ({
        freeze: { spec: REQUIREMENTS, run: "r1", notesDir: join(workspace, ".flower", "notes") },
      }),
      "flower-step-messages-",
      { messages: channel },
    );
    await h.run.run();
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]!.prompt).toContain(
      "A person sent this run a message (flower say), ann@box at 2026-12-01T12:00:00.000Z:\nThe goal should name the test",
    );
    h.assertComplete();
  });

  it("a resumed session whose transcript holds a message already is not given it: booked once, cleared", async () => {
    const held = message("Count the words instead");
    const waiting = message("And the characters");
    const channel = new Channel(held, waiting);
    const first = harness([session("s1", result("s1", { text: "partial" }))]);
    await first.run.run();
    const stopped = { ...first.saves.at(-1)!, status: "stopped" as const };
    const h = harness(
      [
        session("s1", result("s1", { text: "done" })),
        session("s1", result("s1", { text: "and the characters" })),
      ],
      { continuation: { record: stopped, prompt: "Continue the task." } },
      "flower-step-messages-",
      {
        messages: channel,
        messagesInTranscript: (sessionId, ids) =>
          Promise.resolve(new Set(sessionId === "s1" ? ids.filter((id) => id === held.id) : [])),
      },
    );
    await h.run.run();
    const record = h.saves.at(-1)!;
    expect(record.personMessages?.map((said) => said.text)).toEqual([held.text]);
    expect(channel.taken).toEqual([held.id]);
    // The other one is not in the transcript: the session goes on with it (once).
    expect(h.calls.map((call) => call.prompt)).toEqual(["Continue the task.", waiting.text]);
    h.assertComplete();
  });
});
