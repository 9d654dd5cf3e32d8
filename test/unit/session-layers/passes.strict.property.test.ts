/**
 * Rewritten history satisfies the strictest provider: every pass, alone and all combined, leaves a
 * transcript that, as the CLI will send it (see cli-messages.ts), starts with the user, alternates roles,
 * and pairs every tool_use with a tool_result in the next message. Generated transcripts hold text +
 * tool-call turns, parallel calls in both CLI layouts, subagent transcripts, denials, interruptions,
 * API-error remnants and glances.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rewriteTranscript, type RewriteOptions } from "../../../src/session-layers/passes/rewrite.js";
import { properties } from "../../support/properties.js";
import { cliMessages, strictViolation } from "./cli-messages.js";
import { passChoiceArbitrary, sessionArbitrary, type PassChoice } from "./transcript-arbitrary.js";
import { TranscriptBuilder, bash, deepFreeze, testIsEphemeral, type Entry } from "./transcript-fixtures.js";

function optionsFor(choice: PassChoice): RewriteOptions {
  return {
    locale: "en",
    disconnects: choice.disconnects,
    denials: choice.denials,
    expire: choice.expire && { ...choice.expire, isEphemeral: testIsEphemeral },
    trim: choice.trim && { ...choice.trim, spillDir: "/ws/.flower/spill" },
  };
}

const NONE: PassChoice = { disconnects: false, denials: null, expire: null, trim: null };

/** Each pass alone with its most aggressive setting, then the generated combination. */
function choicesFor(combined: PassChoice): Array<[string, PassChoice]> {
  return [
    ["disconnects", { ...NONE, disconnects: true }],
    ["denials", { ...NONE, denials: { keepDenials: 0 } }],
    ["expiry", { ...NONE, expire: { keepEphemeral: 0 } }],
    ["trim", { ...NONE, trim: { keepRecent: 0, minChars: 1 } }],
    [
      "all, strongest",
      {
        disconnects: true,
        denials: { keepDenials: 0 },
        expire: { keepEphemeral: 0 },
        trim: { keepRecent: 0, minChars: 1 },
      },
    ],
    ["all, generated", combined],
  ];
}

function checkTranscript(input: Entry[], combined: PassChoice): void {
  deepFreeze(input);
  // The generator writes what the CLI writes: valid before any rewrite.
  expect(strictViolation(input), "generated input").toBeNull();
  for (const [name, choice] of choicesFor(combined)) {
    const { entries } = rewriteTranscript(input, optionsFor(choice));
    expect(strictViolation(entries), `after ${name}`).toBeNull();
  }
}

describe("rewritten history as the CLI sends it (property)", () => {
  it("starts with the user, alternates roles and pairs every call, after each pass and all combined", () => {
    fc.assert(
      fc.property(sessionArbitrary, passChoiceArbitrary, (session, choice) => {
        checkTranscript(session.main, choice);
        for (const sub of session.subagents.values()) checkTranscript(sub, choice);
      }),
      properties(300),
    );
  });
});

/** The counterexamples, kept as plain examples. */
describe("rewritten history as the CLI sends it (examples)", () => {
  const denials = { ...NONE, denials: { keepDenials: 0 } };

  it("a sentence before a denied call, then the next response: one assistant message, every word kept", () => {
    const builder = new TranscriptBuilder().prompt("run the tests");
    builder.response("The tests need a database; let me run them.", [bash("npm test", "", "denied")]);
    builder.response("I may not run that here; I will delegate.", []);
    const input = deepFreeze(builder.entries);
    expect(strictViolation(input)).toBeNull();

    const { entries } = rewriteTranscript(input, optionsFor(denials));
    expect(strictViolation(entries)).toBeNull();
    const messages = cliMessages(entries);
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(messages[1]!.content.map((block) => block["text"])).toEqual([
      "The tests need a database; let me run them.",
      "I may not run that here; I will delegate.",
    ]);
  });

  it("the same in the multi-block layout, followed by a call that runs", () => {
    const builder = new TranscriptBuilder().prompt("go");
    builder.response("First I try the tests.", [bash("npm test", "", "denied"), bash("make", "", "denied")], {
      multiBlock: true,
    });
    builder.response("Then a glance.", [bash("git status", "clean")], { multiBlock: true });
    builder.response("done", []);
    const { entries } = rewriteTranscript(deepFreeze(builder.entries), optionsFor(denials));
    expect(strictViolation(entries)).toBeNull();
    const texts = cliMessages(entries)
      .flatMap((message) => message.content)
      .flatMap((block) => (block["type"] === "text" ? [block["text"]] : []));
    expect(texts).toEqual(["go", "First I try the tests.", "Then a glance.", "done"]);
  });

  it("three denied sentences in a row collapse into one message, in order", () => {
    const builder = new TranscriptBuilder().prompt("go");
    for (const n of [1, 2, 3]) builder.response(`try ${n}`, [bash("npm test", "", "denied")]);
    builder.response("giving up", []);
    const { entries } = rewriteTranscript(deepFreeze(builder.entries), optionsFor(denials));
    expect(strictViolation(entries)).toBeNull();
    const messages = cliMessages(entries);
    expect(messages).toHaveLength(2);
    expect(messages[1]!.content.map((block) => block["text"])).toEqual([
      "try 1",
      "try 2",
      "try 3",
      "giving up",
    ]);
  });

  it("a denial that ends the transcript leaves the sentence last, where the new prompt follows it", () => {
    const builder = new TranscriptBuilder().prompt("go");
    builder.response("Let me run it.", [bash("npm test", "", "denied")]);
    const { entries } = rewriteTranscript(deepFreeze(builder.entries), optionsFor(denials));
    expect(strictViolation(entries)).toBeNull();
    expect(cliMessages(entries).map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it("a denied call before an API-error remnant, with the disconnect pass off", () => {
    const builder = new TranscriptBuilder().prompt("go");
    builder.response("Let me run it.", [bash("npm test", "", "denied")]);
    builder.apiRetry(1).apiErrorMessage().prompt("again");
    const { entries } = rewriteTranscript(deepFreeze(builder.entries), optionsFor(denials));
    expect(strictViolation(entries)).toBeNull();
  });

  it("the checker itself sees two responses in a row as two assistant messages", () => {
    const builder = new TranscriptBuilder().prompt("go");
    builder.response("one", []);
    builder.response("two", []);
    expect(strictViolation(builder.entries)).toMatch(/multiple "assistant" roles in a row/);
  });
});
