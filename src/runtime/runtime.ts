/**
 * The runtime: wiring only. It validates options, owns the run directory (records + session store) or the
 * shared store that replaces it (backing-store.ts), the workbench and the event bus, and hands each step
 * — checked here, where a caller hands it over — to the step driver (step-driver.ts: lease, settings,
 * StepRun, which alone writes the step's record).
 */
import type { AgentSpec } from "../agents/agent-spec.js";
import { runningAsRoot, sandboxSetting } from "../agents/sandbox-env.js";
import { makeIgnoredDirectory } from "../fs/private-files.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { resolveGoalOption } from "../goal/goal-option.js";
import { PruningSessionStore } from "../session-layers/pruning-store.js";
import { SecretRedactor, secretsOf } from "../secret-redactor.js";
import { Workbench } from "../workbench/workbench.js";
import { EventBus, type FlowerEvent } from "./events.js";
import { LoadRouter } from "./session/load-router.js";
import { resolveRuntimeOptions, type ResolvedRuntimeOptions, type RuntimeOptions } from "./options.js";
import { openBackingStore, type BackingStore } from "../storage/backing-store.js";
import { deleteStepSessions } from "../storage/retention.js";
import { recordedStep } from "../records/recorded-step.js";
import {
  recordsTarget,
  requestHandoff,
  type HandoffAsked,
  type RequestHandoffOptions,
} from "./generations/ask-for-handoff.js";
import type { RunRecords } from "../records/run-records.js";
import { recordsSayTarget, sayToRun, type Said, type SayOptions } from "./person/say.js";
import type { StepRecord, StepResult, StepSettings, WorkflowMembership } from "../records/step-record.js";
import { givenHandoff, recordedSettings } from "./drive/step-settings.js";
import { defineDocument } from "../documents/spec.js";
import {
  CONTINUE_OPTION_NAMES,
  RUN_OPTION_NAMES,
  type ContinueOptions,
  type RunOptions,
} from "./run-options.js";
import { StepDriver } from "./drive/step-driver.js";
import { WorkspaceSync } from "./files/workspace-sync.js";
import { startTelemetry } from "./telemetry-wiring.js";
import type { AppliedBranch } from "../checkpoints/apply-branch.js";
import { personRepository } from "../checkpoints/shadow-repo.js";
import { rewindStep, type RewindOptions, type Rewound } from "./files/rewind.js";
import { claudeProjectsDir, recoverLocalTail } from "./drive/recover-local-tail.js";
import {
  applyRun,
  diffRun,
  discardRun,
  handBack,
  openChain,
  type RunChain,
  type DiffOptions,
  type HandedBack,
  type RunWorkParts,
} from "./files/run-work.js";
import type { TelemetryHook } from "../telemetry/hook.js";

export type { ContinueOptions, RunOptions } from "./run-options.js";

export class Runtime {
  readonly options: ResolvedRuntimeOptions;
  /** Step records and leases (records.db, mirrored to manifest.json; written through to a shared store). */
  readonly records: RunRecords;
  readonly store: PruningSessionStore;
  readonly workbench: Workbench | null;
  readonly #bus: EventBus;
  /** The credentials the child gets, kept out of the store, spill files, records and events. */
  readonly #redactor: SecretRedactor;
  readonly #loads = new LoadRouter();
  /** One soft stop per running step (Ctrl-C: stop at the next message boundary). */
  readonly #stops = new Set<AbortController>();
  /** Hard abort for close(): kills any claude child still running. */
  readonly #kill = new AbortController();
  readonly #running = new Set<string>();
  readonly #backing: BackingStore;
  /** Frozen documents and spill files to and from a shared store; null without one (or without a workbench). */
  readonly #sync: WorkspaceSync | null;
  /** Runs each step under its lease (step-driver.ts). */
  readonly #driver: StepDriver;
  /** OpenTelemetry export; null when telemetry is off (the default). */
  readonly #telemetry: TelemetryHook | null;
  /** What the `claude` child's IS_SANDBOX becomes, said before the first step; null when nothing to say. */
  #sandboxNote: string | null;

