/**
 * The workspace `flower demo` runs in: design notes to read, a package.json whose `npm test` the
 * coordinator is denied, and a small git history for the glance.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** How many design notes the workspace holds. */
export const NOTE_COUNT = 90;

/** The notes' topics, in turn; the summary table the engineer writes repeats them. */
export const TOPICS = [
  "cache eviction",
  "retry budget",
  "session store layout",
  "spill thresholds",
  "index refresh",
  "handoff sections",
  "glance commands",
  "denial pruning",
  "worker briefs",
  "manifest format",
  "cost accounting",
  "overflow detection",
];

export function noteName(n: number): string {
  return `docs/notes-${String(n).padStart(2, "0")}.md`;
}

/**
 * The demo workspace: design notes to read (each ~3.3k chars, under the 4000-char spill threshold, so
 * reading them grows the main thread's context), a package.json whose `npm test` the coordinator is
 * denied, a .gitignore, and a git repo with a few commits and one uncommitted change for the glance.
 * Returns whether git was available.
 */
export function prepareDemoWorkspace(workspace: string): boolean {
  mkdirSync(join(workspace, "docs"), { recursive: true });
  for (let n = 1; n <= NOTE_COUNT; n++) {
    const topic = TOPICS[(n - 1) % TOPICS.length]!;
    const lines = [`# Note ${n}: ${topic}`, ""];
    for (let p = 1; lines.join("\n").length < 3_200; p++) {
      lines.push(
        `${p}. On ${topic} (note ${n}, point ${p}): measured on run HT0${(n % 9) + 1}${p}, the main thread kept ` +
          `${(n * 37 + p * 11) % 900} chars per turn; decision stands unless the next measurement disagrees.`,
      );
    }
    writeFileSync(join(workspace, noteName(n)), `${lines.join("\n")}\n`);
  }
  writeFileSync(
    join(workspace, "package.json"),
    `${JSON.stringify({ name: "demo-notes", private: true, scripts: { test: "node -e \"console.log('ok')\"" } }, null, 2)}\n`,
  );
  writeFileSync(join(workspace, ".gitignore"), ".flower/\nruns/\n");
  writeFileSync(
    join(workspace, "README.md"),
    "# Design notes\n\nNotes from the runtime's design reviews, one topic each.\n",
  );
  try {
    const git = (...args: string[]) =>
      execFileSync(
        "git",
        [
          "-c",
          "user.name=flower demo",
          "-c",
          "user.email=demo@flower.invalid",
          "-c",
          "commit.gpgsign=false",
          ...args,
        ],
        {
          cwd: workspace,
          stdio: "ignore",
        },
      );
    git("init", "-q");
    git("add", "README.md", ".gitignore", "package.json");
    git("commit", "-q", "-m", "Start the design notes");
    git("add", "docs");
    git("commit", "-q", "-m", `Add ${NOTE_COUNT} design notes`);
    writeFileSync(
      join(workspace, "README.md"),
      "# Design notes\n\nNotes from the runtime's design reviews, one topic each.\nSummary: pending.\n",
    );
    return true;
  } catch {
    return false;
  }
}
