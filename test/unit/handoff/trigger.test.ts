import { describe, expect, it } from "vitest";
import { costDue, handoffDue, handoffPrice, nearDue, switchDue } from "../../../src/handoff/trigger.js";

describe("handoffDue (H4) truth table", () => {
  const at = 150_000;
  // enabled, writing, context, sessionId → due
  const rows: Array<[boolean, boolean, number | null, string | null, boolean]> = [
    [true, false, 150_000, "s1", true],
    [true, false, 200_000, "s1", true],
    [true, false, 149_999, "s1", false],
    [true, false, null, "s1", false],
    [true, false, 150_000, null, false],
    [true, false, 150_000, "", false],
    // The writing turn is above the line by construction; without the exemption every handoff degrades.
    [true, true, 150_000, "s1", false],
    [true, true, 300_000, "s1", false],
    [false, false, 150_000, "s1", false],
    [false, true, 150_000, "s1", false],
    [false, false, null, null, false],
  ];
  for (const [enabled, writing, context, sessionId, due] of rows) {
    it(`enabled=${enabled} writing=${writing} context=${context} session=${JSON.stringify(sessionId)} → ${due}`, () => {
      expect(handoffDue({ enabled, writing, context, at, sessionId })).toBe(due);
    });
  }

  it("is exhaustive over the boolean inputs", () => {
    for (const enabled of [true, false]) {
      for (const writing of [true, false]) {
        for (const over of [true, false]) {
          for (const hasSession of [true, false]) {
            const due = handoffDue({
              enabled,
              writing,
              context: over ? at : at - 1,
              at,
              sessionId: hasSession ? "s" : undefined,
            });
            expect(due).toBe(enabled && !writing && over && hasSession);
          }
        }
      }
    }
  });
});

describe("nearDue", () => {
  const base = { enabled: true, writing: false, warnAt: 130_000, at: 150_000, warned: false };

  it("warns once between warnAt and at", () => {
    expect(nearDue({ ...base, context: 129_999 })).toBe(false);
    expect(nearDue({ ...base, context: 130_000 })).toBe(true);
    expect(nearDue({ ...base, context: 149_999 })).toBe(true);
    expect(nearDue({ ...base, context: 140_000, warned: true })).toBe(false);
  });

  it("says nothing when the handoff itself is due, off, writing, or before the first turn", () => {
    expect(nearDue({ ...base, context: 150_000 })).toBe(false);
    expect(nearDue({ ...base, context: 140_000, enabled: false })).toBe(false);
    expect(nearDue({ ...base, context: 140_000, writing: true })).toBe(false);
    expect(nearDue({ ...base, context: null })).toBe(false);
  });
});

describe("costDue (HandoffPolicy rule: cost)", () => {
  const grow = (floor: number, perTurn: number, turns: number) =>
    Array.from({ length: turns + 1 }, (_, turn) => floor + perTurn * turn);

  it("prices a handoff: the writing turn re-reads the context, writes the document, the successor writes its floor", () => {
    expect(handoffPrice(40_000, 5_000, 2_000)).toBe(0.1 * 40_000 + 5 * 2_000 + 1.25 * 7_000);
  });

  it("is never due on the first turn, nor in a session that does not grow", () => {
    expect(costDue({ contexts: [5_000], handoffOutput: 2_000 })).toBe(false);
    expect(costDue({ contexts: new Array(500).fill(5_000), handoffOutput: 2_000 })).toBe(false);
  });

  it("switches where the average price per turn is lowest for steady growth (n ≈ √(20·H/g))", () => {
    const floor = 5_400;
    const perTurn = 300;
    const first = grow(floor, perTurn, 200).findIndex((_, turn, all) =>
      costDue({ contexts: all.slice(0, turn + 1), handoffOutput: 2_000 }),
    );
    // Average price per turn of generations of n turns: (H + 0.1·g·n(n+1)/2) / n, H at the switch.
    const average = (n: number) =>
      (handoffPrice(floor + perTurn * n, floor, 2_000) + 0.05 * perTurn * n * (n + 1)) / n;
    let best = 1;
    for (let n = 2; n < 200; n++) if (average(n) < average(best)) best = n;
    expect(Math.abs(first - best)).toBeLessThanOrEqual(2);
    // A faster-growing session reaches it sooner.
    const fast = grow(floor, 3_000, 200).findIndex((_, turn, all) =>
      costDue({ contexts: all.slice(0, turn + 1), handoffOutput: 2_000 }),
    );
    expect(fast).toBeLessThan(first);
  });
});

describe("switchDue: the line, the cost rule and a person's request in one decision", () => {
  const base = {
    enabled: true,
    rule: "line" as const,
    writing: false,
    contexts: [20_000, 30_000],
    at: 150_000,
    handoffOutput: 2_000,
    sessionId: "s1",
    requested: () => false,
  };
  // A context growing 10k a turn above a 20k floor: the cost rule is due long before the line.
  const growing = Array.from({ length: 12 }, (_, i) => 20_000 + i * 10_000);

  it("is due at the line, not below it", () => {
    expect(switchDue({ ...base, contexts: [20_000, 150_000] })).toBe(true);
    expect(switchDue({ ...base, contexts: [20_000, 149_999] })).toBe(false);
  });

  it("weighs the cost rule only when the policy names it", () => {
    expect(costDue({ contexts: growing, handoffOutput: 2_000 })).toBe(true);
    expect(switchDue({ ...base, contexts: growing })).toBe(false);
    expect(switchDue({ ...base, rule: "cost", contexts: growing })).toBe(true);
    expect(switchDue({ ...base, rule: "cost", enabled: false, contexts: growing })).toBe(false);
  });

  it("honours a person's request even with handoffs off, but not in the writing turn or before a session", () => {
    const requested = () => true;
    expect(switchDue({ ...base, enabled: false, requested })).toBe(true);
    expect(switchDue({ ...base, requested, writing: true })).toBe(false);
    expect(switchDue({ ...base, requested, sessionId: null })).toBe(false);
  });

  it("asks for a request only when nothing else made the switch due", () => {
    let asked = 0;
    const requested = () => {
      asked += 1;
      return false;
    };
    switchDue({ ...base, contexts: [20_000, 200_000], requested });
    expect(asked).toBe(0);
    switchDue({ ...base, requested });
    expect(asked).toBe(1);
  });
});
