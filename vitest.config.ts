import { defineConfig } from "vitest/config";
import { testHomeEnv } from "./test/support/test-home.js";

/**
 * Three tiers, by folder (a new test file joins its folder's tier without an edit here):
 * - unit (test/unit): in-process only — no child process, no server, no browser, no `claude` binary;
 *   threads, the cheapest workers. `npm run check` runs this tier.
 * - integration (test/integration): real PostgreSQL, Chromium, child processes, the file system under
 *   load, and no `claude`; one process per file (the fixtures some spawn import dist/: build first).
 * - e2e (test/e2e, test/package, test/readme): the real `claude` binary, through the library or the built
 *   CLI (`npm run build` first); one process per file, and a test that leaves a `claude` running fails.
 * integration and e2e share one PostgreSQL server per run (test/support/postgres-global-setup.ts).
 * e2e also records one `flower demo --keep` per run, in the background, for the files that only read a
 * finished demo (test/support/shared-demo-global-setup.ts lists them; a demo is eight real sessions).
 * Their forks are reused from file to file (`isolate: false`): each file still runs in a child process,
 * one file at a time, but `src/` and the test support are imported once per worker, not once per file —
 * vitest counted 26.5 s of imports in a full run before. Tests keep no state in modules (each file makes its own
 * temp dirs, kit, runtime), so a file does not see another's.
 */
const POSTGRES = "./test/support/postgres-global-setup.ts";

export default defineConfig({
  test: {
    // e2e tests spawn the real `claude` binary; on 2 cores more than two at once only adds contention.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ["default", "./test/support/plain-summary-reporter.ts"],
    // A HOME without the developer's shell startup files, for the tests and every process they start
    // (test/support/test-home.ts says why: a stale pyenv lock made every Bash call wait 60 s).
    env: testHomeEnv(),
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], pool: "threads" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          pool: "forks",
          isolate: false,
          globalSetup: [POSTGRES],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "test/package/**/*.test.ts", "test/readme/**/*.test.ts"],
          pool: "forks",
          isolate: false,
          globalSetup: [POSTGRES, "./test/support/shared-demo-global-setup.ts"],
          // Fails an end-to-end test (test/e2e/) that leaves a `claude` process running.
          setupFiles: ["./test/support/no-claude-left.ts"],
        },
      },
    ],
  },
});
