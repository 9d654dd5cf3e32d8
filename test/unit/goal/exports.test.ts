import { describe, expect, it } from "vitest";
import * as goal from "../../../src/goal/index.js";

describe("src/goal/index.ts", () => {
  it("exports exactly the public parts", () => {
    expect(Object.keys(goal).sort()).toEqual([
      "GOAL_DEFAULTS",
      "MAX_GUARD_ROUNDS",
      "REVIEWER_INSTRUCTIONS",
      "REVIEW_SIGNATURE",
      "allPassed",
      "assessClaim",
      "claimFlagLine",
      "describeFailure",
      "findChecksSection",
      "guardRoundMessage",
      "guardStatusLine",
      "parseChecksSection",
      "parseGoalChecks",
      "parseReviewVerdict",
      "resolveGoalOption",
      "reviewPrompt",
      "reviewRoundMessage",
      "runChecks",
      "validateGoalCheck",
    ]);
    expect(goal.GOAL_DEFAULTS).toMatchObject({ guardRounds: 3, checkTimeoutMs: 120_000 });
  });
});
