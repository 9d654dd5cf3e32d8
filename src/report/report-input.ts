/**
 * What a picture of a run is drawn from. It is its own plain type, not the runtime's run record: the
 * record changes as the runtime grows (the goal guard, the per-turn context series), and the report
 * should only change when the picture does. The CLI maps a run record to this.
 *
 * Token counts are the main thread's context (input + cache read + cache creation of one request);
 * generation numbers start at 1.
 */
import type { DriftMeasures } from "../locale/drift-words.js";
import { ConfigurationError } from "../errors.js";

/** One main-thread request (model round trip). */
export interface ReportTurn {
  /** The generation (session) this turn belongs to, 1-based; never decreases along the series. */
  generation: number;
  /** Context the main thread sent with this request, in tokens. */
  context: number;
  /** When the request was made (ISO 8601); shown in the point's tooltip and on the time axis. */
  time?: string;
  /** Tool results spilled to disk during this turn. @default 0 */
  spills?: number;
  /** Main-thread tool calls the delegate guard denied during this turn. @default 0 */
  denials?: number;
}

/** How a generation ended when it handed off to the next one. */
export interface ReportHandoff {
  /** The handoff document was missing sections or was rebuilt from the transcript. */
  degraded: boolean;
  /** Where the frozen handoff document lies. */
  path?: string;
}

export interface ReportGeneration {
  generation: number;
  costUsd: number;
  /** Model round trips of the main thread in this generation. */
  numTurns: number;
  /** Set when this generation ended in a handoff to the next one. */
  handoff?: ReportHandoff;
  /**
   * The files it changed (relative to the workspace), in the order they first changed; absent when the
   * run kept no checkpoints (nothing is said then).
   */
  files?: string[];
  /**
   * The goal's checks run at its handoff (the drift watch): how many passed, of how many, how many of them
   * for the first time; absent when it did not hand off or the step has no goal with checks.
   */
  checks?: { passing: number; total: number; newly: number };
}

/** A file the checkpoints left out. */
export interface ReportLeftOut {
  path: string;
  why: "too-large" | "nested-repository" | "secret";
  /** The file's size, for a file too large. */
  bytes?: number;
  /** Why an untracked file looked like a secret. */
  sign?: "name" | "private-key" | "credential";
}

/** Generations a rewind took back: no longer the step's, still shown (marked). */
export interface ReportRewound {
  /** When the rewind was (ISO 8601). */
  at: string;
  /** The generation the step went back to the start of. */
  to: number;
  generations: ReportGeneration[];
}

/** A person's message (flower say) a session of the step was given. */
export interface ReportMessage {
  /** Who said it (`user@host`). */
  by: string;
  /** When it was said, and when a session was given it (ISO 8601). */
  at: string;
  given: string;
  /** The generation whose session was given it. */
  generation: number;
  text: string;
}

/** One check a guard ran (tests, a build, an acceptance criterion). */
export interface ReportCheck {
  name: string;
  passed: boolean;
  /** A line of detail (exit code, the failing assertion). */
  detail?: string;
  /** The last lines of the check's output, shown under a failing check. */
  tail?: string;
  /** Where the check's log lies, as a link from the report file (relative, or a file: URL). */
  log?: string;
}

/** One round of the goal guard: did the step's answer meet the goal? */
export interface ReportGuardRound {
  /** Guard rounds started before this run of the checks: 0 is the run after the first session. */
  round: number;
  /** The guard's verdict, e.g. "met" or "not met". */
  verdict: string;
  passed: boolean;
  time?: string;
  checks?: ReportCheck[];
}

