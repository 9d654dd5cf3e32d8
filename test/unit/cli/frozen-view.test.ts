/**
 * `flower show`, `flower report` and `flower serve` (the report's page) judge a frozen document as the
 * following steps used it, as the end of the run does (workflow/documents-at-end.ts), not by the record's
 * `frozen.degraded` alone: a degraded document a person filled in at the pause is "degraded at freeze,
 * filled in since", one made incomplete at the pause is degraded. And a change after the freeze is said
 * as it is then: still to be read by the next step, read by the step that began with it, or read by
 * nobody once the run is done. Through the commands in process, on runs the library's workflow made on
 * the Runtime's `_internal` seam (no binary).
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { continueWorkflow, REQUIREMENTS, runWorkflow } from "../../../src/index.js";
import { parseCommandLine } from "../../../src/cli/command-line/args.js";
import { reportInput, wantedRecords } from "../../../src/cli/record-views/report-contents.js";
import { showCommand } from "../../../src/cli/commands/show.js";
import { openStepSource } from "../../../src/cli/record-views/step-source.js";
import type { Locale } from "../../../src/locale/locale.js";
import { documentAgent } from "../../../src/workflow/document-agent.js";
import { defineWorkflow, type Workflow } from "../../../src/workflow/workflow.js";
import { requirementsAnswer } from "../../e2e/cli/workflow-answers.js";
import {
  EMPTY_ACCEPTANCE,
  FILLED_ACCEPTANCE,
  session,
  stepSessions,
  usePauseWorkflow,
} from "../../support/pause-workflow.js";

beforeEach(() => {
  // The run directory only: a FLOWER_STORE of the machine running the tests must not be opened.
  vi.stubEnv("FLOWER_STORE", "");
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const FILLED_IN = "degraded at freeze (missing: acceptance), filled in since";
const NEXT_READS = "(the next step reads it as it is now)";

/** The default workflow's steps; the work step a plain agent (no goal guard: no checks run here). */
const { workflow, withRun } = usePauseWorkflow({
  work: { name: "lead", instructions: "Fix the test." },
  tempPrefix: "flower-frozen-view-",
});

/** What `flower show <name>` prints, run in this process. */
async function show(runDir: string, name: string, locale: Locale = "en"): Promise<string> {
  const parsed = parseCommandLine(["show", name, "--run-dir", runDir, "--lang", locale], {});
  if ("help" in parsed) throw new Error("parsed as help");
  const written: string[] = [];
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    expect(await showCommand(parsed)).toBe(0);
  } finally {
    write.mockRestore();
  }
  return written.join("");
}

/** The header line of the requirements document in `flower show`'s output. */
function requirementsHeader(stdout: string, locale: Locale = "en"): string {
  const prefix = locale === "en" ? "frozen Requirements confirmation" : "冻结的需求确认书";
  const header = stdout.split("\n").find((line) => line.startsWith(prefix));
  expect(header, stdout).toBeDefined();
  return header!;
}

/** The requirements document's notes on the report's page (`flower report`, and `flower serve`'s). */
async function reportNotes(runDir: string, run: string, locale: Locale = "en"): Promise<string[]> {
  const source = await openStepSource({ "run-dir": runDir }, locale);
  try {
    const input = reportInput(wantedRecords(source, [run], locale), source, locale, runDir);
    const document = input.run?.documents.find((entry) => entry.step === "requirements");
    expect(document).toBeDefined();
    return document!.notes;
  } finally {
    await source.close();
  }
}

