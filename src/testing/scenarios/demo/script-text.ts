/**
 * What the demo's coordinator and subagents say, in both display languages: the task, the briefs, the
 * reports, the two handoffs and the final answer. The handoffs mention the marker files, which is how
 * the policy tells the generations apart.
 */
import type { Locale } from "../../../locale/locale.js";
import { NOTE_COUNT, noteName } from "./fixture.js";

/** Markers the handoffs mention; the successor's first prompt contains them, which tells the generation. */
export const SUMMARY_FILE = ".flower/artifacts/notes-summary.md";
export const CHECK_SCRIPT = ".flower/scripts/check-summary.sh";

export interface DemoText {
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
  /** After the goal guard sent the coordinator back: it has the table completed through a subagent. */
  guardFixIntro: string;
  describe: { seq: string; summary: string; check: string; glance: string; test: string };
}

export const DEMO_TEXT: Record<Locale, DemoText> = {
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
    guardFixIntro: `flower's check counts the table's rows: it has fewer than the ${NOTE_COUNT} notes. Having the engineer complete it.`,
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
    guardFixIntro: `flower 的检查数了表格的行数:比 ${NOTE_COUNT} 份笔记少。让工程师把它补全。`,
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
  return DEMO_TEXT[locale].task;
}
