/**
 * A runtime that has joined its store: connected (an unreachable server is one line, before any step
 * starts) and holding every step's record from a shared store, so names and `continue` see the whole
 * fleet. Shared by the live commands (live/live-settings.ts) and the commands on a run's work
 * (work-commands/work-runtime.ts). The runtime is closed when joining fails: nothing is left open.
 */
import type { Runtime } from "../runtime/runtime.js";

export async function joinStore(rt: Runtime): Promise<void> {
  try {
    await rt.ready();
    await rt.records.pull?.();
  } catch (error) {
    rt.close();
    throw error;
  }
}
