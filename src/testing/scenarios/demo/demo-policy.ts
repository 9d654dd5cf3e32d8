/**
 * The model policy of `flower demo`: a long-horizon task played by the offline model kit against the real
 * Claude Code binary, so a fresh machine sees every mechanism once, live, with no key. The run is the
 * default workflow: the requirements step (a look at the README, then the document; the demo edits one
 * line of it at the pause), the goal step (a look at package.json, then the goal, quoting the edited
 * line as its prompt carried it), then the work step:
 *
 *   generation 1  glance (git status) → a denied `npm test` → delegation (analyst: `seq 1 20000`, spilled)
 *                 → reads design notes in parallel batches until the handoff line → handoff 1
 *   generation 2  delegation (engineer writes the summary table) → more notes → handoff 2
 *   generation 3  delegation (engineer saves and runs a check script) → final answer, claiming success
 *   goal guard    flower runs the goal's checks: the table lacks rows → sent back (guard round 1) →
 *                 delegation (engineer completes the table) → final answer → the checks pass
 *
 * The policy answers from the request alone (which generation, how many results of which tool), never
 * from hidden state, so a retried or resumed request gets the same answer. Generations are told apart
 * by file names the previous handoff mentions.
 */
import { join } from "node:path";
import { HandoffPolicy } from "../../../handoff/policy.js";
import type { Locale } from "../../../locale/locale.js";
import type { ModelRequest } from "../../model-request.js";
import { text, toolUse, toolUses, type Reply } from "../../replies.js";
import { DEMO_DOCUMENTS_TEXT } from "./documents-text.js";
import { NOTE_COUNT, noteName, TOPICS } from "./fixture.js";
import { CHECK_SCRIPT, DEMO_TEXT, SUMMARY_FILE } from "./script-text.js";

/** The demo's run id: its steps are `demo/requirements`, `demo/goal` and `demo/work`. */
export const DEMO_RUN = "demo";

/** The step name when the work step runs alone (scripts/report-screenshot.mjs). */
export const DEMO_STEP = "demo";

/**
 * A small window so the demo hands off twice in a minute: the line is at 35k tokens (warning at 15k).
 * The kit's coordinator starts at ~8k (its tool list is shorter than the real API's ~34k floor).
 */
export function demoHandoffPolicy(): HandoffPolicy {
  return new HandoffPolicy({ window: 60_000, headroom: 25_000 });
}

/** The fake model refuses requests above this, like the real API at its window. */
export const DEMO_CONTEXT_WINDOW = 60_000;

/** The start of the goal guard's message (en, zh): the coordinator was sent back. */
const GUARD_MARKERS = ["[flower goal guard]", "[flower 目标守门]"];

/** How many notes the coordinator reads per turn (in parallel). */
const BATCH = 8;

export interface DemoScriptOptions {
  workspace: string;
  locale: Locale;
  /** Without git the glance is `ls`. */
  git: boolean;
}

