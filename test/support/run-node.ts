/** Runs a child process without blocking the test's event loop (the fake model lives there). */
import { spawn } from "node:child_process";

export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * `command args` with its output collected. It leads its own process group (detached), so a timeout
 * kills its children too (the `claude` processes a CLI started); the timeout rejects, naming `label`.
 */
export function runProcess(
  command: string,
  args: string[],
  options: RunOptions,
  label = `${command} ${args.join(" ")}`,
): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      reject(new Error(`${label} timed out after ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A node script, with the node running the tests. */
export function runNode(args: string[], options: RunOptions): Promise<NodeRun> {
  return runProcess(process.execPath, args, options, `node ${args.join(" ")}`);
}
