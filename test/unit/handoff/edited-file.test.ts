import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEditedHandoff } from "../../../src/handoff/edited-file.js";
import { freezeHandoff } from "../../../src/handoff/freeze-handoff.js";
import { parseHandoff } from "../../../src/handoff/read-handoff.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();
const options = { step: "s", task: "TASK: do the thing.", locale: "en" as const };

describe("readEditedHandoff", () => {
  it.each([
    ["empty", "", /is empty/],
    ["blank", " \n\n\t\n", /is empty/],
    ["invalid UTF-8", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]), /is not UTF-8 text/],
    ["NUL-bearing", "## Doing\nx\u0000y\n", /holds binary data/],
  ])("%s: the degraded handoff with the task, and why", (_, content, why) => {
    const path = join(temp.make(), "handoff-s.md");
    writeFileSync(path, content);
    const edited = readEditedHandoff(path, options);
    expect(edited.unusable).toMatch(why);
    expect(edited.handoff.promptBlock("en")).toContain("TASK: do the thing.");
    expect(edited.handoff.doing).toContain("Degraded handoff");
  });

  it("a person's edit is used as written", () => {
    const path = join(temp.make(), "handoff-s.md");
    writeFileSync(path, "## Doing\nHUMAN-EDIT\n## Next\n- go on\n");
    const edited = readEditedHandoff(path, options);
    expect(edited.unusable).toBeNull();
    expect(edited.handoff.doing).toBe("HUMAN-EDIT");
  });

  it("a missing file degrades with the reason", () => {
    const edited = readEditedHandoff(join(temp.make(), "gone.md"), options);
    expect(edited.unusable).toMatch(/cannot be read \(ENOENT\)/);
  });

  it("a 10 MB file parses (no argument-limit overflow)", () => {
    const text = `## Doing\nx\n## Next\n- y\n## Scene\n${"  - filler line\n".repeat(700_000)}`;
    expect(text.length).toBeGreaterThan(10_000_000);
    expect(parseHandoff(text, "s").scene.length).toBeGreaterThan(9_000_000);
  });
});

describe("frozen handoffs named after hostile step names stay in their folder", () => {
  it.each(["../../escape", "a/b\\c", "nul\u0000byte", "名".repeat(300), "x".repeat(300), "..", "/"])(
    "%j",
    (step) => {
      const notesDir = join(temp.make(), "notes");
      const first = freezeHandoff(parseHandoff("## Doing\nx\n## Next\n- y\n", step), {
        notesDir,
        step,
        locale: "en",
      });
      const second = freezeHandoff(parseHandoff("## Doing\nz\n## Next\n- y\n", step), {
        notesDir,
        step,
        locale: "en",
      });
      for (const path of [first.path, second.path, second.archived!]) {
        expect(path.startsWith(`${notesDir}/`), path).toBe(true);
        expect(path.includes("/../")).toBe(false);
        expect(Buffer.byteLength(path.split("/").at(-1)!)).toBeLessThanOrEqual(200);
      }
    },
  );
});
