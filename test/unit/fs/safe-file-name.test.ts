import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { handoffPath } from "../../../src/handoff/freeze-handoff.js";
import { safeFileName } from "../../../src/fs/safe-file-name.js";
import { properties } from "../../support/properties.js";

describe("safeFileName", () => {
  it.each([
    ["../../etc/passwd", "etc_passwd"],
    ["a/b\\c", "a_b_c"],
    ["fix the build", "fix-the-build"],
    ["..", "step"],
    ["", "step"],
    ["干活", "干活"],
  ])("%j -> %j", (step, expected) => {
    expect(safeFileName(step)).toBe(expected);
  });

  it("never lets a handoff file leave the notes folder, whatever the step name", () => {
    const notes = "/tmp/ws/.flower/notes";
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 60 }),
        fc.constantFrom("zh" as const, "en" as const),
        (step, locale) => {
          const path = handoffPath(notes, step, locale);
          expect(resolve(path).startsWith(join(notes, "/"))).toBe(true);
          expect(resolve(path)).toBe(path);
        },
      ),
      properties(2000),
    );
  });
});
