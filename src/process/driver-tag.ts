/**
 * Nothing a driver starts outlives it: every process it starts carries its tag, and when it dies, however
 * it dies, every process carrying the tag is killed.
 *
 * The failure this prevents: a Bash command (`for i in $(seq 1 30); do echo $i >> slow.txt; sleep 1;
 * done`) went on appending after its driver was SIGKILLed. The `claude` child died with the driver
 * (agents/spawn-claude.ts), but the binary starts every Bash command and every hook command in a session
 * of its own (setsid: its own process group and session; the loop's `sleep` even got a group of its
 * own), so neither the child's death nor a signal to its group reached them. A `flower continue` a
 * second later named slow.txt to the model "as it is", the model wrote it anew, and the orphan's lines
 * landed after that: the run ended done with a corrupted file.
 *
 * How (Linux, no privileges, no native code):
 * - The tag is `FLOWER_DRIVER=<pid>-<start ticks>` of the driver process (its identity in the lease
 *   row, so a successor can name a dead owner's tag from the row alone). It is put into the environment
 *   of every process flower starts for a step (the `claude` child, goal checks, the notifier, a
 *   worktree's setup command; see withDriverTag in reaper.ts), and environments are inherited: the
 *   binary passes its own to the commands and hooks it starts, whatever group or session they are in,
 *   and they to theirs.
 * - The reaper (reaper.ts): one small process per driver, started in a session of its own (a kill of
 *   the driver's group does not reach it), reading a pipe only the driver holds. The kernel closes the
 *   pipe when the driver is gone, by exit, exception, SIGKILL or the OOM killer; the reaper then kills
 *   every process whose /proc/<pid>/environ carries the tag, again until a sweep finds none.
 * - A successor that takes over a dead driver's lease on the same machine sweeps the dead driver's tag
 *   first (records/lease.ts), so it starts no model request while anything of that driver can still
 *   write, even when the reaper was killed too (a `kill -9` of every process of the user).
 *
 * Why not the alternatives:
 * - Process groups and sessions: the binary puts each command in a session of its own; a command may
 *   make more. Neither the driver's group nor the child's reaches them.
 * - A child subreaper (PR_SET_CHILD_SUBREAPER) that ends its orphaned descendants: a prctl Node does
 *   not expose, so it needs a native addon or a helper binary in C, and it must be set in the driver
 *   (or a wrapper around it) before any child starts.
 * - PR_SET_PDEATHSIG (`setpriv --pdeathsig`, how the `claude` child dies): only for a process flower
 *   execs itself; the binary's commands are its grandchildren and beyond.
 * - A cgroup (kill every member at once, even a process that escaped with setsid and a clean
 *   environment): needs a delegated cgroup v2 subtree, which an unprivileged user has only under a
 *   systemd user session (`systemd-run --user --scope`), not in most containers or CI runners. On the
 *   machine this was built on, a VM whose only user is root: cgroup v1 (plus an empty v2 hierarchy), no
 *   systemd; only root may write there.
 * - Tracking the process tree while the driver lives: an orphan is re-parented to init the moment its
 *   parent dies, so a tree read after the driver's death no longer shows what was below it, and polling
 *   it before costs work all the time and misses what started after the last poll.
 *
 * The limits, said in docs/guarantees.md: a process that clears its environment (`env -i`), a daemon
 * that overwrites its own environ block (some servers' process titles do), or a process of another user
 * (sudo) carries no readable tag and is not found. macOS and Windows have no /proc: no tag, no reaper;
 * there, a takeover ends the dead driver's `claude` children's process groups, nothing else.
 */
import { processStartTicks } from "./start-ticks.js";

/** The environment variable that carries the tag. */
export const DRIVER_TAG_VARIABLE = "FLOWER_DRIVER";

/** The tag of the driver `identity` names; null without a start time (no /proc: nothing could sweep it). */
export function driverTag(identity: { pid: number; startTicks: number | null }): string | null {
  return identity.startTicks === null ? null : `${identity.pid}-${identity.startTicks}`;
}

let own: string | null | undefined;

/** This process's tag, as the processes it starts carry it. */
export function ownDriverTag(): string | null {
  if (own === undefined) own = driverTag({ pid: process.pid, startTicks: processStartTicks(process.pid) });
  return own;
}