describe("flower show and flower report judge a frozen document as the following steps used it", () => {
  it("degraded at freeze, filled in at the pause (its degraded line left in): filled in, never DEGRADED; the change is said as it is at the pause and once the goal step read it", async () => {
    await withRun(stepSessions(requirementsAnswer(false)), async ({ rt, runDir, file, edit }) => {
      expect((await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1" })).status).toBe("paused");
      // The step line counts its one turn in the singular.
      expect(await show(runDir, "r1")).toMatch(
        / {2}1 {2}requirements {2}done · \$[\d.]+ · 1 turn · generations 1\n/,
      );
      // Before the edit: degraded as it stands, as the record says.
      expect(requirementsHeader(await show(runDir, "r1"))).toBe(
        `frozen Requirements confirmation  ${file} · DEGRADED (missing: acceptance)`,
      );

      edit(EMPTY_ACCEPTANCE, FILLED_ACCEPTANCE);
      expect(readFileSync(file, "utf8")).toContain("> [degraded: missing: acceptance]\n");
      // At the pause the goal step has not begun: it will read the file as it is now.
      const paused = requirementsHeader(await show(runDir, "r1"));
      expect(paused).toBe(
        `frozen Requirements confirmation  ${file} · ${FILLED_IN} · changed on disk after it was frozen ${NEXT_READS}`,
      );
      expect(await reportNotes(runDir, "r1")).toEqual([
        FILLED_IN,
        `changed on disk after it was frozen ${NEXT_READS}`,
      ]);

      expect((await continueWorkflow(rt, workflow, "r1")).status).toBe("done");
      // The run is done and the goal step read the filled-in file: nothing is still to be read.
      const expected = `frozen Requirements confirmation  ${file} · ${FILLED_IN} · changed on disk after it was frozen, before the goal step began (it read it as it is now)`;
      const done = requirementsHeader(await show(runDir, "r1"));
      expect(done).toBe(expected);
      expect(done).not.toContain("DEGRADED");
      expect(done).not.toContain(NEXT_READS);
      // `flower show <run>/<step>` says the same of the step's document.
      expect(requirementsHeader(await show(runDir, "r1/requirements"))).toBe(expected);
      expect(await reportNotes(runDir, "r1")).toEqual([
        FILLED_IN,
        "changed on disk after it was frozen, before the goal step began (it read it as it is now)",
      ]);
      // The zh text table says the same.
      const zh = requirementsHeader(await show(runDir, "r1", "zh"), "zh");
      expect(zh).toContain(" · 冻结时是降级件(missing: acceptance),之后已补全 · ");
      expect(zh).toContain("冻结后、「goal」这一步开始前在磁盘上改过(它读的就是现在的样子)");
      expect(zh).not.toContain("下一步读的是现在的样子");
      expect(await reportNotes(runDir, "r1", "zh")).toEqual([
        "冻结时是降级件(missing: acceptance),之后已补全",
        "冻结后、「goal」这一步开始前在磁盘上改过(它读的就是现在的样子)",
      ]);
      // The record keeps the freeze's word.
      expect(rt.records.get("r1/requirements")!.frozen).toMatchObject({ degraded: true });
    });
  });

  it("filled in only after the goal step began with it: degraded as used, and the change not used", async () => {
    await withRun(
      (edit) => stepSessions(requirementsAnswer(false), () => edit(EMPTY_ACCEPTANCE, FILLED_ACCEPTANCE)),
      async ({ rt, runDir, file }) => {
        await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1", pauseAfter: false });
        expect(requirementsHeader(await show(runDir, "r1"))).toBe(
          `frozen Requirements confirmation  ${file} · DEGRADED (missing: acceptance) · ! changed on disk after the goal step began — not used`,
        );
      },
    );
  });

  it("complete at freeze, its acceptance replaced by TBD at the pause: DEGRADED, though the record says it was frozen complete", async () => {
    await withRun(stepSessions(requirementsAnswer(true)), async ({ rt, runDir, file, edit }) => {
      await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1" });
      edit("- `npm test` passes ten times in a row.", "TBD");
      await continueWorkflow(rt, workflow, "r1");
      expect(rt.records.get("r1/requirements")!.frozen).toMatchObject({ degraded: false });
      expect(requirementsHeader(await show(runDir, "r1"))).toBe(
        `frozen Requirements confirmation  ${file} · DEGRADED (missing: acceptance) · changed on disk after it was frozen, before the goal step began (it read it as it is now)`,
      );
      expect((await reportNotes(runDir, "r1"))[0]).toBe("DEGRADED (missing: acceptance)");
    });
  });

  it("a run that is done and that no step read the document of: a change is read by nobody, and says so", async () => {
    // One step that freezes the requirements and ends the run: no later step reads the file.
    const alone: Workflow = defineWorkflow([
      { name: "spec", agent: (locale) => documentAgent(REQUIREMENTS, locale), freeze: REQUIREMENTS },
    ]);
    await withRun([session("s-spec", requirementsAnswer(true))], async ({ rt, runDir, file, edit }) => {
      expect((await runWorkflow(rt, alone, "Fix the flaky test.", { run: "r1" })).status).toBe("done");
      edit("- `npm test` passes ten times in a row.", "- `npm test` passes twenty times in a row.");
      const header = requirementsHeader(await show(runDir, "r1"));
      expect(header).toBe(
        `frozen Requirements confirmation  ${file} · changed on disk after it was frozen (the run is finished: no step reads it any more)`,
      );
      expect(header).not.toContain(NEXT_READS);
    });
  });
});

describe("flower report shows each frozen document as the steps read it", () => {
  /** The requirements document's sections on the report's page. */
  async function reportSections(runDir: string, run: string) {
    const source = await openStepSource({ "run-dir": runDir }, "en");
    try {
      const input = reportInput(wantedRecords(source, [run], "en"), source, "en", runDir);
      return input.run!.documents.find((entry) => entry.step === "requirements")!.sections;
    } finally {
      await source.close();
    }
  }

  it("a person's edit at the pause, which the goal step read: the edited text, its section marked", async () => {
    await withRun(stepSessions(requirementsAnswer(true)), async ({ rt, runDir, edit }) => {
      await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1" });
      edit("- `npm test` passes ten times in a row.", "- `npm test` passes twenty times in a row.");
      await continueWorkflow(rt, workflow, "r1");
      const sections = await reportSections(runDir, "r1");
      const acceptance = sections.find((section) => section.label === "Acceptance");
      expect(acceptance).toMatchObject({ changed: true });
      expect(acceptance!.text).toContain("twenty times");
      expect(acceptance!.text).not.toContain("ten times");
      expect(sections.filter((section) => section.changed)).toHaveLength(1);
    });
  });

  it("an edit after the goal step began, not used: the text the goal step read, nothing marked", async () => {
    await withRun(
      (edit) =>
        stepSessions(requirementsAnswer(true), () =>
          edit("- `npm test` passes ten times in a row.", "- `npm test` passes twenty times in a row."),
        ),
      async ({ rt, runDir }) => {
        await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1", pauseAfter: false });
        const sections = await reportSections(runDir, "r1");
        expect(sections.find((section) => section.label === "Acceptance")!.text).toContain("ten times");
        expect(sections.filter((section) => section.changed)).toEqual([]);
      },
    );
  });
});
