import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HANDOFF_MARK, SPARK_LEVELS, sparkLevel, sparkline } from "../../../src/report/sparkline.js";
import { ConfigurationError } from "../../../src/errors.js";
import { properties } from "../../support/properties.js";

const turns = (generation: number, ...contexts: number[]) =>
  contexts.map((context) => ({ generation, context }));

describe("sparkLevel", () => {
  it("maps 0..max onto the eight blocks, full at and above max", () => {
    expect(sparkLevel(0, 100)).toBe("▁");
    expect(sparkLevel(12, 100)).toBe("▁");
    expect(sparkLevel(13, 100)).toBe("▂");
    expect(sparkLevel(50, 100)).toBe("▅");
    expect(sparkLevel(99, 100)).toBe("█");
    expect(sparkLevel(100, 100)).toBe("█");
    expect(sparkLevel(250, 100)).toBe("█");
  });
});

describe("sparkline", () => {
  it("draws one block per turn and marks each handoff", () => {
    const series = [...turns(1, 10, 40, 80), ...turns(2, 20, 60), ...turns(3, 30)];
    expect(sparkline(series, { width: 80, max: 80 })).toBe("▂▅█│▃▇│▄");
  });

  it("scales to the series' peak by default", () => {
    expect(sparkline(turns(1, 0, 5, 10), { width: 10 })).toBe("▁▅█");
  });

  it("is empty for no turns", () => {
    expect(sparkline([], { width: 10 })).toBe("");
  });

  it("keeps each generation's peak when it has to squeeze", () => {
    const first = Array.from({ length: 100 }, (_, i) => i);
    const line = sparkline([...turns(1, ...first), ...turns(2, 5, 99, 5)], { width: 11, max: 99 });
    expect(Array.from(line)).toHaveLength(11);
    const [left, right] = line.split(HANDOFF_MARK);
    expect(Array.from(left!).length + Array.from(right!).length).toBe(10);
    // Generation 1 rises to its peak at the end; generation 2's single high turn survives.
    expect(Array.from(left!).at(-1)).toBe("█");
    expect(right).toContain("█");
  });

  it("drops the marks rather than overflow when generations outnumber the width", () => {
    const series = Array.from({ length: 30 }, (_, i) => ({ generation: i + 1, context: i }));
    const line = sparkline(series, { width: 10, max: 29 });
    expect(Array.from(line)).toHaveLength(10);
    expect(line).not.toContain(HANDOFF_MARK);
    expect(Array.from(line).at(-1)).toBe("█");
  });

  it("never exceeds the width, keeps every handoff when it fits, and uses only blocks and marks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 300_000 })), {
          maxLength: 400,
        }),
        fc.integer({ min: 1, max: 120 }),
        (steps, width) => {
          let generation = 1;
          const series = steps.map(([advance, context]) => {
            generation += advance === 3 ? 1 : 0;
            return { generation, context };
          });
          const line = sparkline(series, { width, max: 200_000 });
          const chars = Array.from(line);
          expect(chars.length).toBeLessThanOrEqual(width);
          if (series.length > 0) expect(chars.length).toBeGreaterThan(0);
          for (const char of chars) expect([...SPARK_LEVELS, HANDOFF_MARK]).toContain(char);
          const generations = new Set(series.map((turn) => turn.generation)).size;
          if (series.length > 0 && 2 * generations - 1 <= width) {
            expect(chars.filter((char) => char === HANDOFF_MARK)).toHaveLength(generations - 1);
          }
          if (series.length <= width - (generations - 1)) {
            expect(chars.filter((char) => char !== HANDOFF_MARK)).toHaveLength(series.length);
          }
        },
      ),
      properties(200),
    );
  });

  it("names bad input", () => {
    expect(() => sparkline(turns(1, 1), { width: 0 })).toThrow(ConfigurationError);
    expect(() => sparkline(turns(1, 1), { width: 2.5 })).toThrow(/width: got 2.5/);
    expect(() => sparkline(turns(1, 1, -4), { width: 5 })).toThrow(/turns\[1\]\.context: got -4/);
    expect(() => sparkline(turns(1, Number.NaN), { width: 5 })).toThrow(/turns\[0\]\.context/);
    expect(() => sparkline(turns(1, 1), { width: 5, max: 0 })).toThrow(/max: got 0/);
    expect(() => sparkline("x" as unknown as [], { width: 5 })).toThrow(/turns/);
  });
});
