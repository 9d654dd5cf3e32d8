/** The `claude` processes this test process started and that are still alive: for leak checks and crash tests. */
import { execFileSync } from "node:child_process";

interface ProcessRow {
  pid: number;
  ppid: number;
  isClaude: boolean;
}

function processes(): ProcessRow[] {
  return execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid]) => pid !== undefined && pid !== "")
    .map(([pid, ppid, command]) => ({
      pid: Number(pid),
      ppid: Number(ppid),
      isClaude: (command ?? "").endsWith("/claude"),
    }));
}

/** `claude` processes whose parent is this process (the SDK's children). */
export function claudeChildren(): number[] {
  return processes()
    .filter((row) => row.ppid === process.pid && row.isClaude)
    .map((row) => row.pid);
}

/** `claude` processes anywhere below this process: its own, and those of a CLI or script it ran. */
export function claudeDescendants(): number[] {
  const rows = processes();
  const below = new Set<number>([process.pid]);
  // Rows are not in tree order, so widen the set until it stops growing.
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (below.has(row.ppid) && !below.has(row.pid)) {
        below.add(row.pid);
        grew = true;
      }
    }
  }
  return rows
    .filter((row) => row.isClaude && row.pid !== process.pid && below.has(row.pid))
    .map((row) => row.pid);
}
