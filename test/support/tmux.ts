/**
 * A real terminal for a test: a tmux server of the test's own (its own socket, so no person's tmux is
 * touched), one window of a set size running a command, and what the screen shows now
 * (`capture-pane`), as a person would see it: escape codes applied, redrawn lines overwritten.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Terminal {
  /** The screen's lines now, trailing blanks dropped. */
  screen(): string[];
  /** Ends the server, and with it whatever still runs in the window. */
  kill(): void;
}

let servers = 0;

/** Whether tmux is installed (the pseudo-terminal tests need it). */
export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `command` (a shell line) in `cwd` with exactly `env` on a terminal of `columns` x `rows`; the
 * window stays open after it ends, with `[exit N]` under its last line. `scratch`: a directory for the
 * script that starts it.
 */
export function openTerminal(options: {
  command: string;
  cwd: string;
  env: Record<string, string>;
  scratch: string;
  columns?: number;
  rows?: number;
}): Terminal {
  const socket = `flower-test-${process.pid}-${++servers}`;
  const script = join(options.scratch, `terminal-${servers}.sh`);
  const exports = Object.entries(options.env)
    .map(([key, value]) => `export ${key}=${shellWord(value)}`)
    .join("\n");
  writeFileSync(
    script,
    `${exports}\ncd ${shellWord(options.cwd)}\n${options.command}\necho "[exit $?]"\nexec sleep 3600\n`,
  );
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", TERM: "xterm-256color", HOME: options.env.HOME ?? "/tmp" },
    });
  tmux(
    "new-session",
    "-d",
    "-x",
    String(options.columns ?? 100),
    "-y",
    String(options.rows ?? 30),
    `env -i sh ${shellWord(script)}`,
  );
  return {
    screen: () =>
      tmux("capture-pane", "-p", "-t", "0")
        .split("\n")
        .map((line) => line.trimEnd())
        .join("\n")
        .trimEnd()
        .split("\n"),
    kill: () => {
      try {
        tmux("kill-server");
      } catch {
        // Already gone.
      }
    },
  };
}

function shellWord(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