  constructor(options: RuntimeOptions) {
    this.options = resolveRuntimeOptions(options);
    try {
      makeIgnoredDirectory(this.options.runDir);
    } catch (error) {
      // Made a file meanwhile, not writable: the option is named, not a raw mkdir error.
      throw new ConfigurationError(
        "runDir",
        options.runDir ?? this.options.runDir,
        `a directory flower can make and write (${(error as Error).message})`,
      );
    }
    this.#redactor = new SecretRedactor(secretsOf({ ...process.env, ...this.options.env }));
    // Said once per runtime, when its first step starts (a command that only reads, such as flower diff,
    // starts no child): the child gets the normalised value (agents/sandbox-env.ts).
    this.#sandboxNote = sandboxSetting(
      { ...process.env, ...this.options.env }.IS_SANDBOX,
      runningAsRoot(),
    ).note;
    this.#bus = new EventBus((event) => this.#redactor.value(event));
    this.#backing = openBackingStore(
      this.options.store,
      this.options.runDir,
      this.options.workspace,
      this.#redactor,
      this.options.internal.reached,
    );
    this.records = this.#backing.records;
    if (this.options.onEvent) this.#bus.on(this.options.onEvent);
    this.#telemetry = startTelemetry(this.options, this.records, this.#redactor, this.#bus);
    this.workbench = this.options.workbench
      ? new Workbench({ workspace: this.options.workspace, locale: this.options.locale })
      : null;
    const files = this.#backing.files;
    this.#sync = files && this.workbench ? new WorkspaceSync(files, this.options.workspace) : null;
    if (this.#sync) this.#bus.on((event) => this.#keepDocuments(event));
    this.store = new PruningSessionStore({
      ...this.#backing.sessions,
      workspace: this.options.workspace,
      trim: this.options.trim ?? false,
      locale: this.options.locale,
      onLoad: (key, report) => {
        if (!key.subpath) this.#loads.route(key.sessionId, report);
      },
    });
    this.#driver = new StepDriver({
      options: this.options,
      records: this.records,
      store: this.store,
      workbench: this.workbench,
      bus: this.#bus,
      redactor: this.#redactor,
      loads: this.#loads,
      sync: this.#sync,
      shared: this.#backing.kind === "postgres",
      kill: this.#kill.signal,
      telemetry: this.#telemetry,
      carrier: this.#backing.work,
    });
  }

  /**
   * Connects to the store and brings its schema up to date now, instead of at the first step: a wrong
   * URL or an unreachable server fails here with a StoreError naming the store. Nothing to do for SQLite.
   */
  async ready(): Promise<void> {
    await this.#backing.ready();
  }

  /**
   * With a shared store: writes the stored notes (frozen documents, handoffs) this workspace lacks, or
   * holds in an older version, back to `.flower/notes/` — a workflow step reads the documents frozen on
   * another machine before its own step starts. Nothing to do for SQLite.
   */
  async restoreNotes(): Promise<void> {
    await this.#sync?.restoreNotes();
  }

  /** Subscribe to events; returns the unsubscribe function. */
  on(listener: (event: FlowerEvent) => void): () => void {
    return this.#bus.on(listener);
  }

  /** Sends an event to every listener (the workflow layer reports its steps and pauses this way). */
  emit(event: FlowerEvent): void {
    this.#bus.emit(event);
  }

  /** Runs one step to completion. Throws StepFailedError when its attempts are used up. */
  async run(step: string, spec: AgentSpec, prompt: string, options: RunOptions = {}): Promise<StepResult> {
    this.#checkStep(step);
    if (typeof prompt !== "string" || prompt.trim() === "")
      throw new ConfigurationError("prompt", prompt, "a non-empty task");
    checkStepOptions(options, RUN_OPTION_NAMES);
    return this.#runStep(step, spec, prompt, options, undefined);
  }

  /**
   * Continues a step from an earlier run (another process, or after Ctrl-C): resumes its last
   * successor session, or starts the successor from a frozen handoff that had not been taken over yet.
   */
  async continue(step: string, spec: AgentSpec, options: ContinueOptions = {}): Promise<StepResult> {
    this.#checkStep(step);
    checkStepOptions(options, CONTINUE_OPTION_NAMES);
    // A shared store may know the step although this machine never ran it.
    await this.records.pull?.(step);
    // Only that the step exists: whether it can be resumed is decided under its lease (a holder we wait
    // for may give it its first session meanwhile).
    const record = recordedStep(this.records, step);
    if (options.replaceGoal !== undefined && typeof options.replaceGoal !== "boolean")
      throw new ConfigurationError("replaceGoal", options.replaceGoal, "a boolean");
    if (options.goalFile !== undefined && typeof options.goalFile !== "string")
      throw new ConfigurationError("goalFile", options.goalFile, "a path (string)");
    return this.#runStep(step, spec, record.prompt, options, { prompt: options.prompt });
  }

  /**
   * The settings a step was started with (or last continued with), or — for a workflow run's id — those
   * the run was started with. Undefined for a name with no settings recorded (older records).
   */
  settingsOf(name: string): StepSettings | undefined {
    const settings = recordedSettings(this.records.list(), name);
    return settings === undefined ? undefined : structuredClone(settings);
  }

  /** The most recently updated step of this run directory, if any. */
  lastStep(): StepRecord | undefined {
    return this.records.list().at(-1);
  }

  /**
   * Retention: deletes a step's sessions (burned generations and the current one, with their subagent
   * transcripts) from the session store; the record stays. Returns how many were deleted.
   */
  async deleteSessions(step: string): Promise<number> {
    if (this.#running.has(step)) throw new ConfigurationError("step", step, "a step that is not running");
    return deleteStepSessions(this.records, this.store, step);
  }

  /**
   * `flower handoff` from code: asks the step's live driver (this process, another, or another machine on
   * a shared store) to hand off at its next message boundary, `next` first in the handoff's next step.
   */
  requestHandoff(step: string, options: RequestHandoffOptions = {}): Promise<HandoffAsked> {
    checkStepOptions(options, { next: true, by: true } satisfies Record<keyof RequestHandoffOptions, true>);
    return requestHandoff(recordsTarget(this.records), step, options);
  }

  /**
   * `flower say` from code: gives `text` to the run `name` means (a run id, or one of its steps) as a
   * person's message, at the next message boundary of whichever process or machine drives it; a paused,
   * stopped or queued run keeps it for its next session. A run that has ended is `{ kind: "ended" }`.
   */
  say(name: string, text: string, options: SayOptions = {}): Promise<Said> {
    checkStepOptions(options, { by: true } satisfies Record<keyof SayOptions, true>);
    return sayToRun(recordsSayTarget(this.records), name, text, options);
  }

  /**
   * A run's changes as `git diff` prints them: the whole run (from the files as it found them to its last
   * checkpoint), one step (`step`), or one generation (`generation`). `format: "stat"` or `"names"` for
   * less. With a shared store the run may have worked on any machine: its checkpoints come from the store.
   */
  async diff(run: string, options: DiffOptions = {}): Promise<string> {
    checkStepOptions(options, {
      step: true,
      generation: true,
      format: true,
      color: true,
    } satisfies Record<keyof DiffOptions, true>);
    return this.#withChain(run, (chain) => diffRun(chain, options));
  }

  /**
   * Merges the run's branch `flower/<run>` into the current branch of the workspace's repository (or
   * stages it squashed: `squash: true`). Refused, nothing changed, over uncommitted changes to tracked
   * files, on a conflict (merge it by hand), and for a run that worked in this checkout itself.
   */
  async apply(run: string, options: { squash?: boolean } = {}): Promise<AppliedBranch & { branch: string }> {
    checkStepOptions(options, { squash: true });
    if (options.squash !== undefined && typeof options.squash !== "boolean")
      throw new ConfigurationError("squash", options.squash, "a boolean");
    return this.#withChain(run, (chain) =>
      applyRun(chain, this.options.workspace, { squash: options.squash === true }),
    );
  }

  /**
   * Builds the run's branch `flower/<run>` in the workspace's repository from its checkpoints — with a
   * shared store, from wherever the run worked. Null when the workspace is not in a git repository.
   */
  async fetch(run: string): Promise<HandedBack | null> {
    const here = await personRepository(this.options.workspace);
    return this.#withChain(run, (chain) => handBack(chain, here?.root));
  }

  /** Deletes the run's branch and its own worktree; its records and checkpoints stay. */
  async discard(run: string): Promise<{ branch: string | null; worktree: string | null }> {
    return this.#withChain(run, async (chain) => {
      const holders = new Set((await this.records.leases()).map((lease) => lease.step));
      const held = chain.steps.find((record) => holders.has(record.step) && record.status === "running");
      if (held)
        throw new ConfigurationError(
          "run",
          run,
          `a run no live driver holds (step "${held.step}" is running)`,
        );
      return discardRun(chain);
    });
  }

  /** The run's chain for one use; the shell its git calls ran through ends after it. */
  async #withChain<T>(run: string, use: (chain: RunChain) => Promise<T>): Promise<T> {
    const chain = await openChain(this.#workParts(), run);
    try {
      return await use(chain);
    } finally {
      await chain.tracker.close();
    }
  }

  /**
   * Takes a step back to the start of one of its generations: the files it changed since then go back,
   * the later generations are archived, and the handoff that started that generation is current again
   * (edit it, then `continue`). See rewind.ts.
   */
  async rewind(step: string, options: RewindOptions): Promise<Rewound> {
    this.#checkStep(step);
    if (!options || typeof options !== "object")
      throw new ConfigurationError("options", options, "{ generation, force? }");
    if (options.force !== undefined && typeof options.force !== "boolean")
      throw new ConfigurationError("force", options.force, "a boolean");
    for (const key of Object.keys(options))
      if (!["generation", "turn", "force"].includes(key))
        throw new ConfigurationError(
          key,
          (options as unknown as Record<string, unknown>)[key],
          "generation, turn or force",
        );
    return rewindStep(
      {
        ...this.#workParts(),
        saveNotes: async (name) => {
          this.#sync?.saveNotes(name);
          await this.#sync?.flush();
        },
        transcript: async (sessionId) => {
          // A killed driver's last turn may be only in the binary's local copy: stored first.
          const inner = this.store.inner;
          await recoverLocalTail(
            inner,
            sessionId,
            claudeProjectsDir({ ...process.env, ...this.options.env }),
          );
          for (const projectKey of await this.store.projectKeysOf(sessionId)) {
            const entries = await inner.load({ projectKey, sessionId });
            if (entries !== null) return entries;
          }
          return [];
        },
      },
      step,
      options,
    );
  }

  #workParts(): RunWorkParts {
    return { options: this.options, records: this.records, carrier: this.#backing.work };
  }

  /** Stops the running steps at the next message boundary; their records stay continuable. */
  stop(): void {
    for (const stop of this.#stops) stop.abort();
  }

  /**
   * With telemetry on: waits until this runtime's spans and metrics reached the collector (close() starts
   * sending them; a process about to exit awaits this). Resolves at once when telemetry is off.
   */
  async flushTelemetry(): Promise<void> {
    await this.#telemetry?.flush();
  }

  /** Kills whatever still runs and closes the session store. The runtime cannot be used afterwards. */
  close(): void {
    this.#kill.abort();
    // What is still open ends now and goes out; the pending request keeps the process alive until sent.
    if (this.#telemetry) void this.#telemetry.flush();
    // SQLite closes synchronously inside this call; a network store finishes in the background (each
    // step already waited for its writes to reach the store before it returned).
    this.store.close().catch((error: unknown) => {
      process.stderr.write(`flower: could not close the session store: ${String(error)}\n`);
    });
    this.#backing.close().catch((error: unknown) => {
      process.stderr.write(`flower: could not close the store: ${String(error)}\n`);
    });
  }

  #checkStep(step: string): void {
    if (this.#kill.signal.aborted)
      throw new ConfigurationError("runtime", "closed", "a runtime that was not closed yet");
    if (typeof step !== "string" || step.trim() === "")
      throw new ConfigurationError("step", step, "a non-empty step name");
    if (this.#running.has(step))
      throw new ConfigurationError("step", step, "a step that is not already running in this runtime");
  }

  async #runStep(
    step: string,
    spec: AgentSpec,
    prompt: string,
    options: ContinueOptions,
    continued: { prompt: string | undefined } | undefined,
  ): Promise<StepResult> {
    if (!spec || typeof spec !== "object" || typeof spec.instructions !== "string") {
      throw new ConfigurationError("spec", spec, "an AgentSpec (see coordinator() and subagent())");
    }
    if (options.freeze !== undefined) defineDocument(options.freeze);
    if (options.workflow !== undefined) checkMembership(options.workflow);
    const wait = options.wait ?? false;
    if (typeof wait !== "boolean" && !(typeof wait === "number" && wait >= 0))
      throw new ConfigurationError("wait", wait, "a boolean or a number of milliseconds >= 0");
    // Checked here, where the caller hands the step over: a bad policy fails before the lease is taken.
    const stepHandoff = givenHandoff(options.handoff);
    const given = options.goal === undefined ? undefined : resolveGoalOption(options.goal);
    if (this.#sandboxNote !== null) {
      process.stderr.write(`flower: note: ${this.#sandboxNote}\n`);
      this.#sandboxNote = null;
    }
    this.#running.add(step);
    const stop = new AbortController();
    this.#stops.add(stop);
    try {
      return await this.#driver.run({
        step,
        spec,
        prompt,
        options,
        stop,
        ...(continued ? { continued } : {}),
        stepHandoff,
        ...(given ? { given } : {}),
      });
    } finally {
      this.#stops.delete(stop);
      this.#running.delete(step);
    }
  }

  /** A frozen document (a handoff, or a document a workflow froze) goes to the shared store at once. */
  #keepDocuments(event: FlowerEvent): void {
    const frozen =
      (event.type === "handoff" && event.phase === "done") || (event.type as string) === "document-frozen";
    if (frozen) this.#sync?.saveNotes((event as { step?: string }).step ?? "");
  }
}

/**
 * The options object of a call: known keys only (`goall` must not run a step without its guard, `formt`
 * must not print a whole patch).
 */
function checkStepOptions(options: unknown, known: Readonly<Record<string, true>>): void {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError(
      "options",
      options,
      `an object of options (${Object.keys(known).join(", ")})`,
    );
  refuseUnknownOptions(options, known);
}

/** The workflow option as `runWorkflow` sets it; a clear error for anything else. */
function checkMembership(workflow: WorkflowMembership): void {
  for (const field of ["run", "name", "task"] as const) {
    if (typeof workflow?.[field] !== "string" || workflow[field].trim() === "")
      throw new ConfigurationError(`workflow.${field}`, workflow?.[field], "a non-empty string");
  }
}
