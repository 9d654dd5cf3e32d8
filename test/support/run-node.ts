/** Runs a node script as a child process without blocking the test's event loop (the fake model lives there). */
import { spawn } from "node:child_process";

export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runNode(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    // detached: the child leads its own process group, so a timeout kills its `claude` children too.
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      reject(new Error(`node ${args.join(" ")} timed out; stderr: ${stderr.slice(-2000)}`));
    }, options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
