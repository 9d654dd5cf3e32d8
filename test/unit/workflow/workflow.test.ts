/**
 * The workflow's pure parts: validating a declared workflow, the default step prompt (documents verbatim
 * as on disk, a degraded one flagged, then the task), and the goal option the work step passes on.
 */
import { describe, expect, it } from "vitest";
import { GOAL } from "../../../src/documents/builtin/goal.js";
import { REQUIREMENTS } from "../../../src/documents/builtin/requirements.js";
import { parseDocument } from "../../../src/documents/read.js";
import { defaultWorkflow, goalOption } from "../../../src/workflow/default-workflow.js";
import { defaultStepPrompt } from "../../../src/workflow/step-prompt.js";
import { defineWorkflow, type StepInput, type WorkflowDocument } from "../../../src/workflow/workflow.js";
import type { AgentSpec } from "../../../src/agents/agent-spec.js";
import { defaultTeam } from "../../../src/agents/default-team.js";
import * as library from "../../../src/index.js";

const AGENT: AgentSpec = { name: "a", instructions: "x" };

function entry(step: string, spec: typeof GOAL, text: string): WorkflowDocument {
  return {
    step,
    kind: spec.kind,
    path: `/notes/${spec.kind}-r.md`,
    text,
    document: parseDocument(spec, text, "r"),
  };
}

const REQUIREMENTS_TEXT =
  "# Requirements confirmation: r\n\n## Task\nAdd a flag.\n\n## Acceptance\n- it works\n";
const GOAL_TEXT = "# Goal: r\n\n## Goal\nShip.\n\n## Checks\n- `npm test` exits 0\n";

/** The goal option the work step of run "r" passes on, given these frozen documents. */
function goalOf(...documents: WorkflowDocument[]): ReturnType<typeof goalOption> {
  return goalOption({ run: "r", task: "t", locale: "en", documents });
}

describe("defineWorkflow", () => {
  it.each([
    [[], /workflow steps: got an array of 0/],
    [[{ name: "a/b", agent: AGENT }], /workflow step name: got "a\/b"/],
    [
      [
        { name: "a", agent: AGENT },
        { name: "a", agent: AGENT },
      ],
      /expected a name used once/,
    ],
    [[{ name: "a" }], /workflow step a agent: got undefined/],
    [[{ name: "a", agent: AGENT, prompt: "text" }], /workflow step a prompt: got "text"/],
  ])("rejects %#", (steps, message) => {
    expect(() => defineWorkflow(steps as never)).toThrow(message);
  });

  it("the default workflow is requirements (pauses) → goal → work, the first two freezing their documents", () => {
    const workflow = defaultWorkflow({ work: AGENT });
    expect(workflow.steps.map((step) => [step.name, step.freeze?.kind ?? null, step.pause ?? false])).toEqual(
      [
        ["requirements", "requirements", true],
        ["goal", "goal", false],
        ["work", null, false],
      ],
    );
  });
});

describe("the CLI's workflow and team, exported (issue 23)", () => {
  it("defaultWorkflow() with no options works with defaultTeam in the run's language", () => {
    const work = library.defaultWorkflow().steps.find((step) => step.name === "work")!;
    expect(typeof work.agent).toBe("function");
    const agent = work.agent as (locale: "en" | "zh") => AgentSpec;
    for (const locale of ["en", "zh"] as const) expect(agent(locale)).toEqual(library.defaultTeam(locale));
    expect(library.defaultWorkflow({ review: true }).review).toBe(true);
  });

  it("defaultTeam is the coordinator `lead` with an engineer that changes things and an analyst that only looks", () => {
    const team = defaultTeam();
    expect(team.name).toBe("lead");
    expect(Object.keys(team.subagents ?? {})).toEqual(["engineer", "analyst"]);
    expect(team.subagents!.analyst!.tools).not.toContain("Edit");
    expect(team.subagents!.engineer!.tools).toContain("Edit");
  });

  it("refuses a language or a work agent it cannot use, naming the value", () => {
    expect(() => defaultTeam("fr" as never)).toThrow(/defaultTeam locale: got "fr"/);
    expect(() => library.defaultWorkflow({ work: 3 as never })).toThrow(/defaultWorkflow work: got 3/);
  });
});

