/**
 * Events of the drift watch (runtime/judge/drift-watch.ts): where the run stood when a generation handed off
 * (the goal's checks run then, and the files it changed), and a pause for a person when generations
 * in a row made none.
 */
import type { GenerationProgress } from "../records/step-record.js";

export interface GenerationProgressEvent {
  type: "generation-progress";
  step: string;
  /** The generation that just handed off. */
  generation: number;
  progress: GenerationProgress;
}

export interface DriftPauseEvent {
  type: "drift-pause";
  step: string;
  /** The generations without progress, oldest first, each with what was measured. */
  generations: Array<{ generation: number; progress: GenerationProgress }>;
  /** The frozen handoff the successor will start from on `continue` (null without a workbench). */
  handoff: string | null;
}
