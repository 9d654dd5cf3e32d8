/**
 * The scripted model's answers for the default workflow's document steps, shared by the CLI workflow
 * tests: a requirements document with one assumption line to trace, and a goal that quotes that line
 * as its own prompt carried it (so a test sees which version of the frozen file the goal step was given).
 */
import type { ModelRequest } from "../../../src/testing/index.js";

/** The line the requirements answer assumes; a test edits it on disk or looks for it downstream. */
export const ASSUMPTION = "- The flaky test is test/clock.test.js.";

/** The requirements document; without acceptance it is missing a required section (degraded). */
export function requirementsAnswer(withAcceptance = true): string {
  return [
    "## Task",
    "Make the flaky test pass reliably.",
    "",
    "## In scope",
    "- The flaky test and the code it tests.",
    "",
    "## Out of scope",
    "- Other tests.",
    "",
    ...(withAcceptance ? ["## Acceptance", "- `npm test` passes ten times in a row.", ""] : []),
    "## Assumptions",
    ASSUMPTION,
    "",
    "## Open questions",
    "- May the test's timeout be raised?",
  ].join("\n");
}

/** The goal document, quoting the assumption line as the goal step's prompt carries it. */
export function goalAnswer(request: ModelRequest): string {
  const line = request
    .firstUserText()
    .split("\n")
    .find((candidate) => candidate.startsWith("- The flaky test is"));
  return goalDocument("The flaky test passes every time.", ["true"], {
    constraint: `From the requirements: ${line?.replace(/^- /, "") ?? "(not found)"}`,
  });
}

/** The drift tests' goal: one check (`fixed.txt` exists) that a note-writing model never makes pass. */
export const FIXED_FILE_GOAL = goalDocument("The bug is fixed.", ["test -f fixed.txt"]);

/** A goal document as a goal step answers it: the goal, checks that each exit 0, one constraint, no non-goal. */
export function goalDocument(goal: string, checks: string[], { constraint = "(none)" } = {}): string {
  return [
    "## Goal",
    goal,
    "",
    "## Checks",
    ...checks.map((check) => `- \`${check}\` exits 0`),
    "",
    "## Constraints",
    `- ${constraint}`,
    "",
    "## Non-goals",
    "- (empty)",
  ].join("\n");
}

export const isGoalStep = (request: ModelRequest) => request.documentKind === "goal";
export const isDocumentStep = (request: ModelRequest) => request.documentKind !== undefined;
