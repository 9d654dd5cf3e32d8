/**
 * Temporary directories for tests, removed without a line of cleanup in the test.
 *
 * Call `useTempDirs()` at the top of a test file (or in a `describe`, or at the top of a helper module
 * that test files import): it registers the hooks in that suite. A directory made during a test (or
 * its `beforeEach`) is removed after that test; one made in `beforeAll` or at load time, after the
 * file (or the `describe`).
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach } from "vitest";

export interface TempDirs {
  /** A new, empty directory under os.tmpdir(), named `<prefix><random>`. */
  make(prefix?: string): string;
}

export function useTempDirs(): TempDirs {
  const ofTest: string[] = [];
  const ofSuite: string[] = [];
  let inTest = false;
  // Registered before the file's own hooks, so this beforeEach runs first and this afterEach last:
  // a directory made in the file's beforeEach belongs to the test, and is removed after its cleanup.
  beforeEach(() => {
    inTest = true;
  });
  afterEach(async () => {
    inTest = false;
    await removeAll(ofTest);
  });
  afterAll(() => removeAll(ofSuite));
  return {
    make(prefix = "flower-test-") {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      (inTest ? ofTest : ofSuite).push(dir);
      return dir;
    },
  };
}

async function removeAll(dirs: string[]): Promise<void> {
  const removing = dirs.splice(0);
  await Promise.all(removing.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
}
