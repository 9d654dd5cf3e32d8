/**
 * The parts of flower's work layer (src/checkpoints/) that the `work` workload drives directly, to time a
 * checkpoint alone and to size the bundles a shared store would receive. They are not in the package's
 * exports, so they are loaded at run time from the build (`dist/checkpoints/`, which `npm run bench` builds
 * first), and described here by the shapes the workload uses. `work-internals.check.ts` checks these
 * shapes against src/ in `npm run typecheck`, so a change there fails the typecheck, not the bench.
 */

/** A row the chain appends to a shared store's log (src/checkpoints/work-carrier.ts, NewCarriedCheckpoint). */
export interface CarriedRow {
  commit: string;
  parent: string | null;
  step: string;
  kind: "start" | "resume" | "call" | "end" | "stop" | "rewind" | "reset" | "base";
  bundle: Buffer | null;
}

/** What WorkTracker.open needs of a carrier (src/checkpoints/work-carrier.ts, WorkCarrier). */
export interface Carrier {
  append(run: string, row: CarriedRow, fence?: { step: string; lease: string }): Promise<number>;
  last(run: string): Promise<number>;
  list(run: string, after?: number): Promise<never[]>;
  sizes(runs: readonly string[]): Promise<Map<string, { rows: number; bytes: number }>>;
}

export interface OpenOptions {
  workspace: string;
  runDir: string;
  run: string;
  owned: boolean;
  carrier: Carrier | null;
  maxFileBytes: number;
  now: () => Date;
}

export interface CheckpointInput {
  kind: "start" | "resume" | "call" | "end" | "stop" | "rewind" | "reset";
  step: string;
  generation: number;
  session?: string | null;
  call?: string | null;
  tool?: string | null;
}

export interface Taken {
  commit: string;
  parent: string | null;
  changed: boolean;
  files: string[];
}

export interface Shadow {
  readonly dir: string;
  bundle(tip: string, exclude: readonly string[]): Promise<Buffer | null>;
  text(args: readonly string[]): Promise<string>;
}

export interface Tracker {
  readonly shadow: Shadow;
  readonly tip: string | null;
  readonly base: string | null;
  checkpoint(meta: CheckpointInput): Promise<Taken>;
  /** Waits for the queued checkpoints and a pack running beside them. */
  settled(): Promise<void>;
  /** Ends the chain's shell; `maintain`: packs and prunes the shadow first, as a step's end does. */
  close(options?: { maintain?: boolean }): Promise<void>;
}

export interface TrackerModule {
  WorkTracker: { open(options: OpenOptions): Promise<Tracker> };
}

/** WorkTracker from the build this bench runs against (bench/dist/ → dist/checkpoints/work-tracker.js). */
export async function loadWorkTracker(): Promise<TrackerModule["WorkTracker"]> {
  const url = new URL("../../dist/checkpoints/work-tracker.js", import.meta.url).href;
  const module = (await import(url)) as TrackerModule;
  if (typeof module.WorkTracker?.open !== "function")
    throw new Error(`${url} has no WorkTracker.open: build the package first (npm run build)`);
  return module.WorkTracker;
}

/** flower's largest file a checkpoint takes (src/defaults.ts), read from the build: not in the package's exports. */
export async function checkpointMaxFileBytes(): Promise<number> {
  const url = new URL("../../dist/defaults.js", import.meta.url).href;
  const module = (await import(url)) as { DEFAULTS?: { checkpointMaxFileBytes?: unknown } };
  const bytes = module.DEFAULTS?.checkpointMaxFileBytes;
  if (typeof bytes !== "number")
    throw new Error(`${url} has no DEFAULTS.checkpointMaxFileBytes: npm run build`);
  return bytes;
}