describe("defaultStepPrompt", () => {
  it("the first step gets the task as typed", () => {
    const input: StepInput = { run: "r", task: "Add a flag.", locale: "en", documents: [] };
    expect(defaultStepPrompt(input)).toBe("The user's task, as typed:\n\nAdd a flag.");
  });

  it("a later step gets every frozen document verbatim under its path, a degraded one flagged, then the task", () => {
    const degradedGoal = "# Goal: r\n> [degraded: missing: checks]\n\n## Goal\nShip.\n";
    const prompt = defaultStepPrompt({
      run: "r",
      task: "Add a flag.",
      locale: "en",
      documents: [entry("requirements", REQUIREMENTS, REQUIREMENTS_TEXT), entry("goal", GOAL, degradedGoal)],
    });
    expect(prompt).toContain(`===== File /notes/requirements-r.md =====\n${REQUIREMENTS_TEXT.trimEnd()}`);
    expect(prompt).toContain("(Note: this document is degraded — missing: checks.");
    expect(prompt).toContain(degradedGoal.trimEnd());
    expect(prompt.endsWith("The user's task, as typed:\n\nAdd a flag.")).toBe(true);
    expect(prompt.indexOf("requirements-r.md")).toBeLessThan(prompt.indexOf("goal-r.md"));
  });
});

describe("a document filled in since it was frozen degraded, flower's degraded line left in the file", () => {
  // REQUIREMENTS_TEXT with the line flower wrote at the freeze, under its title.
  const filledIn =
    "# Requirements confirmation: r\n\n> [degraded: missing: acceptance]\n\n## Task\nAdd a flag.\n\n## Acceptance\n- it works\n";

  it("reaches the prompt without that line, and unflagged: it reads as complete", () => {
    const requirements = entry("requirements", REQUIREMENTS, filledIn);
    expect(requirements.document.degraded).toBeNull();
    const prompt = defaultStepPrompt({
      run: "r",
      task: "Add a flag.",
      locale: "en",
      documents: [requirements],
    });
    expect(prompt).not.toContain("[degraded:");
    expect(prompt).not.toContain("(Note: this document is degraded");
    expect(prompt).toContain(`===== File /notes/requirements-r.md =====\n${REQUIREMENTS_TEXT.trimEnd()}`);
    // The text read stays as the file is (a later edit is compared with it); only the prompt leaves it out.
    expect(requirements.text).toBe(filledIn);
  });

  it("reaches the goal guard's reviewer without that line too", () => {
    const option = goalOf(entry("requirements", REQUIREMENTS, filledIn), entry("goal", GOAL, GOAL_TEXT));
    expect(option.goal?.requirementsText).toBe(REQUIREMENTS_TEXT);
  });

  it("a document still degraded keeps the line (the note says why, as before)", () => {
    const still =
      "# Requirements confirmation: r\n\n> [degraded: missing: acceptance]\n\n## Task\nAdd a flag.\n";
    const prompt = defaultStepPrompt({
      run: "r",
      task: "Add a flag.",
      locale: "en",
      documents: [entry("requirements", REQUIREMENTS, still)],
    });
    expect(prompt).toContain(still.trimEnd());
    expect(prompt).toContain("(Note: this document is degraded — missing: acceptance.");
  });
});

describe("goalOption", () => {
  it("passes the frozen goal's checks and both documents' text to the work step", () => {
    const option = goalOf(
      entry("requirements", REQUIREMENTS, REQUIREMENTS_TEXT),
      entry("goal", GOAL, GOAL_TEXT),
    );
    expect(option).toEqual({
      goal: {
        checks: [{ command: "npm test", expect: { exitCode: 0 } }],
        goalText: GOAL_TEXT,
        requirementsText: REQUIREMENTS_TEXT,
      },
    });
  });

  it("gives no option when the goal has no runnable check, or there is no goal", () => {
    const vague = "# Goal: r\n\n## Goal\nShip.\n\n## Checks\n- looks fine\n";
    expect(goalOf(entry("goal", GOAL, vague))).toEqual({});
    expect(goalOf()).toEqual({});
  });
});
