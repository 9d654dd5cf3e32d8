/**
 * The script of `flower demo`: a long-horizon task played by the offline model kit against the real
 * Claude Code binary, so a fresh machine sees every mechanism once, live, with no key:
 *
 *   generation 1  glance (git status) → a denied `npm test` → delegation (analyst: `seq 1 20000`, spilled)
 *                 → reads design notes in parallel batches until the handoff line → handoff 1
 *   generation 2  delegation (engineer writes the summary table) → more notes → handoff 2
 *   generation 3  delegation (engineer saves and runs a check script) → final answer
 *
 * The policy answers from the request alone (which generation, how many results of which tool), never
 * from hidden state, so a retried or resumed request gets the same answer. Generations are told apart
 * by file names the previous handoff mentions.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HandoffPolicy } from "../handoff/policy.js";
import type { Locale } from "../locale/locale.js";
import type { ModelRequest } from "../testing/model-request.js";
import { text, toolUse, toolUses, type Reply } from "../testing/replies.js";

/** The demo's step name. */
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

/** How many design notes the workspace holds, and how many the coordinator reads per turn (in parallel). */
export const NOTE_COUNT = 90;
const BATCH = 8;

/** Markers the handoffs mention; the successor's first prompt contains them, which tells the generation. */
const SUMMARY_FILE = ".flower/artifacts/notes-summary.md";
const CHECK_SCRIPT = ".flower/scripts/check-summary.sh";

