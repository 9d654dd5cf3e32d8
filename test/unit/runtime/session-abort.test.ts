/**
 * Each session's abort controller follows the runtime's kill signal only while the session runs: a
 * long run (hundreds of sessions) must not pile listeners on the signal (Node warns at the 11th).
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { HandoffPolicy } from "../../../src/handoff/policy.js";
import { childAbort, releaseSessionAbort } from "../../../src/runtime/session/session-options.js";
import { runSession } from "../../../src/runtime/session/session-run.js";
import { response, result, scriptedQuery } from "../../support/scripted-query.js";
import { session } from "../../support/step-harness.js";

describe("a session's abort controller and the runtime's kill signal", () => {
  it("follows the kill signal until released, then leaves it", () => {
    const kill = new AbortController();
    const controllers = Array.from({ length: 10 }, () => childAbort(kill.signal));
    expect(getEventListeners(kill.signal, "abort")).toHaveLength(10);
    for (const controller of controllers.slice(1)) releaseSessionAbort({ abortController: controller });
    expect(getEventListeners(kill.signal, "abort")).toHaveLength(1);
    kill.abort();
    expect(controllers[0]!.signal.aborted).toBe(true);
    expect(controllers[1]!.signal.aborted).toBe(false);
  });

  it("is released when a session ends", async () => {
    const kill = new AbortController();
    const scripted = scriptedQuery(
      Array.from({ length: 12 }, (_, n) => session(`s${n}`, response(`s${n}`, 5_000), result(`s${n}`))),
    );
    for (let n = 0; n < 12; n++)
      await runSession({
        step: "survey",
        options: { abortController: childAbort(kill.signal) },
        prompt: "Count the lines in data/.",
        policy: new HandoffPolicy({ window: 100_000 }),
        generation: 1,
        writing: false,
        sink: () => {},
        onSession: () => {},
        stopSignal: new AbortController().signal,
        query: scripted.query,
      });
    expect(getEventListeners(kill.signal, "abort")).toHaveLength(0);
    scripted.assertComplete();
  });
});
