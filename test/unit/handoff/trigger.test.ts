import { describe, expect, it } from "vitest";
import { handoffDue, nearDue } from "../../../src/handoff/trigger.js";

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