const TOPICS = [
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

interface DemoText {
  task: string;
  glanceIntro: string;
  testIntro: string;
  seqBrief: (workspace: string) => string;
  seqReport: (lines: string, path: string) => string;
  readIntro: (from: number, to: number) => string;
  summaryBrief: (workspace: string, upTo: number) => string;
  summaryReport: (rows: number) => string;
  checkBrief: (workspace: string) => string;
  checkReport: (output: string) => string;
  handoff: (generation: 1 | 2, read: number) => string;
  final: (read: number, check: string) => string;
  /** The start of the check report, to find it inside the Agent result. */
  checkMarker: string;
  describe: { seq: string; summary: string; check: string; glance: string; test: string };
}

const TEXT: Record<Locale, DemoText> = {
  en: {
    task:
      `Survey the ${NOTE_COUNT} design notes in docs/ and have a summary table of them written to the workbench ` +
      `(${SUMMARY_FILE}), then have it checked. The repo's \`npm test\` must pass too.`,
    glanceIntro: "First a glance at the repository state.",
    testIntro: "Let me run the tests directly.",
    seqBrief: (workspace) =>
      `Goal: confirm the numbering range the notes may use. Run \`seq 1 20000\` and report how many lines it prints and whether there are gaps.\n` +
      `Workbench: ${workspace}/.flower. Long output goes to ${workspace}/.flower/artifacts/; reply with the path and your conclusion only.`,
    seqReport: (lines, path) => `20000 lines (1 … ${lines}), no gaps. The full output is at ${path}.`,
    readIntro: (from, to) => `Reading notes ${from}–${to}.`,
    summaryBrief: (workspace, upTo) =>
      `Goal: write ${workspace}/${SUMMARY_FILE}: a markdown table, one row per note 1–${upTo} (number, topic).\n` +
      `Acceptance: the table has ${upTo} rows.\nWorkbench: ${workspace}/.flower. Long output goes to ${workspace}/.flower/artifacts/; reply with the path and your conclusion only.`,
    summaryReport: (rows) => `Wrote ${SUMMARY_FILE}: ${rows} rows, one per note.`,
    checkBrief: (workspace) =>
      `Goal: save a check script at ${workspace}/${CHECK_SCRIPT} that counts the table rows of ${SUMMARY_FILE}, run it, and run \`npm test\`.\n` +
      `Workbench: ${workspace}/.flower. Long output goes to ${workspace}/.flower/artifacts/; reply with the path and your conclusion only.`,
    checkReport: (output) =>
      `Check passed. ${output.trim().replace(/\s*\n\s*/g, "; ")}. Script saved at ${CHECK_SCRIPT}.`,
    handoff: (generation, read) =>
      generation === 1
        ? [
            "## What I am doing",
            `Surveying the design notes: notes 1–${read} are read (docs/notes-01.md … ${noteName(read)}), ${NOTE_COUNT - read} to go. No summary written yet.`,
            "",
            "## Already decided",
            "- The summary table goes to the workbench, not into docs/: the notes are the team's, the table is our working artifact.",
            "- Notes are read in numeric order in batches of 8, because later notes refer back to earlier decisions.",
            "",
            "## Dead ends",
            "- Running `npm test` on the coordinator: denied by the delegate guard (cost one turn). Tests go to the engineer.",
            "- Asking the analyst to paste the full `seq 1 20000` output: it was spilled to disk; only the count matters.",
            "",
            "## Next step",
            `Have the engineer write ${SUMMARY_FILE} for notes 1–${read}, then keep reading from ${noteName(read + 1)}.`,
            "",
            "## Scene",
            `- \`docs/\` — the ${NOTE_COUNT} notes`,
            "- `.flower/spill/` — the spilled `seq` output",
          ].join("\n")
        : [
            "## What I am doing",
            `Finishing the survey: notes 1–${read} are read; the summary table covers the first part and is in the workbench.`,
            "",
            "## Already decided",
            `- The table lives at ${SUMMARY_FILE}; one row per note, number and topic only (contents stay in docs/).`,
            "- Checking is a saved script, so the next generation can re-run it instead of re-deriving it.",
            "",
            "## Dead ends",
            "- `npm test` on the coordinator is denied; it must go through a worker (measured: one wasted turn in generation 1).",
            "",
            "## Next step",
            `Have the engineer save ${CHECK_SCRIPT}, run it and \`npm test\`, then report to the user.`,
            "",
            "## Scene",
            `- \`${SUMMARY_FILE}\` — the summary table`,
            "- `docs/` — the notes",
          ].join("\n"),
    checkMarker: "Check passed",
    describe: {
      seq: "Check the numbering range",
      summary: "Write the summary table",
      check: "Save and run the check",
      glance: "Glance at the repo",
      test: "Run the tests",
    },
    final: (read, check) =>
      `Done. I read ${read} of the ${NOTE_COUNT} design notes across three sessions (two handoffs), had the summary table written to ${SUMMARY_FILE} and checked: ${check}`,
  },
  zh: {
    task: `把 docs/ 里的 ${NOTE_COUNT} 份设计笔记过一遍,让人在工作台写一张汇总表(${SUMMARY_FILE}),再让人核对一遍。仓库的 \`npm test\` 也要通过。`,
    glanceIntro: "先看一眼仓库状态。",
    testIntro: "我直接跑一下测试。",
    seqBrief: (workspace) =>
      `目标:确认笔记编号可用的范围。跑 \`seq 1 20000\`,汇报输出多少行、有没有断号。\n` +
      `工作台:${workspace}/.flower。长输出写到 ${workspace}/.flower/artifacts/,回复只给路径和结论。`,
    seqReport: (lines, path) => `共 20000 行(1 … ${lines}),没有断号。全文在 ${path}。`,
    readIntro: (from, to) => `读笔记 ${from}–${to}。`,
    summaryBrief: (workspace, upTo) =>
      `目标:写 ${workspace}/${SUMMARY_FILE}:markdown 表格,笔记 1–${upTo} 每份一行(编号、主题)。\n` +
      `验收:表格有 ${upTo} 行。\n工作台:${workspace}/.flower。长输出写到 ${workspace}/.flower/artifacts/,回复只给路径和结论。`,
    summaryReport: (rows) => `已写 ${SUMMARY_FILE}:${rows} 行,每份笔记一行。`,
    checkBrief: (workspace) =>
      `目标:在 ${workspace}/${CHECK_SCRIPT} 存一个数 ${SUMMARY_FILE} 表格行数的核对脚本,跑它,再跑 \`npm test\`。\n` +
      `工作台:${workspace}/.flower。长输出写到 ${workspace}/.flower/artifacts/,回复只给路径和结论。`,
    checkReport: (output) =>
      `核对通过。${output.trim().replace(/\s*\n\s*/g, "; ")}。脚本存在 ${CHECK_SCRIPT}。`,
    handoff: (generation, read) =>
      generation === 1
        ? [
            "## 现在在做什么",
            `在过设计笔记:1–${read} 已读(docs/notes-01.md … ${noteName(read)}),还剩 ${NOTE_COUNT - read} 份。汇总表还没写。`,
            "",
            "## 已经定下的",
            "- 汇总表放工作台,不放 docs/ —— 笔记是团队的,表是我们的工作产物。",
            "- 按编号顺序每批读 8 份,因为后面的笔记会引用前面的决定。",
            "",
            "## 走不通的路",
            "- 协调者自己跑 `npm test`:被委派守卫拒绝(花了一轮)。测试派给工程师。",
            "- 让分析员贴 `seq 1 20000` 的全文:已落盘,只需要行数。",
            "",
            "## 下一步",
            `让工程师为笔记 1–${read} 写 ${SUMMARY_FILE},然后从 ${noteName(read + 1)} 接着读。`,
            "",
            "## 现场",
            `- \`docs/\` —— ${NOTE_COUNT} 份笔记`,
            "- `.flower/spill/` —— 落盘的 `seq` 输出",
          ].join("\n")
        : [
            "## 现在在做什么",
            `收尾:笔记 1–${read} 已读;汇总表覆盖了前一部分,在工作台里。`,
            "",
            "## 已经定下的",
            `- 表在 ${SUMMARY_FILE};每份笔记一行,只写编号和主题(内容留在 docs/)。`,
            "- 核对用存下来的脚本,下一代可以直接重跑,不用重新推一遍。",
            "",
            "## 走不通的路",
            "- 协调者跑 `npm test` 会被拒绝;必须经执行者(实测:第 1 代白花一轮)。",
            "",
            "## 下一步",
            `让工程师存 ${CHECK_SCRIPT},跑它和 \`npm test\`,然后向用户汇报。`,
            "",
            "## 现场",
            `- \`${SUMMARY_FILE}\` —— 汇总表`,
            "- `docs/` —— 笔记",
          ].join("\n"),
    checkMarker: "核对通过",
    describe: {
      seq: "核对编号范围",
      summary: "写汇总表",
      check: "存核对脚本并运行",
      glance: "看一眼仓库",
      test: "跑测试",
    },
    final: (read, check) =>
      `完成。三个会话(换代两次)里读了 ${NOTE_COUNT} 份设计笔记中的 ${read} 份,汇总表写在 ${SUMMARY_FILE} 并已核对:${check}`,
  },
};

export function demoTask(locale: Locale): string {
  return TEXT[locale].task;
}

export interface DemoScriptOptions {
  workspace: string;
  locale: Locale;
  /** Without git the glance is `ls`. */
  git: boolean;
}

/** The fake model's policy for the demo. */
export function demoPolicy(options: DemoScriptOptions): (request: ModelRequest) => Reply | undefined {
  const { workspace, locale, git } = options;
  const t = TEXT[locale];
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

  const worker = (request: ModelRequest): Reply => {
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

  return (request) => {
    if (request.kind === "title" || request.kind === "compact") return undefined;
    if (request.isSubagent) return worker(request);
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
    // The Agent result may carry the CLI's metadata tags around the worker's report.
    const report = (request.lastToolResult()?.text ?? "")
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line.startsWith(t.checkMarker));
    return text(t.final(notesRead(request), report ?? ""));
  };
}
