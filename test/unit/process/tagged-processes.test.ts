import { describe, expect, it } from "vitest";
import { DRIVER_TAG_VARIABLE, driverTag } from "../../../src/process/driver-tag.js";
import { environHolds } from "../../../src/process/tagged-processes.js";

const environ = (...entries: string[]) => Buffer.from(entries.join("\0"));
const entry = (tag: string) => Buffer.from(`${DRIVER_TAG_VARIABLE}=${tag}`);

describe("environHolds: a process carries a driver's tag only when its environment has exactly that entry", () => {
  it("finds the entry first, in the middle, last, and with the trailing NUL /proc gives", () => {
    expect(environHolds(environ("FLOWER_DRIVER=12-34", "HOME=/h"), entry("12-34"))).toBe(true);
    expect(environHolds(environ("PATH=/bin", "FLOWER_DRIVER=12-34", "HOME=/h"), entry("12-34"))).toBe(true);
    expect(environHolds(environ("PATH=/bin", "FLOWER_DRIVER=12-34"), entry("12-34"))).toBe(true);
    expect(environHolds(environ("PATH=/bin", "FLOWER_DRIVER=12-34", ""), entry("12-34"))).toBe(true);
  });

  it("does not take another driver's tag, another variable, or a value that merely contains it", () => {
    expect(environHolds(environ("FLOWER_DRIVER=12-345"), entry("12-34"))).toBe(false);
    expect(environHolds(environ("FLOWER_DRIVER=112-34"), entry("12-34"))).toBe(false);
    expect(environHolds(environ("MY_FLOWER_DRIVER=12-34"), entry("12-34"))).toBe(false);
    expect(environHolds(environ("NOTE=FLOWER_DRIVER=12-34 was here"), entry("12-34"))).toBe(false);
    expect(
      environHolds(environ("NOTE=x", "FLOWER_DRIVER=12-345", "FLOWER_DRIVER=12-34"), entry("12-34")),
    ).toBe(true);
    expect(environHolds(Buffer.alloc(0), entry("12-34"))).toBe(false);
  });
});

describe("driverTag", () => {
  it("is the pid and start time, and none where the start time is unknown (no /proc: nothing could sweep it)", () => {
    expect(driverTag({ pid: 4121, startTicks: 987654 })).toBe("4121-987654");
    expect(driverTag({ pid: 4121, startTicks: null })).toBeNull();
  });
});
