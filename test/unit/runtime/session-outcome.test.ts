import { describe, expect, it } from "vitest";
import { classifySession } from "../../../src/runtime/session/session-outcome.js";
import type { SessionReading } from "../../../src/runtime/session/session-translator.js";

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
    started: true,
    apiStatus: null,
    apiErrorType: null,
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

  describe("failures that cannot pass", () => {
    // What binary 2.1.332 reports, as measured against a server answering the status every time.
    const apiError = (apiStatus: number, apiErrorType: string, text: string) =>
      reading({
        resultText: null,
        lastResultIsError: true,
        resultError: text,
        apiErrorText: text,
        apiStatus,
        apiErrorType,
      });
    const thrownResult = (text: string) => new Error(`Claude Code returned an error result: ${text}`);

    it("401, 403, 400 invalid_request_error: not retried", () => {
      const cases: Array<[number, string, string, string]> = [
        [401, "authentication_error", "Invalid API key · Fix external API key", "authentication"],
        [403, "permission_error", "Failed to authenticate. API Error: 403 Forbidden", "permission"],
        [400, "invalid_request_error", "API Error: 400 model: not a real model", "invalid-request"],
      ];
      for (const [status, type, text, why] of cases) {
        const outcome = classifySession({
          ...ending,
          thrown: thrownResult(text),
          reading: apiError(status, type, text),
        });
        expect(outcome, `${status}`).toMatchObject({ kind: "failed", error: text, cannotPass: why });
      }
    });

    it("429, 5xx, 529 and a refused connection keep their retries", () => {
      const cases: Array<[number | null, string, string]> = [
        [429, "rate_limit_error", "API Error: Request rejected (429) · rate limit"],
        [500, "api_error", "API Error: 500 Internal server error."],
        [529, "overloaded_error", "API Error: 529 Overloaded."],
        [null, "unknown", "API Error: Connection refused (ECONNREFUSED)"],
      ];
      for (const [status, type, text] of cases) {
        const outcome = classifySession({
          ...ending,
          thrown: thrownResult(text),
          reading: reading({
            resultText: null,
            lastResultIsError: true,
            resultError: text,
            apiStatus: status,
            apiErrorType: type,
          }),
        });
        expect(outcome, text).toMatchObject({ kind: "failed", cannotPass: null });
      }
    });

    it("a cloud provider without credentials: not retried", () => {
      const text = "API Error: Could not load AWS credentials from any providers";
      const outcome = classifySession({
        ...ending,
        thrown: thrownResult(text),
        reading: reading({ resultText: null, lastResultIsError: true, resultError: text }),
      });
      expect(outcome.cannotPass).toBe("cloud-credentials");
    });

    it("a prompt too long stays an overflow, not an invalid request", () => {
      const text = "API Error: 400 prompt is too long: 210000 tokens > 200000 maximum";
      const outcome = classifySession({ ...ending, reading: apiError(400, "invalid_request_error", text) });
      expect(outcome).toMatchObject({ kind: "overflow", cannotPass: null });
    });

    it("a child that exits before its first message: its stderr is the reason, not retried", () => {
      const outcome = classifySession({
        ...ending,
        thrown: new Error("Claude Code process exited with code 1"),
        stderr: [
          "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
        ],
        reading: reading({ sessionId: null, started: false, sawResult: false, resultText: null }),
      });
      expect(outcome).toMatchObject({
        kind: "failed",
        cannotPass: "refused-start",
        error:
          "Claude Code process exited with code 1 — claude said: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
      });
    });

    it("a child killed by a signal, or dying mid-run, keeps its retries and still says its last lines", () => {
      const killed = classifySession({
        ...ending,
        thrown: new Error("Claude Code process terminated by signal SIGKILL"),
        stderr: ["a", "b", "c", "d"],
        reading: reading({ sessionId: null, started: false, sawResult: false, resultText: null }),
      });
      expect(killed).toMatchObject({ kind: "failed", cannotPass: null });
      expect(killed.error).toBe("Claude Code process terminated by signal SIGKILL — claude said: b / c / d");
      expect(killed.stderr).toEqual(["a", "b", "c", "d"]);
      const midRun = classifySession({
        ...ending,
        thrown: new Error("Claude Code process exited with code 1"),
        reading: reading({ sawResult: false, resultText: null }),
      });
      expect(midRun.cannotPass).toBeNull();
    });

    it("stderr is not quoted for an ordinary error result", () => {
      const text = "API Error: 529 Overloaded.";
      const outcome = classifySession({
        ...ending,
        thrown: thrownResult(text),
        stderr: ["some debug line"],
        reading: apiError(529, "overloaded_error", text),
      });
      expect(outcome.error).toBe(text);
      expect(outcome.stderr).toEqual([]);
    });

    it("retries cut short by the driver: the API's words, not the interrupt's", () => {
      const outcome = classifySession({
        ...ending,
        cutShort: { cannotPass: "authentication", detail: "401 invalid x-api-key" },
        reading: reading({
          resultText: null,
          lastResultIsError: true,
          resultError: "error_during_execution: [ede_diagnostic] result_type=user",
          apiStatus: 401,
          apiErrorType: "authentication_failed",
        }),
      });
      expect(outcome).toMatchObject({
        kind: "failed",
        cannotPass: "authentication",
        error: "API Error: 401 invalid x-api-key",
      });
      const noDetail = classifySession({
        ...ending,
        cutShort: { cannotPass: "authentication", detail: null },
        reading: reading({ apiStatus: 401, apiErrorType: "authentication_failed", lastResultIsError: true }),
      });
      expect(noDetail.error).toBe("API Error: 401 authentication_failed");
    });

    it("a stop from outside wins over a cut-short retry", () => {
      const outcome = classifySession({
        ...ending,
        stopRequested: true,
        cutShort: { cannotPass: "authentication", detail: null },
        reading: reading({ resultText: null, lastResultIsError: true, apiStatus: 401 }),
      });
      expect(outcome.kind).toBe("stopped");
    });
  });
});
