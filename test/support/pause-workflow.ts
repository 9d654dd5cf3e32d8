/**
 * The default workflow's three steps (requirements, which pauses; goal; work) played on the Runtime's
 * `_internal` scripted-query seam (no binary), with an edit of the frozen requirements file at the pause
 * or while a step runs. The scaffolding of the unit tests that judge a frozen document as the following
 * steps used it (test/unit/workflow/documents-at-end.test.ts, test/unit/cli/frozen-view.test.ts): one
 * copy, so the two cannot drift apart in how the run is made; what each asserts stays in its file.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { GOAL, REQUIREMENTS, Runtime, type AgentSpec } from "../../src/index.js";
import { documentAgent } from "../../src/workflow/document-agent.js";
import { defineWorkflow, type Workflow } from "../../src/workflow/workflow.js";
import { useTempDirs } from "./temp-dir.js";
import {
  init,
  response,
  result,
  scriptedQuery,
  type ScriptedQuery,
  type ScriptedSession,
} from "./scripted-query.js";

const GOAL_ANSWER = "## Goal\nThe test passes.\n\n## Checks\n- `true` exits 0\n";
export const EMPTY_ACCEPTANCE = "## Acceptance\n(empty)\n";
export const FILLED_ACCEPTANCE = "## Acceptance\n- `npm test` passes ten times in a row.\n";

/** Replaces `from`, which must be in the requirements file, by `to`. */
export type Edit = (from: string, to: string) => void;

/** A run set up by `withRun`: the Runtime, its script, and the requirements file of run "r1". */
export interface PauseRun {
  rt: Runtime;
  scripted: ScriptedQuery;
  runDir: string;
  file: string;
  edit: Edit;
}

export interface PauseWorkflowOptions {
  /** The work step's agent (no goal guard: no checks run in these tests). */
  work: AgentSpec;
  /** The prefix of each run's temporary directory (its workspace and run directory), removed after the test. */
  tempPrefix: string;
}

export interface PauseWorkflowRuns {
  /** The default workflow's steps, the requirements pausing, with the given work agent. */
  workflow: Workflow;
  /**
   * Runs `body` on a Runtime in a new workspace that plays `sessions` (a function of the edit, for a
   * session that edits the requirements file while its step runs); closes the Runtime after, then
   * fails if a scripted session was left over.
   */
  withRun: (
    sessions: ScriptedSession[] | ((edit: Edit) => ScriptedSession[]),
    body: (run: PauseRun) => Promise<void>,
  ) => Promise<void>;
}

/** Call at the top of a test file: it registers the hooks that remove each run's directory. */
export function usePauseWorkflow({ work, tempPrefix }: PauseWorkflowOptions): PauseWorkflowRuns {
  const temp = useTempDirs();
  const workflow = defineWorkflow([
    {
      name: "requirements",
      agent: (locale) => documentAgent(REQUIREMENTS, locale),
      freeze: REQUIREMENTS,
      pause: true,
    },
    { name: "goal", agent: (locale) => documentAgent(GOAL, locale), freeze: GOAL },
    { name: "work", agent: work },
  ]);

  const withRun: PauseWorkflowRuns["withRun"] = async (sessions, body) => {
    const root = temp.make(tempPrefix);
    const workspace = join(root, "workspace");
    const runDir = join(root, "runs");
    mkdirSync(workspace);
    const file = join(workspace, ".flower", "notes", "requirements-r1.md");
    const edit: Edit = (from, to) => {
      const text = readFileSync(file, "utf8");
      expect(text).toContain(from);
      writeFileSync(file, text.replace(from, to));
    };
    const scripted = scriptedQuery(typeof sessions === "function" ? sessions(edit) : sessions);
    const rt = new Runtime({ workspace, runDir, locale: "en", _internal: { query: scripted.query } });
    try {
      await body({ rt, scripted, runDir, file, edit });
    } finally {
      rt.close();
    }
    scripted.assertComplete();
  };

  return { workflow, withRun };
}

/** A session that answers `text` in one turn; `before` runs as it starts (an edit while the step runs). */
export const session =
  (id: string, text: string, before?: () => void): ScriptedSession =>
  () => {
    before?.();
    return [init(id), ...response(id, 5_000), result(id, { text })];
  };

/**
 * The three steps' sessions: the requirements step answers `requirements`, the goal step a goal with
 * one check, the work step "Done."; `whileGoalRuns` runs as the goal step's session starts.
 */
export function stepSessions(requirements: string, whileGoalRuns?: () => void): ScriptedSession[] {
  return [
    session("s-req", requirements),
    session("s-goal", GOAL_ANSWER, whileGoalRuns),
    session("s-work", "Done."),
  ];
}
