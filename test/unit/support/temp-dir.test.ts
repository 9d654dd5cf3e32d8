import { existsSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTempDirs } from "../../support/temp-dir.js";

let ofSuite: string;

describe("useTempDirs", () => {
  const temp = useTempDirs();
  let ofBeforeEach: string;
  let ofFirstTest: string | undefined;

  beforeAll(() => {
    ofSuite = temp.make("flower-temp-suite-");
  });
  beforeEach(() => {
    ofBeforeEach = temp.make("flower-temp-each-");
  });

  it("makes a fresh directory under os.tmpdir() with the prefix", () => {
    ofFirstTest = temp.make("flower-temp-test-");
    writeFileSync(join(ofFirstTest, "file"), "x");
    expect(dirname(ofFirstTest)).toBe(tmpdir());
    expect(basename(ofFirstTest)).toMatch(/^flower-temp-test-.{6}$/);
    expect(statSync(ofFirstTest).isDirectory()).toBe(true);
    expect(temp.make("flower-temp-test-")).not.toBe(ofFirstTest);
  });

  it("removed the last test's directories, with their contents, and keeps the suite's", () => {
    expect(ofFirstTest).toBeDefined();
    expect(existsSync(ofFirstTest!)).toBe(false);
    expect(existsSync(ofSuite)).toBe(true);
    expect(existsSync(ofBeforeEach)).toBe(true);
  });

  afterAll(() => {
    // This runs before the helper's own afterAll (hooks after a test unwind in reverse).
    expect(existsSync(ofSuite)).toBe(true);
  });
});

describe("useTempDirs, after the suite that made them", () => {
  it("removed the beforeAll directory of the suite above", () => {
    expect(ofSuite).toBeDefined();
    expect(existsSync(ofSuite)).toBe(false);
  });
});
