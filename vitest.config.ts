import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // e2e tests spawn the real `claude` binary; on 2 cores more than two at once only adds contention.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // Fails an end-to-end test (test/e2e/) that leaves a `claude` process running.
    setupFiles: ["./test/support/no-claude-left.ts"],
    reporters: ["default", "./test/support/plain-summary-reporter.ts"],
  },
});
