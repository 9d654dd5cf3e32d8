/**
 * From a step's final answer to the document it must end with. An unusable answer (none at all, a
 * required section missing or hollow, the spec's check failing) does not stop the run: the document is
 * frozen anyway, marked degraded with the reason, and the next step and the record say so. Nothing the
 * agent wrote is dropped on that path either: what it did write stays in its sections and notes.
 */
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { ParsedDocument, type DocumentSpec } from "./document.js";
import { assessDocument } from "./quality.js";
import { parseDocument } from "./read.js";

export interface ProducedDocument {
  /** The document to freeze; `degraded` holds the reason when the answer was unusable. */
  document: ParsedDocument;
  /** Why it degraded; null for a usable document. */
  why: string | null;
  /** Required sections (keys) that were missing or hollow in the answer. */
  missing: string[];
}

export interface ProduceDocumentOptions {
  /** The run id (title only). */
  run: string;
  /** Why there is no answer, when there is none (the error, or how the session ended). */
  error?: string | null;
}

/** Parses and checks the answer; degrades when it is unusable. */
export function produceDocument(
  spec: DocumentSpec,
  answer: string | null,
  options: ProduceDocumentOptions,
): ProducedDocument {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("options", options, "an object { run, error? }");
  refuseUnknownOptions(options, { run: true, error: true } satisfies Record<
    keyof ProduceDocumentOptions,
    true
  >);
  if (answer === null || answer.trim() === "") {
    const empty = new ParsedDocument(spec, { run: options.run });
    const why = options.error ?? "the step gave no answer";
    const document = empty.withDegraded(why);
    return { document, why: document.degraded, missing: assessDocument(empty).missing };
  }
  const document = parseDocument(spec, answer, options.run);
  return { document, why: document.degraded, missing: assessDocument(document).missing };
}
