/**
 * What the end of a workflow run says about its frozen documents: degraded or not as the following
 * steps used them, not as they were frozen. Through the library's workflow on the Runtime's `_internal`
 * seam (no binary): a degraded requirements document filled in at the pause is reported as filled in; one
 * filled in only after the goal step began with it (so not used) and one a person broke at the pause are
 * reported degraded, with the reason of the text used. The record keeps the freeze's word.
 */
import { readFileSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { continueWorkflow, coordinator, runWorkflow, subagent } from "../../../src/index.js";
import { runRecords } from "../../../src/public/stores.js";
import { documentsAtEnd } from "../../../src/workflow/documents-at-end.js";
import { requirementsAnswer } from "../../e2e/cli/workflow-answers.js";
import {
  EMPTY_ACCEPTANCE,
  FILLED_ACCEPTANCE,
  stepSessions,
  usePauseWorkflow,
} from "../../support/pause-workflow.js";

/** The default workflow's steps; the work step without the goal guard (no checks to run here). */
const { workflow, withRun } = usePauseWorkflow({
  work: coordinator("lead", "Goal: fix the test.", { fixer: subagent("Fixes.", "Fix it.") }),
  tempPrefix: "flower-documents-at-end-",
});

describe("the end of a workflow run judges each frozen document as the following steps used it", () => {
  it("degraded at freeze, filled in at the pause: filled in, not degraded; the record keeps the freeze's word", async () => {
    await withRun(stepSessions(requirementsAnswer(false)), async ({ rt, scripted, file, edit }) => {
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
    });
  });

  it("filled in only after the goal step began with it: the text used is degraded, and the end says so", async () => {
    await withRun(
      (edit) =>
        // The goal step read the degraded file; the fill arrives while it runs, too late for it.
        stepSessions(requirementsAnswer(false), () => edit(EMPTY_ACCEPTANCE, FILLED_ACCEPTANCE)),
      async ({ rt }) => {
        const done = await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1", pauseAfter: false });
        expect(done.status).toBe("done");
        expect(done.degraded.map(({ name, why }) => ({ name, why }))).toEqual([
          { name: "requirements", why: "missing: acceptance" },
        ]);
        expect(done.filledIn).toEqual([]);
      },
    );
  });

  it("complete at freeze, its acceptance replaced by TBD at the pause: degraded, with the reason of the file as read", async () => {
    await withRun(stepSessions(requirementsAnswer(true)), async ({ rt, edit }) => {
      const paused = await runWorkflow(rt, workflow, "Fix the flaky test.", { run: "r1" });
      expect(paused.degraded).toEqual([]);
      edit("- `npm test` passes ten times in a row.", "TBD");
      const done = await continueWorkflow(rt, workflow, "r1");
      expect(done.degraded.map(({ name, why }) => ({ name, why }))).toEqual([
        { name: "requirements", why: "missing: acceptance" },
      ]);
      expect(done.filledIn).toEqual([]);
      expect(rt.records.get("r1/requirements")!.frozen).toMatchObject({ degraded: false, why: null });
    });
  });
});
