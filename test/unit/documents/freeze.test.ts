/** Freezing a declared document: its file name per locale, the archive of the previous version, read-back. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GOAL } from "../../../src/documents/builtin/goal.js";
import { REQUIREMENTS } from "../../../src/documents/builtin/requirements.js";
import { documentPath, freezeDocument, readFrozenDocument } from "../../../src/documents/freeze.js";
import { parseDocument } from "../../../src/documents/read.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

describe("freezeDocument", () => {
  it("names the file from the run id and the locale", () => {
    expect(documentPath("/n", REQUIREMENTS, "r1", "zh")).toBe("/n/需求-r1.md");
    expect(documentPath("/n", REQUIREMENTS, "r1", "en")).toBe("/n/requirements-r1.md");
    expect(documentPath("/n", GOAL, "r1", "zh")).toBe("/n/目标-r1.md");
    expect(documentPath("/n", GOAL, "r1", "en")).toBe("/n/goal-r1.md");
    expect(documentPath("/n", GOAL, "../x", "en")).toBe("/n/goal-x.md");
  });

  it("writes the file, archives the previous version, and reads back what is on disk", () => {
    const notes = temp.make();
    const first = parseDocument(REQUIREMENTS, "## Task\nFirst.\n## Acceptance\n- a", "r1");
    const one = freezeDocument(first, {
      notesDir: notes,
      locale: "en",
      now: new Date("2026-11-30T10:00:00Z"),
    });
    expect(one).toEqual({ path: join(notes, "requirements-r1.md"), archived: null });
    const second = parseDocument(REQUIREMENTS, "## Task\nSecond.\n## Acceptance\n- b", "r1");
    const two = freezeDocument(second, {
      notesDir: notes,
      locale: "en",
      now: new Date("2026-11-30T11:00:00Z"),
    });
    expect(two.archived).toBe(join(notes, "archive", "requirements", "r1-2026-11-30T11-00-00-000Z.md"));
    expect(readFileSync(two.archived!, "utf8")).toContain("First.");
    expect(readFileSync(two.path, "utf8")).toContain("Second.");
    // Atomic: no temporary file is left beside it.
    expect(readdirSync(notes).sort()).toEqual(["archive", "requirements-r1.md"]);

    writeFileSync(two.path, readFileSync(two.path, "utf8").replace("Second.", "Second, edited by a person."));
    const read = readFrozenDocument(REQUIREMENTS, two.path, "r1");
    expect(read.document.sections.task).toBe("Second, edited by a person.");
    expect(read.text).toBe(readFileSync(two.path, "utf8"));
    expect(existsSync(one.path)).toBe(true);
  });
});