export interface ReportStep {
  /** The step's name in the run. */
  step: string;
  /** The step's task as the person typed it (a step run on its own). */
  task?: string;
  /**
   * The prompt flower wrote for a workflow step (from the run's task and the earlier documents): shown
   * folded, apart from the task, so the task reads as typed.
   */
  prompt?: string;
  /** Why the step ended goal-not-met, in one line; the failing checks come from the last guard round. */
  why?: string;
  /** "done", "failed", "stopped", ... */
  status?: string;
  /** The main thread's context window, in tokens. */
  window: number;
  /** Handoff threshold: at this context the generation hands off. */
  at: number;
  /** Warning line below `at`. */
  warnAt: number;
  turns: ReportTurn[];
  generations: ReportGeneration[];
  /** Files the checkpoints left out (too large, nested repositories), said once for the step. */
  leftOut?: ReportLeftOut[];
  /** Checkpoints that could not be taken or stored, one line each. */
  workWarnings?: string[];
  /** Generations taken back by rewinds, oldest rewind first. */
  rewound?: ReportRewound[];
  /** The run's budget where one is set, and what the whole run (all its steps) spent of it. */
  budget?: { spentUsd: number; budgetUsd: number };
  /**
   * The drift watch paused the step after these generations made no progress (its last pause);
   * `measures`: what it measured them by (both, when absent).
   */
  drift?: { generations: number[]; at: string; measures?: DriftMeasures };
  /** A person's messages (flower say) the step's sessions were given, in order. */
  messages?: ReportMessage[];
  /** Goal-guard rounds, once the goal guard runs. */
  guard?: ReportGuardRound[];
  /** Checks run outside a guard round (the step's own acceptance checks). */
  checks?: ReportCheck[];
}

/** A document a workflow step froze, with its sections as the steps read them. */
export interface ReportDocument {
  /** The document's title ("Requirements", "Goal") and the step that froze it. */
  title: string;
  step: string;
  path: string;
  /** What a reader must know: degraded or filled in since, changed after it was frozen, the change not used. */
  notes: string[];
  /** `changed`: the section differs from the text as frozen (a person's edit the next step read). */
  sections: Array<{ label: string; text: string; changed?: boolean }>;
}

/** The workflow run the steps belong to, when the report draws a run. */
export interface ReportRun {
  id: string;
  /** The run's task as the person typed it. */
  task: string;
  status: string;
  documents: ReportDocument[];
}

export interface ReportInput {
  /** Title of the page: the run's name or directory. */
  title: string;
  /** Set when the page draws a whole workflow run: its task, steps in order and documents come first. */
  run?: ReportRun;
  steps: ReportStep[];
  /** When the report was made (ISO 8601); shown in the footer. */
  generatedAt?: string;
}

function fail(path: string, value: unknown, expected: string): never {
  throw new ConfigurationError(path, value, expected);
}

function count(path: string, value: unknown, min = 0): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    fail(path, value, `a finite number >= ${min}`);
  }
  return value;
}

function integer(path: string, value: unknown, min: number): number {
  if (!Number.isInteger(value) || (value as number) < min) fail(path, value, `an integer >= ${min}`);
  return value as number;
}

function text(path: string, value: unknown, optional: boolean): void {
  if (optional && value === undefined) return;
  if (typeof value !== "string") fail(path, value, "a string");
}

function time(path: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "string" || Number.isNaN(Date.parse(value))) fail(path, value, "an ISO 8601 time");
}

function checks(path: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) fail(path, value, "an array of checks");
  value.forEach((check: unknown, index) => {
    const at = `${path}[${index}]`;
    if (typeof check !== "object" || check === null) fail(at, check, "{ name, passed }");
    const { name, passed, detail } = check as Record<string, unknown>;
    text(`${at}.name`, name, false);
    if (typeof passed !== "boolean") fail(`${at}.passed`, passed, "a boolean");
    text(`${at}.detail`, detail, true);
    text(`${at}.tail`, (check as Record<string, unknown>).tail, true);
    text(`${at}.log`, (check as Record<string, unknown>).log, true);
  });
}

function strings(path: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) fail(path, value, "an array of strings");
  value.forEach((item: unknown, index) => text(`${path}[${index}]`, item, false));
}

