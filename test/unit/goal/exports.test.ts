import { describe, expect, it } from "vitest";
import * as goal from "../../../src/goal/index.js";

describe("src/goal/index.ts", () => {
  it("exports exactly the public parts", () => {
    expect(Object.keys(goal).sort()).toEqual([
      "GOAL_DEFAULTS",
      "allPassed",
      "assessClaim",
      "claimFlagLine",
      "describeFailure",
      "findChecksSection",
      "guardRoundMessage",
      "guardStatusLine",
      "parseChecksSection",
      "parseGoalChecks",
      "runChecks",
      "validateGoalCheck",
    ]);
    expect(goal.GOAL_DEFAULTS).toMatchObject({ guardRounds: 3, checkTimeoutMs: 120_000 });
  });
});
