/**
 * The handoff's section names, a leaf: the step record (records/), the events (runtime/) and the
 * handoff document (handoff/) all name them, and a leaf lets records/ import them without depending on
 * the handoff code above it.
 */
/** The five sections of a handoff, in document order. Each blocks one mistake a successor would make. */
export const HANDOFF_SECTIONS = ["doing", "decided", "deadends", "next", "scene"] as const;

export type HandoffSectionName = (typeof HANDOFF_SECTIONS)[number];

/** Only these two are required: demanding dead ends early on provokes invented ones. */
export const REQUIRED: readonly HandoffSectionName[] = ["doing", "next"];
