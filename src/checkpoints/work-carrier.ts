/**
 * How a run's checkpoints travel with its transcript: a shared store keeps, per run, an append-only log
 * of the chain's tip — each new checkpoint as a git bundle of what it adds to its parent, and each move
 * back (`reset`) as a row without one. Another machine replays the log into its own shadow repository
 * and knows every checkpoint the run ever had; the last row is where the run stands.
 *
 * Why bundles in the store and not a git remote: the store is the one thing every machine of a fleet
 * already shares, and a run must be able to go on with nothing else (no push rights, no remote that
 * must be reachable from the workers, no branch namespace in the team's repository filling with
 * checkpoints). A bundle is git's own transfer format: `git bundle` writes it, `git bundle unbundle`
 * checks and applies it, and it holds only what the receiver lacks.
 */
import type { CheckpointKind } from "./checkpoint-message.js";

/** One row of a run's log. `base` is the tree a submitted run was given (the person's checkout as it was). */
export interface CarriedCheckpoint {
  /** 1, 2, 3, … per run, in the order the rows were written. */
  seq: number;
  commit: string;
  parent: string | null;
  step: string;
  kind: CheckpointKind | "base";
  /** What the commit adds to commits the receiver has; null for a reset (the commit is known already). */
  bundle: Buffer | null;
  at: string;
}

export interface NewCarriedCheckpoint {
  commit: string;
  parent: string | null;
  step: string;
  kind: CheckpointKind | "base";
  bundle: Buffer | null;
}

/** The lease a write proves: a driver presumed dead must not move a run's work under its successor. */
export interface CarryFence {
  step: string;
  lease: string;
}

export interface WorkCarrier {
  /** Appends a row; with a fence, only while that lease holds (LeaseLostError otherwise). Returns its seq. */
  append(run: string, row: NewCarriedCheckpoint, fence?: CarryFence): Promise<number>;
  /** The seq of the run's last row; 0 when it has none. */
  last(run: string): Promise<number>;
  /** The run's rows after `after` (seq), in order; bundles included. */
  list(run: string, after?: number): Promise<CarriedCheckpoint[]>;
  /** The rows of runs (without bundles), for a listing: how many and how many bytes. */
  sizes(runs: readonly string[]): Promise<Map<string, { rows: number; bytes: number }>>;
}
