/**
 * What the end of a workflow run says about its frozen documents: degraded or not as the following
 * steps used them, not as they were frozen. Through the library's workflow on the Runtime's `_internal`
 * seam (no binary): a degraded requirements document filled in at the pause is reported as filled in; one
 * filled in only after the goal step began with it (so not used) and one a person broke at the pause are
 * reported degraded, with the reason of the text used. The record keeps the freeze's word.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  continueWorkflow,
  coordinator,
  GOAL,
  REQUIREMENTS,
  Runtime,
  runRecords,
  runWorkflow,
  worker,
} from "../../../src/index.js";
import { documentAgent } from "../../../src/workflow/document-agent.js";
import { documentsAtEnd } from "../../../src/workflow/documents-at-end.js";
import { defineWorkflow } from "../../../src/workflow/workflow.js";
import { init, response, result, scriptedQuery, type ScriptedSession } from "../../support/scripted-query.js";
import { requirementsAnswer } from "../../e2e/cli/workflow-answers.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const GOAL_ANSWER = "## Goal\nThe test passes.\n\n## Checks\n- `true` exits 0\n";
const EMPTY_ACCEPTANCE = "## Acceptance\n(empty)\n";
const FILLED_ACCEPTANCE = "## Acceptance\n- `npm test` passes ten times in a row.\n";

const lead = coordinator("lead", "Goal: fix the test.", { fixer: worker("Fixes.", "Fix it.") });
/** The default workflow's steps; the work step without the goal guard (no checks to run here). */
const workflow = defineWorkflow([
  {
    name: "requirements",
    agent: (locale) => documentAgent(REQUIREMENTS, locale),
    freeze: REQUIREMENTS,
    pause: true,
  },
  { name: "goal", agent: (locale) => documentAgent(GOAL, locale), freeze: GOAL },
  { name: "work", agent: lead },
]);

const session =
  (id: string, text: string, before?: () => void): ScriptedSession =>
  () => {
    before?.();
    return [init(id), ...response(id, 5_000), result(id, { text })];
  };

function setUp(sessions: ScriptedSession[]) {
  const root = mkdtempSync(join(tmpdir(), "flower-documents-at-end-"));
  dirs.push(root);
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  const scripted = scriptedQuery(sessions);
  const rt = new Runtime({
    workspace,
    runDir: join(root, "runs"),
    locale: "en",
    _internal: { query: scripted.query },
  });
  const file = join(workspace, ".flower", "notes", "requirements-r1.md");
  const edit = (from: string, to: string) => {
    const text = readFileSync(file, "utf8");
    expect(text).toContain(from);
    writeFileSync(file, text.replace(from, to));
  };
  return { rt, scripted, file, edit };
}

describe("the end of a workflow run judges each frozen document as the following steps used it", () => {
  it("degraded at freeze, filled in at the pause: filled in, not degraded; the record keeps the freeze's word", async () => {
    const { rt, scripted, file, edit } = setUp([
      session("s-req", requirementsAnswer(false)),
      session("s-goal", GOAL_ANSWER),
      session("s-work", "Done."),
    ]);
    try {
      const paused = await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1" });
      expect(paused.status).toBe("paused");
      const degraded = { name: "requirements", kind: "requirements", path: file, why: "missing: acceptance" };
      expect(paused.degraded).toEqual([degraded]);
      expect(paused.filledIn).toEqual([]);

      // The degraded line under the title stays: flower's own note, not what decides.
      edit(EMPTY_ACCEPTANCE, FILLED_ACCEPTANCE);
      const done = await continueWorkflow(rt, workflow, "r1");
      // The goal step was handed the complete document, not one labelled degraded by that stale line.
      expect(readFileSync(file, "utf8")).toContain("> [degraded: missing: acceptance]");
      const goalPrompt = scripted.calls[1]!.prompt;
      expect(goalPrompt).toContain(FILLED_ACCEPTANCE.trimEnd());
      expect(goalPrompt).not.toContain("[degraded:");
      expect(done.status).toBe("done");
      expect(done.degraded).toEqual([]);
      expect(done.filledIn).toEqual([degraded]);
      expect(rt.records.get("r1/requirements")!.frozen).toMatchObject({
        degraded: true,
        why: "missing: acceptance",
      });

      // Deleted once every step has read it: the text the goal step began with still decides.
      rmSync(file);
      expect(documentsAtEnd(workflow, runRecords(rt, "r1"), "r1", rt.options.workspace)).toEqual({
        degraded: [],
        filledIn: [degraded],
      });
    } finally {
      rt.close();
    }
    scripted.assertComplete();
  });

  it("filled in only after the goal step began with it: the text used is degraded, and the end says so", async () => {
    const { rt, scripted, edit } = setUp([
      session("s-req", requirementsAnswer(false)),
      // The goal step read the degraded file; the fill arrives while it runs, too late for it.
      session("s-goal", GOAL_ANSWER, () => edit(EMPTY_ACCEPTANCE, FILLED_ACCEPTANCE)),
      session("s-work", "Done."),
    ]);
    try {
      const done = await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1", pauseAfter: false });
      expect(done.status).toBe("done");
      expect(done.degraded.map(({ name, why }) => ({ name, why }))).toEqual([
        { name: "requirements", why: "missing: acceptance" },
      ]);
      expect(done.filledIn).toEqual([]);
    } finally {
      rt.close();
    }
    scripted.assertComplete();
  });

  it("complete at freeze, its acceptance replaced by TBD at the pause: degraded, with the reason of the file as read", async () => {
    const { rt, scripted, edit } = setUp([
      session("s-req", requirementsAnswer(true)),
      session("s-goal", GOAL_ANSWER),
      session("s-work", "Done."),
    ]);
    try {
      const paused = await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1" });
      expect(paused.degraded).toEqual([]);
      edit("- `npm test` passes ten times in a row.", "TBD");
      const done = await continueWorkflow(rt, workflow, "r1");
      expect(done.degraded.map(({ name, why }) => ({ name, why }))).toEqual([
        { name: "requirements", why: "missing: acceptance" },
      ]);
      expect(done.filledIn).toEqual([]);
      expect(rt.records.get("r1/requirements")!.frozen).toMatchObject({ degraded: false, why: null });
    } finally {
      rt.close();
    }
    scripted.assertComplete();
  });
});