function generations(path: string, value: unknown): void {
  if (!Array.isArray(value)) fail(path, value, "an array of generations");
  value.forEach((record: unknown, index) => {
    const g = `${path}[${index}]`;
    if (typeof record !== "object" || record === null) fail(g, record, "{ generation, costUsd, numTurns }");
    const { generation, costUsd, numTurns, handoff, files } = record as Record<string, unknown>;
    integer(`${g}.generation`, generation, 1);
    count(`${g}.costUsd`, costUsd);
    integer(`${g}.numTurns`, numTurns, 0);
    if (handoff !== undefined) {
      if (typeof handoff !== "object" || handoff === null) {
        fail(`${g}.handoff`, handoff, "{ degraded, path? }");
      }
      const { degraded, path: file } = handoff as Record<string, unknown>;
      if (typeof degraded !== "boolean") fail(`${g}.handoff.degraded`, degraded, "a boolean");
      text(`${g}.handoff.path`, file, true);
    }
    strings(`${g}.files`, files);
    const { checks: progress } = record as Record<string, unknown>;
    if (progress !== undefined) {
      if (typeof progress !== "object" || progress === null)
        fail(`${g}.checks`, progress, "{ passing, total, newly }");
      const { passing, total, newly } = progress as Record<string, unknown>;
      const all = integer(`${g}.checks.total`, total, 1);
      if (integer(`${g}.checks.passing`, passing, 0) > all)
        fail(`${g}.checks.passing`, passing, `an integer from 0 to checks.total (${all})`);
      if (integer(`${g}.checks.newly`, newly, 0) > (passing as number))
        fail(`${g}.checks.newly`, newly, `an integer from 0 to checks.passing (${passing as number})`);
    }
  });
}

/**
 * Checks a report input before anything is drawn; the error names the bad field by its path
 * (`steps[0].turns[3].context`). Returns the input for chaining.
 */
