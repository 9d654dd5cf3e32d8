/**
 * `flower-agent/documents`: for an integrator who declares document kinds, reads or writes frozen
 * documents and handoffs outside a run, or builds a step's prompt — parsing (both languages), quality,
 * freezing, the built-in kinds, the handoff's sections and prompt, the goal's checks. A workflow needs only
 * `defineDocument`, `REQUIREMENTS` and `GOAL`, which the root has (src/index.ts).
 */
export { requiredKeys } from "../documents/spec.js";
export { ParsedDocument, documentTitle } from "../documents/document.js";
export type { ParsedDocumentInit, DocumentSummaryLine } from "../documents/document.js";
export { parseDocument } from "../documents/read.js";
export { assessDocument } from "../documents/quality.js";
export type { DocumentAssessment } from "../documents/quality.js";
export { produceDocument } from "../documents/produce.js";
export type { ProducedDocument, ProduceDocumentOptions } from "../documents/produce.js";
export { documentPath, freezeDocument, readFrozenDocument } from "../documents/freeze.js";
export type { FreezeDocumentOptions, ReadDocument } from "../documents/freeze.js";
export type { FrozenFile } from "../documents/freeze-file.js";
export { documentInstructions, documentRequest } from "../documents/instructions.js";
export { BUILT_IN_DOCUMENTS } from "../documents/builtin/index.js";
export { goalChecks } from "../documents/builtin/goal.js";
export { parseGoalChecks } from "../goal/goal-document.js";

export { Handoff } from "../handoff/handoff-document.js";
export { parseHandoff } from "../handoff/read-handoff.js";
export { assessHandoff } from "../handoff/handoff-quality.js";
export { HANDOFF_SECTIONS, REQUIRED } from "../handoff-sections.js";
export type { HandoffSectionName } from "../handoff-sections.js";
export { HANDOFF_PROMPT, handoffPrompt } from "../handoff/prompt.js";

export { defaultStepPrompt, documentsBlock, workStepPrompt } from "../workflow/step-prompt.js";
