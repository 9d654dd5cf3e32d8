/** The `claude` processes this test process started and that are still alive: for leak checks and crash tests. */
import { execFileSync } from "node:child_process";

export function claudeChildren(): number[] {
  return execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, command]) => Number(ppid) === process.pid && (command ?? "").endsWith("/claude"))
    .map(([pid]) => Number(pid));
}
