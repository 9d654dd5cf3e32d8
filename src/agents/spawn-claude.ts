/**
 * How the `claude` child is started, so that it can be stopped at a message boundary and dies with
 * its driver.
 *
 * - Its own process group: a terminal's Ctrl-C goes to the whole foreground group; without this the child
 *   died with the signal before the runtime could stop it at a message boundary, and the interrupted
 *   session's turns and cost were never reported. The runtime owns the stop.
 * - It dies with its driver. A detached child only notices a dead parent when its stdin closes, at the
 *   end of its turn; a killed `flower` left it working for many seconds (one turn can last minutes),
 *   making model requests nobody would read, and a `flower continue` started meanwhile had two processes
 *   driving one session. On Linux the child is started through util-linux's `setpriv --pdeathsig KILL`,
 *   which sets PR_SET_PDEATHSIG and then execs the binary (same pid, so the process group and the SDK's
 *   handle are unchanged): the kernel kills it the moment the driver dies, however it dies — exit,
 *   exception, SIGTERM, SIGKILL, the OOM killer. Chosen over the alternatives because it is the only one
 *   that holds for SIGKILL without a helper process: an `exit` handler never runs on SIGKILL, and a
 *   watchdog process that polls its parent costs a process per session and reacts only at its poll
 *   interval. Where `setpriv` is missing, the child is started directly and the lease takeover kills what
 *   is left (see records/lease.ts).
 * - Its environment carries the driver's tag (process/driver-tag.ts): the Bash commands and hooks it
 *   starts, each in a session of its own, inherit it, and the driver's reaper kills them when the
 *   driver is gone. pdeathsig reaches only the child itself.
 * - The pid is reported, so the lease can name the children its owner had.
 * - Its stderr is read, not discarded: a child that refuses to start says why only there
 *   (runtime/session/stderr-tail.ts keeps the last lines). A pipe nobody reads would fill up and block the child,
 *   so without a sink it is drained and dropped.
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import type { SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { withDriverTag } from "../process/reaper.js";

const SETPRIV_CANDIDATES = ["/usr/bin/setpriv", "/bin/setpriv"];

let setprivPath: string | null | undefined;

/** util-linux's setpriv, if this machine has it (Linux only). */
export function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  if (process.platform === "linux") {
    for (const candidate of SETPRIV_CANDIDATES) {
      try {
        accessSync(candidate, constants.X_OK);
        setprivPath = candidate;
        break;
      } catch {
        // Not here; try the next one.
      }
    }
  }
  return setprivPath;
}

/** Where the child's stderr goes (runtime/session/stderr-tail.ts keeps its last lines). */
export interface StderrSink {
  write(text: string): void;
  /** The stream closed: everything the child wrote is in. */
  end(): void;
}

/**
 * A spawner for the SDK's `spawnClaudeCodeProcess`; `onSpawn` learns each child's pid, `stderr` gets what
 * it writes there.
 */
export function claudeSpawner(
  onSpawn?: (pid: number) => void,
  stderr?: StderrSink,
): (options: SpawnOptions) => SpawnedProcess {
  return (options) => {
    const setpriv = findSetpriv();
    const [command, args] = setpriv
      ? [setpriv, ["--pdeathsig", "KILL", "--", options.command, ...options.args]]
      : [options.command, options.args];
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: withDriverTag(options.env),
      signal: options.signal,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => stderr?.write(text));
    child.stderr.on("close", () => stderr?.end());
    // A read error on the pipe must not crash the driver; the child's exit is reported by the SDK.
    child.stderr.on("error", () => stderr?.end());
    if (child.pid !== undefined) onSpawn?.(child.pid);
    return child;
  };
}

/** The spawner without a pid listener (kept for callers of the earlier name). */
export const spawnClaudeInOwnGroup = claudeSpawner();
