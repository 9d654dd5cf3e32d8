/**
 * Type checks only (never run, never built: bench/tsconfig.build.json leaves this file out): the shapes
 * work-internals.ts declares for src/checkpoints/ must be what src/checkpoints/ has, both ways where the bench passes
 * something in. `npm run typecheck` compiles this file against src/.
 */
import type * as Tracking from "../src/checkpoints/work-tracker.js";
import type { WorkCarrier, NewCarriedCheckpoint } from "../src/checkpoints/work-carrier.js";
import type { CheckpointMeta } from "../src/checkpoints/checkpoint-message.js";
import type { Carrier, CarriedRow, CheckpointInput, OpenOptions, TrackerModule } from "./work-internals.js";

/** The real module offers everything the facade calls, with results the facade can read. */
export type ModuleFits = typeof Tracking extends TrackerModule ? true : never;
/** What the bench passes in is what src/ takes. */
export type OptionsFit = OpenOptions extends Tracking.WorkTrackerOptions ? true : never;
export type CarrierFits = Carrier extends WorkCarrier ? true : never;
export type MetaFits = CheckpointInput extends Omit<CheckpointMeta, "run"> ? true : never;
/** And a carrier's row as src/ sends it is what the bench's carrier reads. */
export type RowFits = NewCarriedCheckpoint extends CarriedRow ? true : never;

export const checks: [ModuleFits, OptionsFit, CarrierFits, MetaFits, RowFits] = [
  true,
  true,
  true,
  true,
  true,
];
