/**
 * The workflow `flower "<task>"` runs (SPEC W5): requirements (pauses after) → goal → the default team
 * at work. One definition for run, continue, runs and show, so they agree on its steps.
 */
import { defaultWorkflow } from "../workflow/default-workflow.js";
import type { Workflow } from "../workflow/workflow.js";
import { defaultTeam } from "./default-team.js";

export function cliWorkflow(options: { review?: boolean } = {}): Workflow {
  return defaultWorkflow({
    work: (locale) => defaultTeam(locale),
    ...(options.review ? { review: true } : {}),
  });
}
