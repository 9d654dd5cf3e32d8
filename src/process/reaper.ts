/**
 * The reaper: one small process per driver that, when the driver is gone, kills every process carrying
 * the driver's tag (driver-tag.ts says why, how, and why not otherwise). `withDriverTag` is the one door:
 * a process started with the environment it returns is tagged, and the reaper runs from then on.
 *
 * It is started in a session of its own (a kill of the driver's whole group, as `docker stop`'s final
 * kill or a terminal's hangup sends, does not reach it) with its stdin the read end of a pipe whose
 * write end only the driver holds (Node opens its pipes close-on-exec, so no other child inherits it).
 * When the driver is gone, however it went, the kernel closes the write end and the reaper reads EOF.
 *
 * What it costs: while the driver lives, a /bin/sh blocked in `read` on that pipe (about 1.7 MB
 * resident, no CPU); only at EOF does it run one `grep` and exec Node to sweep /proc
 * (tagged-processes.ts). A Node process waiting instead would hold about 42 MB for the driver's whole
 * life. It starts only in a process that starts a tagged process: `flower runs`, `show`, `diff` and the
 * like start none.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DRIVER_TAG_VARIABLE, ownDriverTag } from "./driver-tag.js";
import { taggedProcesses } from "./tagged-processes.js";

/** The sweep the reaper runs (compiled beside this file). */
const PROGRAM = fileURLToPath(new URL("./reaper-main.js", import.meta.url));

/**
 * Waits for EOF on stdin (the driver's end of the pipe closed); kills what one `grep` finds carrying the
 * tag at once (GNU grep's -z reads NUL-separated records; where grep lacks it, it finds nothing); then
 * becomes `node reaper-main.js <tag>`, which sweeps until nothing is left. The first pass does not wait
 * for Node to start: on a busy 2-core machine that took the loop's end from about 0.4 s after the kill
 * to about 0.1 s.
 */
const WAIT_THEN_SWEEP = [
  "while read -r _; do :; done",
  `for f in $(grep -lzxF "${DRIVER_TAG_VARIABLE}=$2" /proc/[0-9]*/environ 2>/dev/null); do p=\${f#/proc/}; kill -9 \${p%/environ} 2>/dev/null; done`,
  'exec "$0" "$1" "$2"',
].join("; ");

/** undefined: not started yet; null: could not start (no /bin/sh, or the program is not on disk). */
let reaper: ChildProcess | null | undefined;

function startReaper(tag: string): void {
  if (reaper !== undefined) return;
  reaper = null;
  // Running flower's TypeScript sources (a test runner) there is no compiled program to run; the
  // successor's sweep before a takeover (records/lease.ts) still holds.
  if (!existsSync(PROGRAM)) return;
  // Not tagged itself: an outer driver's reaper (flower run by a flower's Bash) would kill it before it swept.
  const env = { ...process.env };
  delete env[DRIVER_TAG_VARIABLE];
  let child: ChildProcess;
  try {
    child = spawn("/bin/sh", ["-c", WAIT_THEN_SWEEP, process.execPath, PROGRAM, tag], {
      cwd: "/",
      env,
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
  } catch {
    return;
  }
  child.on("error", () => undefined);
  child.stdin?.on("error", () => undefined);
  // Killed by someone while the driver lives: the next tagged process starts a new one.
  child.on("exit", () => {
    if (reaper === child) reaper = undefined;
  });
  // Neither the reaper nor its pipe keeps the driver's event loop alive; the pipe stays open as long
  // as the driver does, since `reaper` holds it.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  reaper = child;
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => standDown(tag));
  }
}

let exitHooked = false;

/**
 * At a normal exit with nothing tagged left running (the usual end: the `claude` child and every check
 * have ended), the reaper is sent away before it sweeps: this costs one sweep here (a few ms) and saves
 * it Node's start (about 40 ms of CPU) at the end of every `flower` that started something. Nothing can
 * start a tagged process after this point (an exit handler is the last code the driver runs, and none of
 * what it started is left to fork), so the reaper has nothing to find. Anything found is left to it.
 */
function standDown(tag: string): void {
  const child = reaper;
  if (!child?.pid || taggedProcesses(tag).length > 0) return;
  try {
    process.kill(child.pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}

/**
 * `env` with this driver's tag, for a process that must not outlive the driver; the first call starts
 * the reaper. Where there is no /proc (macOS, Windows) `env` comes back as it is.
 */
export function withDriverTag(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const tag = ownDriverTag();
  if (tag === null) return env;
  startReaper(tag);
  return { ...env, [DRIVER_TAG_VARIABLE]: tag };
}
