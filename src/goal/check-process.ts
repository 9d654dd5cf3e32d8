/**
 * Running one check's command: `/bin/sh -c` in the workspace as the leader of its own process group,
 * with its timeout and the abort signal, and the whole group ended in every case. This is the part that
 * deals with processes and pipes, so it is its own file; judging what the ending means is in
 * check-result.ts.
 */
import { spawn } from "node:child_process";
import type { Ending } from "./check-ending.js";
import type { ResolvedOptions } from "./check-options.js";
import type { OutputCapture } from "./output-capture.js";
import { terminateGroup } from "./process-group.js";
import { withDriverTag } from "../process/reaper.js";

/** Spawns the shell, feeds the capture, enforces timeout and abort, and ends the group in every case. */
export function execute(
  command: string,
  timeoutMs: number,
  output: OutputCapture,
  options: ResolvedOptions,
): Promise<Ending> {
  return new Promise<Ending>((resolve) => {
    const ending: Ending = {
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      spawnError: null,
    };
    const child = spawn("/bin/sh", ["-c", command], {
      cwd: options.workspace,
      // Tagged: a check still running when its driver is killed is ended by the driver's reaper.
      env: withDriverTag(options.env),
      // Its own process group (setsid): one signal reaches everything the check starts.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const groupId = child.pid;
    const collect = (chunk: Buffer): void => output.push(chunk);
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);

    let stopping: Promise<unknown> | null = null;
    const stop = (): Promise<unknown> => {
      // terminateGroup does not throw; the catch keeps a surprise from leaving this promise unsettled.
      stopping ??= (
        groupId === undefined ? Promise.resolve() : terminateGroup(groupId, options.killGraceMs)
      ).catch(() => undefined);
      return stopping;
    };
    const timer = setTimeout(() => {
      ending.timedOut = true;
      void stop();
    }, timeoutMs);
    const onAbort = (): void => {
      ending.aborted = true;
      void stop();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve(ending);
    };

    child.once("error", (error) => {
      // Only when /bin/sh itself cannot be started; there is no process to wait for.
      ending.spawnError = error;
      finish();
    });
    // 'close' comes when the shell has exited and both pipes are closed; a process that escaped the
    // group may hold them open, so after the group is ended the wait for 'close' is bounded.
    let closed = false;
    let groupEnded = false;
    let drainLimit: NodeJS.Timeout | undefined;
    child.once("close", () => {
      closed = true;
      clearTimeout(drainLimit);
      if (groupEnded) finish();
    });
    child.once("exit", (code, signal) => {
      ending.exitCode = code;
      ending.signal = signal;
      clearTimeout(timer);
      // The shell is done; end whatever it left in its group (a `server &` would outlive the run).
      void stop().then(() => {
        groupEnded = true;
        if (closed) return finish();
        drainLimit = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, options.killGraceMs + 500);
      });
    });
  });
}
