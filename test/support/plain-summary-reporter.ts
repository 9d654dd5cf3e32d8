/**
 * Ends every run with one plain line, `tests: N passed, N failed` (`, N skipped` when any), after
 * vitest's own summary: the form CI systems that do not know vitest's summary read.
 */
import type { Reporter, TestModule } from "vitest/node";

export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else if (state === "skipped") skipped += 1;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (module.state() === "failed" && module.children.size === 0) failed += 1;
    }
    process.stdout.write(
      `\ntests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}\n`,
    );
  }
}
