/**
 * The economy workload: N sub-tasks, each three real commands over generated files whose outputs are
 * 5k–20k characters, then a summary. One scripted model drives all three modes, so the work and the
 * reports are identical and only the harness differs:
 *
 * - plain: the main thread runs each sub-task's three commands itself (one turn, three parallel calls);
 * - subagents / flower: the main thread sends one worker per sub-task (the Agent tool); the worker runs
 *   the three commands in one turn and answers with the same ~300-character report in both modes.
 *
 * Progress is read from the request itself (never from a counter in the policy), so a retried request,
 * a compaction or a handoff continues where the conversation really is: the highest sub-task named in
 * a tool call so far, or a `SUBTASKS_DONE=<n>` marker written into a compaction summary or a handoff.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelRequest, Reply } from "flower-agent/testing";
import { text, toolUse, toolUses } from "flower-agent/testing";

export type Mode = "plain" | "subagents" | "flower";

const FILES = ["a", "b", "c"] as const;

function pad(subtask: number): string {
  return String(subtask).padStart(3, "0");
}

/** Deterministic sizes (mulberry32), so every run and every mode sees the same bytes. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes data/tNNN/{a,b,c}.log: log-like lines, 5,000–18,500 characters per file. */
export function writeData(workspace: string, subtasks: number): number {
  let total = 0;
  for (let subtask = 1; subtask <= subtasks; subtask++) {
    const dir = join(workspace, "data", `t${pad(subtask)}`);
    mkdirSync(dir, { recursive: true });
    FILES.forEach((file, index) => {
      const next = random(subtask * 3 + index);
      const target = 5000 + Math.floor(next() * 13_500);
      const lines: string[] = [];
      let size = 0;
      for (let line = 0; size < target; line++) {
        const value = `2026-11-30T10:${pad(line % 60).slice(1)}:00Z t${pad(subtask)} ${file} worker=${Math.floor(next() * 8)} status=${next() < 0.9 ? "ok" : "retry"} latency_ms=${Math.floor(next() * 900)} path=/srv/app/module-${Math.floor(next() * 40)}/file-${line}.ts`;
        lines.push(value);
        size += value.length + 1;
      }
      const body = `${lines.join("\n")}\n`;
      total += body.length;
      writeFileSync(join(dir, `${file}.log`), body);
    });
  }
  return total;
}

/** The three commands of one sub-task; `sort` and `nl` change the bytes, so nothing is a plain copy. */
export function commandsFor(subtask: number): string[] {
  const dir = `data/t${pad(subtask)}`;
  return [`cat ${dir}/a.log`, `sort -k4 ${dir}/b.log`, `nl -ba ${dir}/c.log`];
}

export function taskPrompt(subtasks: number): string {
  return [
    `Process sub-tasks 1 to ${subtasks} in order. Sub-task n has three log files in data/tNNN/ (a.log, b.log, c.log):`,
    "show a.log, sort b.log by its fourth field, number the lines of c.log, and note what you see.",
    "When all are done, write a short summary.",
  ].join(" ");
}

export function briefFor(subtask: number): string {
  return `Sub-task ${subtask}: run these three commands and report what you see: ${commandsFor(subtask).join("; ")}`;
}

export function reportFor(subtask: number): string {
  return [
    `Sub-task ${subtask} done: ran the three commands over data/t${pad(subtask)}/.`,
    "a.log is in time order; b.log sorted by its fourth field shows retries clustered on two workers;",
    "c.log numbered without gaps. No errors; nothing needs a follow-up.",
  ].join(" ");
}

const MARKER = /SUBTASKS_DONE=(\d+)/g;
const NAMED = /(?:data\/t(\d{3})\/|Sub-task (\d+):)/;

/** The highest sub-task this conversation has finished (a finished tool call or a marker). */
export function subtasksDone(request: ModelRequest): number {
  let done = 0;
  for (const match of request.allText().matchAll(MARKER)) done = Math.max(done, Number(match[1]));
  // Only calls that came back: a handoff stops the session at a message boundary, and a call cut there
  // (an error or interrupted result) was not done.
  for (const result of request.toolResults()) {
    if (result.isError || /interrupted/i.test(result.text.slice(0, 200))) continue;
    const input = result.input ?? {};
    const named = [input.command, input.prompt].find((value) => typeof value === "string");
    const match = typeof named === "string" ? NAMED.exec(named) : null;
    if (match) done = Math.max(done, Number(match[1] ?? match[2]));
  }
  return done;
}

export function handoffAnswer(done: number, subtasks: number): string {
  return [
    "## What I am doing",
    `Sending one worker per sub-task, in order. SUBTASKS_DONE=${done} of ${subtasks}.`,
    "",
    "## Decided",
    "- One worker per sub-task; its report is enough, the raw output stays in the spill files.",
    "",
    "## Dead ends",
    "- None so far.",
    "",
    "## Next",
    `- Send a worker for sub-task ${done + 1}, then continue in order up to ${subtasks}; then summarise.`,
    "",
    "## Scene",
    "- `data/` — the inputs, one folder per sub-task",
  ].join("\n");
}

export function summaryAnswer(subtasks: number): string {
  return `All ${subtasks} sub-tasks are done. Every log was read; retries cluster on two workers; no follow-ups needed.`;
}

/** The scripted model for one mode. */
export function economyPolicy(mode: Mode, subtasks: number): (request: ModelRequest) => Reply | undefined {
  return (request) => {
    if (request.kind === "title") return undefined;
    if (request.kind === "compact") {
      const done = subtasksDone(request);
      return text(`<summary>Working through the sub-tasks in order. SUBTASKS_DONE=${done}.</summary>`);
    }
    if (request.isSubagent) {
      const match = /Sub-task (\d+):/.exec(request.firstUserText());
      if (!match) return text("I was given no sub-task.");
      const subtask = Number(match[1]);
      return request.countToolResults("Bash") === 0
        ? toolUses(commandsFor(subtask).map((command) => ({ name: "Bash", input: { command } })))
        : text(reportFor(subtask));
    }
    const done = subtasksDone(request);
    if (request.isHandoffTurn) return text(handoffAnswer(done, subtasks));
    const next = done + 1;
    if (next > subtasks) return text(summaryAnswer(subtasks));
    if (mode === "plain")
      return toolUses(commandsFor(next).map((command) => ({ name: "Bash", input: { command } })));
    return toolUse("Agent", {
      description: `sub-task ${next}`,
      prompt: briefFor(next),
      subagent_type: "worker",
      // The model asks to wait for the report (Agent calls default to the background); flower's
      // foreground hook would force the same, so the script is identical in both modes.
      run_in_background: false,
    });
  };
}
