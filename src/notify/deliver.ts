/**
 * Delivering one notification to one target, within a time limit, never throwing: a command runs under
 * `/bin/sh -c` as the leader of its own process group with the JSON on stdin and in FLOWER_NOTIFY_*
 * variables, and its whole group is ended when the limit passes (or when it exits: nothing it started
 * outlives it); a webhook is one POST of the JSON, aborted at the limit. The answer says how it went
 * wrong (null: delivered); what that means for the run is the Notifier's business.
 */
import { spawn } from "node:child_process";
import { terminateGroup } from "../goal/process-group.js";
import { withDriverTag } from "../process/reaper.js";
import { notificationEnv, type Notification } from "./notification.js";
import type { NotifyTarget } from "./target.js";

export type DeliveryFailure =
  | { kind: "exit"; code: number; said: string }
  | { kind: "signal"; signal: string }
  | { kind: "not-started"; message: string }
  | { kind: "timed-out" }
  | { kind: "http"; status: number }
  | { kind: "unreachable"; message: string };

export interface DeliveryLimits {
  timeoutMs: number;
  /** After SIGTERM, a command's group gets this long before SIGKILL. */
  killGraceMs: number;
  /** Process groups of commands still running: the Notifier ends them if the process exits first. */
  running: Set<number>;
}

/** The last characters of a command's stderr kept, for the one line that says it failed. */
const STDERR_KEPT = 2_000;

export function deliver(
  target: NotifyTarget,
  notification: Notification,
  limits: DeliveryLimits,
): Promise<DeliveryFailure | null> {
  return target.kind === "command"
    ? runCommand(target.command, notification, limits)
    : post(target.url, notification, limits.timeoutMs);
}

function runCommand(
  command: string,
  notification: Notification,
  limits: DeliveryLimits,
): Promise<DeliveryFailure | null> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn("/bin/sh", ["-c", command], {
        // Tagged: a command still running when its driver is killed is ended by the driver's reaper.
        env: withDriverTag({ ...process.env, ...notificationEnv(notification) }),
        // Its own process group: one signal ends whatever the command started.
        detached: true,
        stdio: ["pipe", "ignore", "pipe"],
      });
    } catch (error) {
      resolve({ kind: "not-started", message: (error as Error).message });
      return;
    }
    const group = child.pid;
    if (group !== undefined) limits.running.add(group);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    // A command that does not read its stdin closes it: the write then fails, which is not its failure.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(`${JSON.stringify(notification)}\n`);
    let timedOut = false;
    let settled = false;
    const end = (): Promise<unknown> =>
      group === undefined
        ? Promise.resolve()
        : terminateGroup(group, limits.killGraceMs)
            .catch(() => undefined)
            .finally(() => limits.running.delete(group));
    const finish = (failure: DeliveryFailure | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A descendant that escaped the group may hold the pipe open: it is not waited for.
      child.stderr?.destroy();
      resolve(failure);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      void end().then(() => finish({ kind: "timed-out" }));
    }, limits.timeoutMs);
    child.once("error", (error) => {
      finish({ kind: "not-started", message: error.message });
      void end();
    });
    child.once("exit", (code, signal) => {
      if (timedOut) return;
      clearTimeout(timer);
      // The shell is done; whatever it left in its group goes with it.
      void end().then(() => {
        if (code === 0) return finish(null);
        if (code !== null) return finish({ kind: "exit", code, said: lastLine(stderr) });
        finish({ kind: "signal", signal: signal ?? "a signal" });
      });
    });
  });
}

async function post(
  url: string,
  notification: Notification,
  timeoutMs: number,
): Promise<DeliveryFailure | null> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(notification),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not read: the status says whether it arrived.
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? null : { kind: "http", status: response.status };
  } catch (error) {
    const name = (error as Error).name;
    if (name === "TimeoutError" || name === "AbortError") return { kind: "timed-out" };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { kind: "unreachable", message: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

/** The last non-empty line a command wrote on stderr, without control characters, cut to one short line. */
function lastLine(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .reverse()
      .find((candidate) => candidate.trim() !== "") ?? "";
  // Control characters (a colour's escape code among them) do not belong in one line on a terminal.
  const chars = Array.from(line).filter((char) => char >= " " && char !== "\u007f");
  const clean = chars.join("").trim();
  return chars.length > 160 ? `${Array.from(clean).slice(0, 159).join("")}…` : clean;
}
