/**
 * The end of a step that declared a document (`freeze`): its final answer goes through the document
 * machinery (parse, quality check, atomic freeze with archive, degraded path), and what happened is
 * returned as the record's `frozen` entry and the `document-frozen` event. The step loop books it.
 */
import type { DocumentSpec } from "../../documents/document.js";
import { freezeDocument } from "../../documents/freeze.js";
import { produceDocument } from "../../documents/produce.js";
import type { FrozenDocumentRecord } from "../../records/frozen-document-record.js";
import { DOCUMENT_DEGRADED_ERROR } from "../../documents/document-text.js";
import type { Locale } from "../../locale/locale.js";
import type { DocumentFrozenEvent } from "../events.js";

export interface StepDocumentInput {
  spec: DocumentSpec;
  /** The run id: names the file and titles the document. */
  run: string;
  notesDir: string;
  step: string;
  /** The step's final answer; null when it ended without one. */
  answer: string | null;
  locale: Locale;
  now: Date;
}

export interface StepDocument {
  record: FrozenDocumentRecord;
  /** The `errors` entry when the document degraded. */
  error: string | null;
  event: DocumentFrozenEvent;
}

/** Produces, freezes and describes the step's document. Throws only when the file cannot be written. */
export function freezeStepDocument(input: StepDocumentInput): StepDocument {
  const { spec, locale } = input;
  const produced = produceDocument(spec, input.answer, { run: input.run });
  const frozen = freezeDocument(produced.document, { notesDir: input.notesDir, locale, now: input.now });
  const record: FrozenDocumentRecord = {
    kind: spec.kind,
    path: frozen.path,
    archived: frozen.archived,
    degraded: produced.why !== null,
    why: produced.why,
    missing: produced.missing,
    at: input.now.toISOString(),
  };
  const title = spec.title[locale];
  return {
    record,
    error: produced.why === null ? null : DOCUMENT_DEGRADED_ERROR[locale](title, produced.why),
    event: {
      type: "document-frozen",
      step: input.step,
      run: input.run,
      kind: spec.kind,
      title,
      path: frozen.path,
      archived: frozen.archived,
      degraded: produced.why !== null,
      ...(produced.why !== null ? { why: produced.why } : {}),
      missing: produced.missing,
      sections: produced.document.summary(locale),
    },
  };
}
