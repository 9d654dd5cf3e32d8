/**
 * A vitest setup file: every end-to-end test (a file under test/e2e/) must leave no `claude` process
 * running. A leaked child keeps a port, a SQLite handle and a CPU busy, and the test that inherits it
 * fails for a reason it does not own; so the test that leaked fails instead, naming the processes.
 *
 * A child that is on its way out gets up to two seconds. One still running after that is killed, so
 * one leak does not fail every test after it.
 */
import { sep } from "node:path";
import { isMainThread } from "node:worker_threads";
import { afterEach, expect } from "vitest";
import { claudeDescendants } from "./claude-children.js";

const END_TO_END = `${sep}test${sep}e2e${sep}`;
const GRACE_MS = 2_000;
const POLL_MS = 100;

// Under the threads pool every test file shares one process, and one file's children would fail another's test.
if (!isMainThread) {
  throw new Error("test/support/no-claude-left.ts needs vitest's forks pool (one process per test file)");
}

afterEach(async () => {
  if (!(expect.getState().testPath ?? "").includes(END_TO_END)) return;
  const deadline = Date.now() + GRACE_MS;
  let left = claudeDescendants();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    left = claudeDescendants();
  }
  if (left.length === 0) return;
  for (const pid of left) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone in the meantime.
    }
  }
  throw new Error(
    `this test left ${left.length} claude process${left.length === 1 ? "" : "es"} running ` +
      `${GRACE_MS / 1000} s after it ended (pid ${left.join(", ")}); killed ${left.length === 1 ? "it" : "them"} so the next test starts clean`,
  );
});
