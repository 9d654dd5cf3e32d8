import { describe, expect, it } from "vitest";
import { classifySession } from "../../../src/runtime/session-outcome.js";
import type { SessionReading } from "../../../src/runtime/session-translator.js";

function reading(overrides: Partial<SessionReading> = {}): SessionReading {
  return {
    sessionId: "s1",
    resultText: "done",
    costTotal: 0.1,
    numTurns: 2,
    context: 12_000,
    mainResponses: 2,
    sawResult: true,
    lastResultIsError: false,
    resultError: null,
    apiErrorText: null,
    limitReached: false,
    openCalls: [],
    ...overrides,
  };
}

const ending = { stopRequested: false, handoffRequested: false, thrown: undefined };

describe("classifySession", () => {
  it("a clean result is completed", () => {
    expect(classifySession({ ...ending, reading: reading() })).toMatchObject({
      kind: "completed",
      error: null,
    });
  });

  it("a clean final answer beats a late stop or handoff interrupt", () => {
    expect(classifySession({ ...ending, stopRequested: true, reading: reading() }).kind).toBe("completed");
    expect(classifySession({ ...ending, handoffRequested: true, reading: reading() }).kind).toBe("completed");
  });

  it("an interrupted turn is stopped or handoff-due, the stop winning", () => {
    const cut = reading({ resultText: null, lastResultIsError: true, resultError: "error_during_execution" });
    expect(classifySession({ ...ending, stopRequested: true, reading: cut }).kind).toBe("stopped");
    expect(classifySession({ ...ending, handoffRequested: true, reading: cut }).kind).toBe("handoff-due");
    expect(
      classifySession({ ...ending, stopRequested: true, handoffRequested: true, reading: cut }).kind,
    ).toBe("stopped");
  });

  it("no result and nothing thrown: the process ended without one", () => {
    expect(
      classifySession({ ...ending, reading: reading({ sawResult: false, resultText: null }) }),
    ).toMatchObject({
      kind: "failed",
      error: "the claude process ended without a result",
    });
  });

  it("an error result or a throw fails, and names both", () => {
    const outcome = classifySession({
      ...ending,
      thrown: new Error("exit 1"),
      reading: reading({ lastResultIsError: true, resultText: null, resultError: "error_during_execution" }),
    });
    expect(outcome).toMatchObject({ kind: "failed", error: "error_during_execution | exit 1" });
  });

  it("an overflow in the error or the API's words is an overflow", () => {
    const outcome = classifySession({
      ...ending,
      reading: reading({
        lastResultIsError: true,
        resultText: null,
        resultError: "error_during_execution",
        apiErrorText: "prompt is too long: 210000 tokens > 200000 maximum",
      }),
    });
    expect(outcome.kind).toBe("overflow");
  });
});