/** The fake model's policy for the demo. */
export function demoPolicy(options: DemoScriptOptions): (request: ModelRequest) => Reply | undefined {
  const { workspace, locale, git } = options;
  const t = DEMO_TEXT[locale];
  const abs = (path: string) => join(workspace, path);

  const generationOf = (request: ModelRequest): 1 | 2 | 3 => {
    const first = request.firstUserText();
    if (first.includes(CHECK_SCRIPT)) return 3;
    if (first.includes(SUMMARY_FILE) && first.includes("notes-01.md")) return 2;
    return 1;
  };
  /** How far the previous generations got: the handoff says "notes 1–N". */
  const notesRead = (request: ModelRequest): number =>
    Number(/1–(\d+)/.exec(request.firstUserText())?.[1] ?? "0");
  /**
   * The highest note this session has really read: results that hold the note's text. Reads cut off by
   * the handoff interrupt come back as an "interrupted" note and do not count.
   */
  const readsDone = (request: ModelRequest): number => {
    let max = 0;
    for (const result of request.toolResults()) {
      if (result.name !== "Read") continue;
      const match = /# Note (\d+):/.exec(result.text);
      if (match) max = Math.max(max, Number(match[1]));
    }
    return max;
  };
  /** Read batches from `from` on; when the notes run out the coordinator moves on (the demo never loops). */
  const readBatch = (from: number): Reply | undefined => {
    if (from > NOTE_COUNT) return undefined;
    const to = Math.min(NOTE_COUNT, from + BATCH - 1);
    const calls = [];
    for (let n = from; n <= to; n++) calls.push({ name: "Read", input: { file_path: abs(noteName(n)) } });
    return toolUses(calls, t.readIntro(from, to));
  };
  const agent = (subagent: string, description: string, prompt: string) =>
    toolUse("Agent", { description, prompt, subagent_type: subagent });

  const subagent = (request: ModelRequest): Reply => {
    const brief = request.firstUserText();
    const last = request.lastToolResult();
    if (brief.includes("seq 1 20000")) {
      if (request.countToolResults("Bash") === 0)
        return toolUse("Bash", { command: "seq 1 20000", description: "Print 1..20000" });
      const path = /(\/\S*\.flower\/spill\/[^\s,;)\]]+)/.exec(last?.text ?? "")?.[1] ?? ".flower/spill/";
      return text(t.seqReport("20000", path));
    }
    if (brief.includes(CHECK_SCRIPT)) {
      if (request.countToolResults("Write") === 0) {
        return toolUse("Write", {
          file_path: abs(CHECK_SCRIPT),
          content: `#!/bin/sh\n# Counts the rows of the notes summary table (one per note).\nset -e\nrows=$(grep -c '^| [0-9]' ${SUMMARY_FILE})\necho "rows: $rows"\n`,
        });
      }
      if (request.countToolResults("Bash") === 0) {
        return toolUse("Bash", {
          command: `sh ${CHECK_SCRIPT} && npm test --silent`,
          description: "Run the check and the tests",
        });
      }
      return text(t.checkReport(last?.text ?? ""));
    }
    if (brief.includes(SUMMARY_FILE)) {
      const upTo = Number(/1–(\d+)/.exec(brief)?.[1] ?? "0");
      if (request.countToolResults("Write") === 0) {
        const rows = ["| note | topic |", "| --- | --- |"];
        for (let n = 1; n <= upTo; n++) rows.push(`| ${n} | ${TOPICS[(n - 1) % TOPICS.length]} |`);
        return toolUse("Write", {
          file_path: abs(SUMMARY_FILE),
          content: `# Design notes: summary\n\n${rows.join("\n")}\n`,
        });
      }
      return text(t.summaryReport(upTo));
    }
    return text("Nothing to do for this brief.");
  };

  /** The two document steps: a look at the workspace (they may only look), then the document. */
  const documentStep = (request: ModelRequest): Reply => {
    const d = DEMO_DOCUMENTS_TEXT[locale];
    const goal = request.documentKind === "goal";
    if (request.countToolResults("Read") === 0) {
      const file = abs(goal ? "package.json" : "README.md");
      return toolUse("Read", { file_path: file }, { text: goal ? d.goalIntro : d.requirementsIntro });
    }
    if (!goal) return text(d.requirements);
    // The goal step quotes the table line of the requirements file as its prompt carries it: the file
    // as it was on disk when the step started, the demo's edit included.
    const tableLine =
      request
        .firstUserText()
        .split("\n")
        .map((line) => line.trim())
        .find((line) => line.startsWith(d.tableLinePrefix)) ?? d.editedLine.before;
    return text(d.goal(tableLine));
  };

  return (request) => {
    if (request.kind === "title" || request.kind === "compact") return undefined;
    if (request.isSubagent) return subagent(request);
    if (request.documentKind !== undefined) return documentStep(request);
    const generation = generationOf(request);
    if (request.isHandoffTurn)
      return text(t.handoff(generation === 1 ? 1 : 2, readsDone(request) || notesRead(request)));
    const agents = request.countToolResults("Agent");
    if (generation === 1) {
      const bash = request.countToolResults("Bash");
      if (bash === 0) {
        const command = git ? 'git status -s && echo "--- LOG ---" && git log --oneline -3' : "ls";
        return toolUse("Bash", { command, description: t.describe.glance }, { text: t.glanceIntro });
      }
      if (bash === 1)
        return toolUse("Bash", { command: "npm test", description: t.describe.test }, { text: t.testIntro });
      if (agents === 0) return agent("analyst", t.describe.seq, t.seqBrief(workspace));
      return (
        readBatch(readsDone(request) + 1) ??
        agent("engineer", t.describe.summary, t.summaryBrief(workspace, readsDone(request)))
      );
    }
    if (generation === 2) {
      const from = notesRead(request);
      if (agents === 0) return agent("engineer", t.describe.summary, t.summaryBrief(workspace, from));
      const next = readBatch(Math.max(readsDone(request), from) + 1);
      if (next) return next;
      return text(t.final(NOTE_COUNT, "-"));
    }
    if (agents === 0) return agent("engineer", t.describe.check, t.checkBrief(workspace));
    // The Agent results may carry the CLI's metadata tags around the subagent's report.
    const report = request
      .toolResults()
      .flatMap((result) => (result.name === "Agent" ? result.text.split("\n") : []))
      .map((line) => line.trim())
      .find((line) => line.startsWith(t.checkMarker));
    // The goal guard: flower ran the goal's checks and sent this session back (the table lacks rows).
    if (GUARD_MARKERS.some((marker) => request.allText().includes(marker))) {
      if (agents === 1) {
        const brief = t.summaryBrief(workspace, NOTE_COUNT);
        return toolUse(
          "Agent",
          { description: t.describe.summary, prompt: brief, subagent_type: "engineer" },
          { text: t.guardFixIntro },
        );
      }
      return text(t.final(NOTE_COUNT, report ?? ""));
    }
    return text(t.final(notesRead(request), report ?? ""));
  };
}
