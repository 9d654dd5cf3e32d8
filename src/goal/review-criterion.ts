/** One acceptance criterion as the reviewer judged it (SPEC G3): plain data, kept in the step record. */
export type ReviewVerdictKind = "met" | "not-met" | "cannot-tell";

export interface ReviewCriterionRecord {
  criterion: string;
  verdict: ReviewVerdictKind;
  evidence: string;
}
