/**
 * What the live page shows and what it may do, as plain types: the server (server.ts) knows nothing
 * about step records, stores or queues. The CLI builds a source from the run directory or the shared
 * store (cli/page/serve-source.ts), and the fleet's approve and cancel come in as `RunActions`, so the page
 * stays one concept: showing rows and passing two verbs on.
 */

/** The main thread's context of the step a run is on, against its window and handoff line. */
export interface RunGauge {
  /** Tokens the main thread sent in its last turn. */
  context: number;
  /** The model's context window, in tokens. */
  window: number;
  /** The handoff line: at this context the generation hands off. */
  at: number;
  /** The warning line below `at`. */
  warnAt: number;
}

/** The files one generation changed, for the page's short list under the generations. */
export interface RunGenerationFiles {
  /** The step's name in the workflow; null for a step run on its own. */
  step: string | null;
  generation: number;
  /** How many files it changed. */
  count: number;
  /** The first of them (a few), in the order they first changed. */
  files: string[];
  /** The goal's checks run at its handoff (the drift watch); absent without a goal with checks. */
  checks?: { passing: number; total: number; newly: number };
}

/** One row of the page: a workflow run, a step run on its own, or a queued run with no record yet. */
export interface RunRow {
  /** The run id (or the step's name): what the report route and the actions take. */
  name: string;
  /** running, done, failed, stopped, goal-not-met, budget-reached, interrupted, paused, queued, cancelled, … */
  status: string;
  /** The step the run is on (its name in the workflow), or null when there is none. */
  step: string | null;
  /** Who drives it now: `pid 123@host`; null when no live process holds it. */
  machine: string | null;
  gauge: RunGauge | null;
  /** Generations of the step the run is on (the one its gauge shows): 1 + its handoffs. */
  generations: number;
  /**
   * The latest generations that changed files, with the first of those files; `earlier`: how many
   * generations before them changed files too. Absent for a run that kept no checkpoints.
   */
  work?: { generations: RunGenerationFiles[]; earlier: number };
  costUsd: number;
  /** The run's budget where one is set (the cost is shown as spent of it). */
  budgetUsd?: number;
  /** The goal's checks as last run: ✓ or ✗ each. */
  checks: Array<{ name: string; passed: boolean }>;
  /** The documents the run froze (requirements, goal), shown in its report. */
  documents: string[];
  /** The task as typed, for a title. */
  task: string;
  /** Last change (ISO 8601). */
  updatedAt: string;
  /** Whether a report exists (a queued run has none yet). */
  report: boolean;
  /**
   * The actions that make sense now; the server still asks the fleet (or the run, for `say`), which
   * decides. `say`: the run has not ended, so a person's message would be read (absent: false).
   */
  can: { approve: boolean; cancel: boolean; say?: boolean };
}

export interface RunSource {
  /** For the page's header: the records file or the store (without its password). */
  readonly where: string;
  /** Every run, the most recently updated last. */
  runs(): Promise<RunRow[]>;
  /** The run's whole report page (self-contained HTML); null when there is no such run. */
  report(name: string): Promise<string | null>;
  /**
   * A check's log the report links to (`/runs/<run>/log?path=…`), as text; null unless the run's records
   * name that very file (the page serves no other file). Absent: the report's log links lead nowhere.
   */
  log?(name: string, path: string): Promise<string | null>;
  close(): Promise<void>;
}

/** The verbs a person may use on the page (with `allowActions`); each throws with why it could not. */
export interface RunActions {
  approve(name: string): Promise<void>;
  cancel(name: string): Promise<void>;
  /**
   * A person's message to the run (`flower say`): its main thread gets it at the next message boundary,
   * or its next session does. Absent: the page offers no field.
   */
  say?(name: string, text: string): Promise<void>;
}

/** What `/events` sends and `/api/runs` returns. */
export interface RunsSnapshot {
  where: string;
  /** The page shows approve and cancel buttons. */
  actions: boolean;
  runs: RunRow[];
}
