/**
 * Starts the `claude` child in its own process group. A terminal's Ctrl-C goes to the whole foreground
 * group: without this the child died with the signal before the runtime could stop it at a message
 * boundary, and the interrupted session's turns and cost were never reported. The runtime owns the
 * stop; the child still ends when its stdin closes, so a crashed parent does not leave it running.
 */
import { spawn } from "node:child_process";
import type { SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";

export function spawnClaudeInOwnGroup(options: SpawnOptions): SpawnedProcess {
  return spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    signal: options.signal,
    stdio: ["pipe", "pipe", "ignore"],
    detached: true,
  });
}
