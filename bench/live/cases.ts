/**
 * The live suite's cases (`npm run test:live`): what only a real model shows, each a small task in a
 * repository of its own, run through flower's Runtime under a budget of its own, and judged by what a
 * user would look at afterwards — the files, the step record, the handoff files. docs/live.md says what
 * each checks and why. The same cases run in `npm test` against the offline kit, whose scripted model
 * does these tasks as a real one would (test/e2e/live-suite.e2e.test.ts), so they cannot rot.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultTeam, HandoffPolicy, type AgentSpec, type Runtime } from "flower-agent";
import { type StepRecord } from "flower-agent/stores";
import type { Workspace } from "./workspace.js";

/** What a case is given: runtimes under its budget, workspaces, and a way to say what it found. */
export interface LiveContext {
  /** A small repository with these files, committed. */
  workspace(files: Readonly<Record<string, string>>): Workspace;
  /** A runtime on `workspace` with the suite's model and environment, under this case's budget. */
  runtime(workspace: Workspace, handoff?: HandoffPolicy): Runtime;
  /** The events of the runtimes this case made, in order (what the live view shows). */
  readonly events: ReadonlyArray<{ type: string; step?: string; [key: string]: unknown }>;
  /** Records a check: `ok` false fails the case with `what`. */
  check(ok: boolean, what: string): void;
  /** A line for the table (what was measured), shown whether or not the case passed. */
  note(text: string): void;
}

export interface LiveCase {
  name: string;
  /** What it checks, in one line (the table's and docs/live.md's words). */
  checks: string;
  /** Its budget in dollars: flower's own run budget, which stops it at a message boundary. */
  budgetUsd: number;
  run(context: LiveContext): Promise<void>;
}

/** A hands-on agent: no subagents, so its own context grows with what it reads. */
const HANDS_ON: AgentSpec = {
  name: "worker",
  instructions:
    "Do the task yourself with your tools, one tool call per reply, exactly as it says and nothing more.",
  tools: ["Read", "Write", "Bash"],
};

const read = (workspace: Workspace, path: string): string | null => {
  const file = join(workspace.dir, path);
  return existsSync(file) ? readFileSync(file, "utf8") : null;
};

