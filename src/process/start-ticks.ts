/** When a process started, from /proc: with its pid, what tells it apart from a later process given the same pid. */
import { readFileSync } from "node:fs";

/** Field 22 of /proc/<pid>/stat. The name (field 2) may contain spaces and parentheses: parse after its last ")". */
export function processStartTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state), so field 22 is fields[19].
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}
