/**
 * A workflow step's first prompt when the step declares none: the documents the run froze so far, as
 * their files are on disk now (so a person's edit is what the step reads), then the task as typed. The
 * previous step's conversation is never part of it: the documents are the only thing that crosses.
 */
import { withoutDegradedLine } from "../documents/read.js";
import { WORKFLOW_TEXT } from "./workflow-text.js";
import type { StepInput, WorkflowDocument } from "./workflow.js";

/**
 * The documents block alone: each file's text under its path (promptText: verbatim, less a stale
 * degraded line); "" when there are none.
 */
export function documentsBlock(input: StepInput): string {
  if (input.documents.length === 0) return "";
  const text = WORKFLOW_TEXT[input.locale];
  const files = input.documents.map((entry) => {
    const parts = [text.file(entry.path)];
    if (entry.document.degraded) parts.push(text.degraded(entry.document.degraded));
    parts.push(promptText(entry).trimEnd());
    return parts.join("\n");
  });
  return [text.documents, ...files].join("\n\n");
}

/**
 * A document's text as a prompt carries it: the text used, verbatim, except that flower's own
 * `> [degraded: …]` line is left out once the document reads as complete. A person who fills in the
 * missing section often leaves that line in the file; the model would otherwise be handed a complete
 * document labelled degraded. The file is not touched, and `entry.text` stays the text read (it is what
 * a later edit is compared with).
 */
export function promptText(entry: WorkflowDocument): string {
  if (entry.document.degraded) return entry.text;
  return withoutDegradedLine(entry.document.spec, entry.text, entry.document.run);
}

/** The default prompt: the documents (if any), then the task as typed. */
export function defaultStepPrompt(input: StepInput): string {
  const text = WORKFLOW_TEXT[input.locale];
  const task = `${text.task}\n\n${input.task}`;
  const documents = documentsBlock(input);
  return documents === "" ? task : `${documents}\n\n${task}`;
}

/** The work step's prompt: the documents, the task, and the instruction to carry it out. */
export function workStepPrompt(input: StepInput): string {
  return `${defaultStepPrompt(input)}\n\n${WORKFLOW_TEXT[input.locale].work}`;
}