/** The lines of a file, trimmed, blank ones dropped. */
const linesOf = (text: string | null): string[] =>
  (text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** The code words of the handoff case, one per file. */
export const CODE_WORDS = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron"];

function partFile(index: number): string {
  const lines: string[] = [];
  for (let line = 1; line <= 150; line++) {
    if (line === 40 + index * 9) lines.push(`CODE: ${CODE_WORDS[index]}`);
    lines.push(
      `part ${index + 1}, line ${line}: the survey logged the same quiet readings as the day before.`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const handoff: LiveCase = {
  name: "handoff",
  checks:
    "a handoff at a small window is written, not degraded, and the successor goes on without asking for background",
  budgetUsd: 0.6,
  async run(context) {
    const files: Record<string, string> = {};
    CODE_WORDS.forEach((_, index) => (files[`data/part-0${index + 1}.txt`] = partFile(index)));
    const workspace = context.workspace(files);
    // A 50k window with a 25k headroom: the line is at 25k, a few files after the start-up.
    const rt = context.runtime(workspace, new HandoffPolicy({ window: 50_000, headroom: 25_000 }));
    const step = await rt.run(
      "live-handoff",
      HANDS_ON,
      "Read data/part-01.txt through data/part-08.txt in order, one file per reply, with the Read tool. " +
        "Each holds one line that starts with 'CODE:'. When you have read all eight, write codes.txt " +
        "with the eight code words, one per line, in file order, and answer DONE.",
    );
    const record = rt.records.get("live-handoff")!;
    context.note(`${step.generations} generations, ${step.degraded} degraded`);
    context.check(step.generations >= 2, `handed off (${step.generations} generation(s))`);
    context.check(step.degraded === 0, `no handoff degraded (${step.degraded}: ${step.errors.join("; ")})`);
    for (const path of step.handoffs) {
      const text = existsSync(path) ? readFileSync(path, "utf8") : "";
      context.check(/## (Next step|next)/i.test(text), `the frozen handoff ${path} has its next step`);
    }
    // The successor carried on from the handoff: it did not stop to ask, and the codes read before
    // the handoff reached codes.txt through it.
    context.check(step.status === "done", `the step ended done (${step.status})`);
    context.check(
      linesOf(read(workspace, "codes.txt")).join(",") === CODE_WORDS.join(","),
      `codes.txt holds the eight codes in order (got ${JSON.stringify(read(workspace, "codes.txt"))})`,
    );
    const successor = record.history[1];
    context.check(
      successor !== undefined && (successor.turns?.length ?? 0) >= 2,
      "the successor went on working (more than one turn)",
    );
  },
};

const coordinator: LiveCase = {
  name: "coordinator",
  checks: "the coordinator delegates the work to a subagent instead of doing it itself",
  budgetUsd: 0.6,
  async run(context) {
    const numbers = Array.from({ length: 40 }, (_, index) => ((index * 37) % 101) + 3);
    const workspace = context.workspace({ "numbers.txt": `${numbers.join("\n")}\n` });
    const rt = context.runtime(workspace, new HandoffPolicy({ window: 200_000 }));
    const step = await rt.run(
      "live-coordinator",
      defaultTeam("en"),
      "Compute the sum of the numbers in numbers.txt (one per line) and write it, digits only, to sum.txt.",
    );
    const total = numbers.reduce((sum, value) => sum + value, 0);
    const mine = context.events.filter((event) => event.step === "live-coordinator");
    const delegations = mine.filter((event) => event.type === "agent" && event.phase === "start").length;
    const ownWrites = mine.filter(
      (event) =>
        event.type === "tool-use" &&
        event.agent === "coordinator" &&
        ["Write", "Edit", "NotebookEdit"].includes(String(event.tool)),
    ).length;
    context.note(`${delegations} delegation(s), ${step.denials} denied`);
    context.check(step.status === "done", `the step ended done (${step.status})`);
    context.check(read(workspace, "sum.txt")?.trim() === String(total), `sum.txt holds ${total}`);
    context.check(delegations >= 1, "the coordinator sent at least one subagent");
    // The delegate guard turns a coordinator's own edit away: any it tried was denied, none went through.
    context.check(ownWrites <= step.denials, `no edit of the coordinator's own went through (${ownWrites})`);
  },
};

const goal: LiveCase = {
  name: "goal",
  checks: "a goal's checks, which flower runs itself, decide when the step is done",
  budgetUsd: 0.5,
  async run(context) {
    const test = [
      'const { add } = require("./calc.js");',
      "if (add(2, 3) !== 5) throw new Error(`add(2, 3) is ${add(2, 3)}, expected 5`);",
      "if (add(-1, 1) !== 0) throw new Error(`add(-1, 1) is ${add(-1, 1)}, expected 0`);",
      'console.log("ok");',
      "",
    ].join("\n");
    const workspace = context.workspace({
      "calc.js": "exports.add = (a, b) => a - b;\n",
      "test.js": test,
      "package.json": '{ "name": "calc", "version": "1.0.0", "private": true }\n',
    });
    const rt = context.runtime(workspace);
    const step = await rt.run("live-goal", HANDS_ON, "Make `node test.js` pass. Do not change test.js.", {
      goal: { checks: [{ command: "node test.js" }], guardRounds: 2 },
    });
    const runs = rt.records.get("live-goal")!.guard?.checkRuns ?? [];
    context.note(
      `${runs.length} check run(s), last ${runs.at(-1)?.results.every((r) => r.passed) ? "passed" : "failed"}`,
    );
    context.check(step.status === "done", `the step ended done (${step.status})`);
    context.check(runs.length >= 1, "flower ran the goal's check itself");
    context.check(runs.at(-1)?.results.every((result) => result.passed) === true, "its last run passed");
    context.check(read(workspace, "test.js") === test, "test.js is as it was");
    let passes = true;
    try {
      execFileSync(process.execPath, ["test.js"], { cwd: workspace.dir, stdio: "ignore" });
    } catch {
      passes = false;
    }
    context.check(passes, "node test.js passes now");
  },
};

const rewind: LiveCase = {
  name: "rewind",
  checks: "a rewind by turn and a continue take another path: the files and the conversation go back",
  budgetUsd: 0.4,
  async run(context) {
    const workspace = context.workspace({ "README.md": "# A small repository\n" });
    const rt = context.runtime(workspace);
    const first = await rt.run(
      "live-rewind",
      HANDS_ON,
      "Do exactly this, one tool call per reply: first run `ls` with Bash; then write result.txt " +
        "containing the single word ALPHA. Then answer DONE.",
    );
    context.check(first.status === "done", `the first run ended done (${first.status})`);
    context.check(read(workspace, "result.txt")?.trim() === "ALPHA", "the first path wrote ALPHA");
    // The turn that wrote result.txt: the rewind goes back to the end of the turn before it.
    const writing = turnOf(context, "live-rewind", (event) => String(event.summary).includes("result.txt"));
    context.check(
      writing !== null && writing >= 2,
      `result.txt was written after the first turn (turn ${writing})`,
    );
    if (writing === null || writing < 2) return;
    await rt.rewind("live-rewind", { generation: 1, turn: writing - 1 });
    context.check(read(workspace, "result.txt") === null, "the rewind took result.txt back");
    const second = await rt.continue("live-rewind", HANDS_ON, {
      prompt: "Change of plan: write result.txt containing the single word BETA instead. Then answer DONE.",
    });
    const record: StepRecord = rt.records.get("live-rewind")!;
    context.note(
      `rewound to turn ${writing - 1}, then ${read(workspace, "result.txt")?.trim() ?? "nothing"}`,
    );
    context.check(second.status === "done", `the continue ended done (${second.status})`);
    context.check(read(workspace, "result.txt")?.trim() === "BETA", "the other path wrote BETA");
    context.check(record.resumeAt === undefined, "the continue resumed from the rewound turn");
  },
};

const say: LiveCase = {
  name: "say",
  checks: "flower say reaches the running session, and the model does what it was told",
  budgetUsd: 0.4,
  async run(context) {
    const files: Record<string, string> = {};
    for (let item = 1; item <= 6; item++) files[`data/item-${item}.txt`] = `Item ${item}: a note.\n`;
    const workspace = context.workspace(files);
    const rt = context.runtime(workspace);
    const running = rt.run(
      "live-say",
      HANDS_ON,
      "Read data/item-1.txt through data/item-6.txt in order, one file per reply. Then write " +
        "summary.txt with their first lines, and answer DONE.",
    );
    // Said once the session is at work: it reaches the main thread at its next boundary.
    await until(() => context.events.some((event) => event.step === "live-say" && event.type === "context"));
    const said = await rt.say(
      "live-say",
      "Also create heard.txt containing the single word HEARD, then go on with the task.",
    );
    context.check(said.kind === "said", `the message was taken (${said.kind})`);
    const step = await running;
    const record = rt.records.get("live-say")!;
    context.note(`${record.personMessages?.length ?? 0} message(s) given`);
    context.check(step.status === "done", `the step ended done (${step.status})`);
    context.check((record.personMessages?.length ?? 0) === 1, "the record has the message, once");
    context.check(
      read(workspace, "heard.txt")?.trim() === "HEARD",
      "heard.txt holds HEARD: the message was heeded",
    );
    context.check(read(workspace, "summary.txt") !== null, "the task went on (summary.txt)");
  },
};

/** The turn (1-based, of the step's first generation) in which a main-thread tool call matched. */
function turnOf(
  context: LiveContext,
  step: string,
  matches: (event: { [key: string]: unknown }) => boolean,
): number | null {
  let turns = 0;
  for (const event of context.events) {
    if (event.step !== step) continue;
    // A tool call is streamed before the end of its response, which the context event marks.
    if (event.type === "tool-use" && event.agent === "coordinator" && matches(event)) return turns + 1;
    if (event.type === "context") turns += 1;
  }
  return null;
}

async function until(condition: () => boolean, ms = 300_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the session's first turn");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const LIVE_CASES: readonly LiveCase[] = [handoff, coordinator, goal, rewind, say];
