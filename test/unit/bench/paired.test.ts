import { describe, expect, it } from "vitest";
import { pairedDifferences, pairedSide } from "../../../bench/paired.js";

describe("workload 3's paired mode", () => {
  it("gives each neighbouring pair one call of each side, flower first and empty first in turn", () => {
    const sides = Array.from({ length: 8 }, (_, index) => pairedSide(index));
    expect(sides).toEqual(["flower", "empty", "empty", "flower", "flower", "empty", "empty", "flower"]);
  });

  it("takes flower − empty of each pair, whichever came first", () => {
    const sides = Array.from({ length: 6 }, (_, index) => pairedSide(index));
    expect(pairedDifferences([10, 7, 5, 9, 4, 4], sides)).toEqual([3, 4, 0]);
  });

  it("lets a steady trend along the session cancel out", () => {
    // Each call 2 ms slower than the one before, no difference between the sides.
    const gaps = Array.from({ length: 8 }, (_, index) => 60 + 2 * index);
    const sides = gaps.map((_, index) => pairedSide(index));
    const differences = pairedDifferences(gaps, sides);
    expect(differences).toEqual([-2, 2, -2, 2]);
    expect(differences.reduce((sum, value) => sum + value, 0)).toBe(0);
  });

  it("skips an odd last call and a pair whose calls took the same side", () => {
    expect(pairedDifferences([10, 7, 5], ["flower", "empty", "empty"])).toEqual([3]);
    expect(pairedDifferences([10, 7, 5, 1], ["flower", "flower", "empty", "flower"])).toEqual([-4]);
  });
});
