import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { resolveGoalOption } from "../../../src/goal/goal-option.js";

describe("resolveGoalOption", () => {
  it("fills in the defaults and copies the checks", () => {
    const checks = [{ command: "npm test" }];
    const goal = resolveGoalOption({ checks });
    expect(goal).toEqual({ checks, guardRounds: 3, goalText: null, requirementsText: null, review: false });
    expect(goal.checks[0]).not.toBe(checks[0]);
    expect(resolveGoalOption({ checks: [], review: true, goalText: "  " }).goalText).toBeNull();
  });

  it("names the bad value", () => {
    const bad: Array<[unknown, RegExp]> = [
      [null, /Invalid option goal: got null/],
      [{ checks: "npm test" }, /goal\.checks: got "npm test"/],
      [{ checks: [] }, /goal\.checks: got an array of 0, expected at least one check \(or review: true\)/],
      [
        { checks: [{ command: "x", expect: { exitCode: 300 } }] },
        /goal\.checks\[0\]\.expect\.exitCode: got 300/,
      ],
      [{ checks: [{ command: "x" }], guardRounds: 2.5 }, /goal\.guardRounds: got 2\.5/],
      [{ checks: [{ command: "x" }], guardRounds: 21 }, /goal\.guardRounds: got 21/],
      [{ checks: [{ command: "x" }], review: "yes" }, /goal\.review: got "yes"/],
      [{ checks: [{ command: "x" }], goalText: 1 }, /goal\.goalText: got 1/],
      [{ checks: [{ command: "x" }], rounds: 2 }, /goal\.rounds: got 2, expected a known field/],
    ];
    for (const [value, message] of bad) {
      expect(() => resolveGoalOption(value)).toThrow(ConfigurationError);
      expect(() => resolveGoalOption(value)).toThrow(message);
    }
  });
});
