/**
 * Events of a run's work (src/checkpoints/): a checkpoint taken, the files brought to a checkpoint when a step
 * goes on, and a checkpoint that could not be taken. The step ledger records them; the display shows
 * the ones a person should read.
 */
import type { CheckpointKind } from "../checkpoints/checkpoint-message.js";
import type { LeftOut } from "../checkpoints/shadow-repo.js";

export interface WorkCheckpointEvent {
  type: "work-checkpoint";
  step: string;
  kind: CheckpointKind;
  /** The checkpoint's commit in the shadow repository (the parent's when nothing changed). */
  commit: string;
  /** False when the tree was unchanged: no checkpoint was written. */
  changed: boolean;
  /** Files that differ from the previous checkpoint, relative to the workspace. */
  files: string[];
  /** Files left out of it (too large, nested repositories). */
  leftOut: LeftOut[];
  /** A `call` checkpoint's tool and tool_use id. */
  tool?: string;
  call?: string;
}

export interface WorkRestoredEvent {
  type: "work-restored";
  step: string;
  /** The checkpoint the step goes on from. */
  commit: string;
  /** Checkpoints dropped because the transcript lacks their calls' results. */
  dropped: number;
  /** Files put back to the checkpoint. */
  restored: string[];
  /** Files that differ from it and were left as they are (the person's checkout). */
  kept: string[];
}

export interface WorkWarningEvent {
  type: "work-warning";
  step: string;
  /** One line: what could not be done and what that means for the run's files. */
  message: string;
}

export interface WorkBranchEvent {
  type: "work-branch";
  step: string;
  run: string;
  /** `flower/<run>`. */
  branch: string;
  /** Commits on top of the run's base (one per generation that changed files, and the uncommitted changes it began on). */
  commits: number;
  /** The repository the branch is in. */
  repository: string;
}