export function validateReportInput(input: ReportInput): ReportInput {
  if (typeof input !== "object" || input === null) fail("report input", input, "{ title, steps }");
  text("title", input.title, false);
  time("generatedAt", input.generatedAt);
  if (!Array.isArray(input.steps)) fail("steps", input.steps, "an array of steps");
  if (input.run !== undefined) {
    const run = input.run;
    if (typeof run !== "object" || run === null) fail("run", run, "{ id, task, status, documents }");
    text("run.id", run.id, false);
    text("run.task", run.task, false);
    text("run.status", run.status, false);
    if (!Array.isArray(run.documents)) fail("run.documents", run.documents, "an array of documents");
    run.documents.forEach((document, index) => {
      const d = `run.documents[${index}]`;
      if (typeof document !== "object" || document === null) fail(d, document, "a document");
      text(`${d}.title`, document.title, false);
      text(`${d}.step`, document.step, false);
      text(`${d}.path`, document.path, false);
      if (!Array.isArray(document.notes)) fail(`${d}.notes`, document.notes, "an array of strings");
      document.notes.forEach((note, n) => text(`${d}.notes[${n}]`, note, false));
      if (!Array.isArray(document.sections)) fail(`${d}.sections`, document.sections, "an array of sections");
      document.sections.forEach((section, n) => {
        text(`${d}.sections[${n}].label`, section?.label, false);
        text(`${d}.sections[${n}].text`, section?.text, false);
        if (section?.changed !== undefined && typeof section.changed !== "boolean")
          fail(`${d}.sections[${n}].changed`, section.changed, "a boolean");
      });
    });
  }
  input.steps.forEach((step, stepIndex) => {
    const s = `steps[${stepIndex}]`;
    if (typeof step !== "object" || step === null) fail(s, step, "a step");
    text(`${s}.step`, step.step, false);
    text(`${s}.task`, step.task, true);
    text(`${s}.prompt`, step.prompt, true);
    text(`${s}.why`, step.why, true);
    text(`${s}.status`, step.status, true);
    count(`${s}.window`, step.window, 1);
    count(`${s}.at`, step.at, 1);
    count(`${s}.warnAt`, step.warnAt, 1);
    if (!Array.isArray(step.turns)) fail(`${s}.turns`, step.turns, "an array of turns");
    let generation = 1;
    step.turns.forEach((turn, turnIndex) => {
      const t = `${s}.turns[${turnIndex}]`;
      if (typeof turn !== "object" || turn === null) fail(t, turn, "{ generation, context }");
      const g = integer(`${t}.generation`, turn.generation, 1);
      if (g < generation)
        fail(`${t}.generation`, g, `an integer >= ${generation} (generations never go back)`);
      generation = g;
      count(`${t}.context`, turn.context);
      time(`${t}.time`, turn.time);
      if (turn.spills !== undefined) integer(`${t}.spills`, turn.spills, 0);
      if (turn.denials !== undefined) integer(`${t}.denials`, turn.denials, 0);
    });
    generations(`${s}.generations`, step.generations);
    if (step.leftOut !== undefined) {
      if (!Array.isArray(step.leftOut)) fail(`${s}.leftOut`, step.leftOut, "an array of left-out files");
      step.leftOut.forEach((entry, index) => {
        const l = `${s}.leftOut[${index}]`;
        if (typeof entry !== "object" || entry === null) fail(l, entry, "{ path, why, bytes? }");
        text(`${l}.path`, entry.path, false);
        if (entry.why !== "too-large" && entry.why !== "nested-repository" && entry.why !== "secret")
          fail(`${l}.why`, entry.why, `"too-large", "nested-repository" or "secret"`);
        if (entry.sign !== undefined && !["name", "private-key", "credential"].includes(entry.sign))
          fail(`${l}.sign`, entry.sign, `"name", "private-key" or "credential"`);
        if (entry.bytes !== undefined) count(`${l}.bytes`, entry.bytes);
      });
    }
    strings(`${s}.workWarnings`, step.workWarnings);
    if (step.budget !== undefined) {
      if (typeof step.budget !== "object" || step.budget === null)
        fail(`${s}.budget`, step.budget, "{ spentUsd, budgetUsd }");
      count(`${s}.budget.spentUsd`, step.budget.spentUsd);
      if (!(step.budget.budgetUsd > 0)) fail(`${s}.budget.budgetUsd`, step.budget.budgetUsd, "a number > 0");
      count(`${s}.budget.budgetUsd`, step.budget.budgetUsd);
    }
    if (step.drift !== undefined) {
      if (typeof step.drift !== "object" || step.drift === null)
        fail(`${s}.drift`, step.drift, "{ generations, at }");
      if (!Array.isArray(step.drift.generations) || step.drift.generations.length === 0)
        fail(`${s}.drift.generations`, step.drift.generations, "a non-empty array of generations");
      step.drift.generations.forEach((n, index) => integer(`${s}.drift.generations[${index}]`, n, 1));
      if (step.drift.at === undefined) fail(`${s}.drift.at`, step.drift.at, "an ISO 8601 time");
      time(`${s}.drift.at`, step.drift.at);
      const measures = step.drift.measures as unknown;
      if (
        measures !== undefined &&
        (typeof measures !== "object" ||
          measures === null ||
          typeof (measures as DriftMeasures).checks !== "boolean" ||
          typeof (measures as DriftMeasures).files !== "boolean")
      )
        fail(`${s}.drift.measures`, measures, "{ checks: boolean, files: boolean }");
    }
    if (step.rewound !== undefined) {
      if (!Array.isArray(step.rewound)) fail(`${s}.rewound`, step.rewound, "an array of rewinds");
      step.rewound.forEach((entry, index) => {
        const r = `${s}.rewound[${index}]`;
        if (typeof entry !== "object" || entry === null) fail(r, entry, "{ at, to, generations }");
        if (entry.at === undefined) fail(`${r}.at`, entry.at, "an ISO 8601 time");
        time(`${r}.at`, entry.at);
        integer(`${r}.to`, entry.to, 1);
        generations(`${r}.generations`, entry.generations);
      });
    }
    if (step.guard !== undefined) {
      if (!Array.isArray(step.guard)) fail(`${s}.guard`, step.guard, "an array of guard rounds");
      step.guard.forEach((round, index) => {
        const r = `${s}.guard[${index}]`;
        if (typeof round !== "object" || round === null) fail(r, round, "{ round, verdict, passed }");
        integer(`${r}.round`, round.round, 0);
        text(`${r}.verdict`, round.verdict, false);
        if (typeof round.passed !== "boolean") fail(`${r}.passed`, round.passed, "a boolean");
        time(`${r}.time`, round.time);
        checks(`${r}.checks`, round.checks);
      });
    }
    checks(`${s}.checks`, step.checks);
  });
  return input;
}
