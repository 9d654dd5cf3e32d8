import { describe, expect, it } from "vitest";
import { DEGRADED, degraded, degradedError } from "../../../src/handoff/degraded.js";

describe("degraded", () => {
  it("marks doing and keeps the first 1200 characters of the task in scene", () => {
    const task = "任".repeat(1200) + "尾巴不该出现";
    const handoff = degraded("干活", task, { why: "network" });
    expect(DEGRADED).toBe("[降级:交接没写成]");
    expect(handoff.doing.startsWith(DEGRADED)).toBe(true);
    expect(handoff.doing).toContain("(network)");
    expect(handoff.degraded).toBe(true);
    expect(handoff.complete()).toBe(true);
    expect(handoff.scene).toContain("任".repeat(1200));
    expect(handoff.scene).not.toContain("尾巴");
    expect(handoff.next).toContain("现场");
    expect(handoff.step).toBe("干活");
  });

  it("counts characters as code points, not UTF-16 units", () => {
    const task = "😀".repeat(1300);
    const handoff = degraded("s", task);
    const kept = Array.from(handoff.scene).filter((char) => char === "😀").length;
    expect(kept).toBe(1200);
    expect(handoff.scene).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("has an English form with the same marker", () => {
    const handoff = degraded("s", "do the thing", { why: "prompt is too long", locale: "en" });
    expect(handoff.doing.startsWith(`${DEGRADED} Degraded handoff`)).toBe(true);
    expect(handoff.doing).toContain("(prompt is too long)");
    expect(handoff.next).toContain("Look at the scene yourself");
    expect(handoff.scene).toContain("do the thing");
  });

  it("leaves out the reason when there is none", () => {
    expect(degraded("s", "t").doing).not.toContain("()");
  });
});

describe("degradedError", () => {
  it("is the seed's 交接降级(<why>) entry", () => {
    expect(degradedError("network")).toBe("交接降级(network)");
    expect(degradedError("缺必填段: next")).toBe("交接降级(缺必填段: next)");
    expect(degradedError("line one\nline two")).toBe("交接降级(line one line two)");
    expect(degradedError("x", "en")).toBe("handoff degraded (x)");
  });
});
