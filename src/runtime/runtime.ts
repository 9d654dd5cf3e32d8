/**
 * The runtime: wiring only. It validates options, owns the run directory (records + session store) or the
 * shared store that replaces it (backing-store.ts), the workbench and the event bus, and hands each step
 * to StepRun, which alone writes the step's record.
 */
import { join } from "node:path";
import type { AgentSpec } from "../agents/agent-spec.js";
import { runningAsRoot, sandboxSetting } from "../agents/sandbox-env.js";
import { DEFAULTS } from "../defaults.js";
import { makeIgnoredDirectory } from "../fs/private-files.js";
import { ConfigurationError, StepFailedError } from "../errors.js";
import { safeFileName } from "../fs/safe-file-name.js";
import { resolveGoalOption, type GoalOption } from "../goal/goal-option.js";
import { HandoffPolicy } from "../handoff/policy.js";
import { PruningSessionStore } from "../store/pruning-store.js";
import { SecretRedactor, secretsOf } from "../store/secret-redactor.js";
import { Workbench } from "../workbench/workbench.js";
import { EventBus, type FlowerEvent } from "./events.js";
import { decideGoal, type GoalDecision } from "./frozen-goal.js";
import { LoadRouter } from "./load-router.js";
import {
  givenHandoff,
  handoffPolicyOf,
  resolveRuntimeOptions,
  type ResolvedRuntimeOptions,
  type RuntimeOptions,
} from "./options.js";
import { openBackingStore, type BackingStore } from "../storage/backing-store.js";
import { claudeProjectsDir, recoverLocalTail } from "./recover-local-tail.js";
import { deleteStepSessions } from "../storage/retention.js";
import { StepLease } from "./step-lease.js";
import {
  recordsTarget,
  requestHandoff,
  type HandoffAsked,
  type RequestHandoffOptions,
} from "./request-handoff.js";
import { StepRun, type StepEnvironment } from "./step-run.js";
import { reviewerSessionOptions, stepSessionOptions, type SessionWiring } from "./session-options.js";
import { DEFAULT_LEASE_TIMING } from "../records/lease.js";
import type { RunRecords } from "../records/run-records.js";
import type { StepRecord, StepResult, StepSettings, WorkflowMembership } from "../records/step-record.js";
import { recordedSettings, resolveStepSettings, runSettings, type GivenSettings } from "./step-settings.js";
import { defineDocument, type DocumentSpec } from "../documents/spec.js";
import { BUILT_IN_DOCUMENTS } from "../documents/builtin/index.js";
import { CONTINUE_PROMPT } from "./text.js";
import { relocatedRecord, WorkspaceSync } from "./workspace-sync.js";

export interface RunOptions {
  /**
   * Handoff policy for this step only (e.g. per model or per role): its given fields override the
   * runtime's, and on `continue` the step's recorded handoff line (an override event each).
   */
  handoff?: HandoffPolicy | boolean;
  /**
   * When another live driver holds the step: wait for it (true: as long as it takes; a number: at most
   * that many ms) instead of failing with LeaseHeldError at once. @default false
   */
  wait?: boolean | number;
  /**
   * The document this step must end with (SPEC §7): its final answer is parsed, checked, and frozen to
   * `<workbench>/notes/<stem>-<run>.md` — marked degraded, with the reason, when it is unusable — and
   * the record gets `frozen`. The file name uses `workflow.run`, else the step name.
   */
  freeze?: DocumentSpec;
  /** The step is part of a workflow run (set by `runWorkflow`): recorded as `run` and `workflow`. */
  workflow?: WorkflowMembership;
  /**
   * The goal guard (SPEC §8): when the step's session completes, flower runs these checks itself in the
   * workspace; a failing check sends the session back with the evidence (a guard round), and after
   * `guardRounds` the step ends with status "goal-not-met" (returned, not thrown; the CLI exits 1).
   * Also flags worker reports that claim success without evidence, and with `review: true` asks a
   * read-only reviewer after the checks pass. On `continue`, given, it replaces the recorded goal (a
   * different `review` is an override event). @default none; on `continue`, the goal recorded with the step
   */
  goal?: GoalOption;
}

export interface ContinueOptions extends RunOptions {
  /** The prompt the resumed session gets. @default "Continue the task." (zh: "继续。") */
  prompt?: string;
  /**
   * A step whose work began with a goal keeps that goal (issue 22): a different `goal` given here is
   * not used, and the record keeps it as ignored (`guard.ignoredGoal`). `true` says the given goal
   * replaces the recorded one; the record keeps both and when (`guard.goalSwitches`). @default false
   */
  replaceGoal?: boolean;
  /** The file the given goal was read from (the frozen goal document), for the record and the views. */
  goalFile?: string;
}

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

  constructor(options: RuntimeOptions) {
    this.options = resolveRuntimeOptions(options);
    makeIgnoredDirectory(this.options.runDir);
    this.#redactor = new SecretRedactor(secretsOf({ ...process.env, ...this.options.env }));
    // Said once per runtime, not per session: the child gets the normalised value (agents/sandbox-env.ts).
    const sandbox = sandboxSetting({ ...process.env, ...this.options.env }.IS_SANDBOX, runningAsRoot());
    if (sandbox.note !== null) process.stderr.write(`flower: note: ${sandbox.note}\n`);
    this.#bus = new EventBus((event) => this.#redactor.value(event));
    this.#backing = openBackingStore(
      this.options.store,
      this.options.runDir,
      this.options.workspace,
      this.#redactor,
    );
    this.records = this.#backing.records;
    if (this.options.onEvent) this.#bus.on(this.options.onEvent);
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
    return this.#runStep(step, spec, prompt, options, undefined);
  }

  /**
   * Continues a step from an earlier run (another process, or after Ctrl-C): resumes its last
   * successor session, or starts the successor from a frozen handoff that had not been taken over yet.
   */
  async continue(step: string, spec: AgentSpec, options: ContinueOptions = {}): Promise<StepResult> {
    this.#checkStep(step);
    // A shared store may know the step although this machine never ran it.
    await this.records.pull?.(step);
    // Only that the step exists: whether it can be resumed is decided under its lease (a holder we wait
    // for may give it its first session meanwhile).
    const record = this.#recorded(step);
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

  /** The record of a step that `continue` can pick up; a clear error otherwise. */
  #continuable(step: string): StepRecord {
    const record = this.#recorded(step);
    if (!record.sessionId && !record.pendingHandoff && !record.pendingPrompt) {
      throw new StepFailedError(step, "it has no session to resume yet; run it again with rt.run()");
    }
    // Recorded on another machine: its handoff paths name that machine's checkout.
    return this.#backing.kind === "postgres" ? relocatedRecord(record, this.options.workspace) : record;
  }

  #recorded(step: string): StepRecord {
    const record = this.records.get(step);
    if (!record) {
      const known =
        this.records
          .list()
          .map((s) => s.step)
          .join(", ") || "none";
      throw new ConfigurationError(
        "step",
        step,
        `a step recorded in ${this.records.location} (known: ${known})`,
      );
    }
    return record;
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
    return requestHandoff(recordsTarget(this.records), step, options);
  }

  /** Stops the running steps at the next message boundary; their records stay continuable. */
  stop(): void {
    for (const stop of this.#stops) stop.abort();
  }

  /** Kills whatever still runs and closes the session store. The runtime cannot be used afterwards. */
  close(): void {
    this.#kill.abort();
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
      throw new ConfigurationError("spec", spec, "an AgentSpec (see coordinator() and worker())");
    }
    if (options.freeze !== undefined) defineDocument(options.freeze);
    if (options.workflow !== undefined) checkMembership(options.workflow);
    const wait = options.wait ?? false;
    if (typeof wait !== "boolean" && !(typeof wait === "number" && wait >= 0))
      throw new ConfigurationError("wait", wait, "a boolean or a number of milliseconds >= 0");
    const stepPolicy = options.handoff === undefined ? undefined : handoffPolicyOf(options.handoff);
    const given = options.goal === undefined ? undefined : resolveGoalOption(options.goal);
    this.#running.add(step);
    const stop = new AbortController();
    this.#stops.add(stop);
    let lease: StepLease | undefined;
    let left = false;
    try {
      lease = await StepLease.acquire({
        records: this.records,
        step,
        timing: { ...DEFAULT_LEASE_TIMING, ...this.options.internal.leaseTiming },
        now: this.options.internal.now,
        wait,
        signal: stop.signal,
        onWait: (error) => this.#bus.emit({ type: "lease-wait", step, holder: error.holder }),
      });
      // Read under the lease: while we waited, the holder may have moved the step on (here or, with a
      // shared store, on another machine: its record and frozen documents come from the store).
      await this.records.pull?.(step);
      await this.#sync?.restoreNotes();
      const record = continued === undefined ? undefined : this.#continuable(step);
      // A continued step runs as it was started; a new step of a workflow run as the run was started.
      const recorded =
        record?.settings ??
        (options.workflow !== undefined && record === undefined
          ? runSettings(
              this.records.list().filter((other) => other.step !== step),
              options.workflow.run,
            )
          : undefined);
      const { settings, overrides } = resolveStepSettings(this.#given(options, given?.review), recorded, {
        env: this.options.childEnv,
        locale: this.options.locale,
      });
      for (const override of overrides) this.#bus.emit({ type: "setting-override", step, ...override });
      const policy = new HandoffPolicy({
        enabled: settings.handoff.enabled,
        window: settings.handoff.window,
        headroom: settings.handoff.headroom,
        maxGenerations: stepPolicy?.given.maxGenerations ?? this.options.handoff.maxGenerations,
      });
      const continuation =
        record === undefined
          ? undefined
          : { record, prompt: continued?.prompt ?? CONTINUE_PROMPT[settings.locale] };
      // `continue` keeps guarding a step that ran with a goal: the goal recorded when its work began,
      // whatever goal it is given now, unless told to replace it (frozen-goal.ts).
      const goal = decideGoal(
        given,
        continuation?.record.guard?.goal,
        options.replaceGoal === true,
        options.goalFile ?? null,
      );
      const result = await this.#drive(
        step,
        spec,
        prompt,
        { policy, settings },
        stop,
        lease,
        continuation,
        options,
        goal,
      );
      left = true;
      await this.#leave(step);
      return result;
    } finally {
      if (lease && !left)
        await this.#leave(step).catch((error: unknown) => {
          process.stderr.write(`flower: the store did not get everything of "${step}": ${String(error)}\n`);
        });
      await lease?.release();
      this.#stops.delete(stop);
      this.#running.delete(step);
    }
  }

  /**
   * What this call names explicitly: the runtime's given options, the step's own handoff fields over
   * them, the goal's review (a workflow step without a goal: the run's `review`).
   */
  #given(options: RunOptions, review: boolean | undefined): GivenSettings {
    const workflowReview = options.workflow?.review;
    return {
      ...this.options.given,
      ...givenHandoff(options.handoff),
      ...(review !== undefined
        ? { review }
        : workflowReview !== undefined && options.goal === undefined
          ? { review: workflowReview }
          : {}),
    };
  }

  /**
   * A shared store must hold everything of the step before its lease goes: the notes as they are now,
   * and every record write. Throws the first write that did not reach it.
   */
  async #leave(step: string): Promise<void> {
    if (this.#sync) {
      this.#sync.saveNotes(step);
      await this.#sync.flush();
    }
    await this.records.flush?.(step);
  }

  /** A frozen document (a handoff, or a document a workflow froze) goes to the shared store at once. */
  #keepDocuments(event: FlowerEvent): void {
    const frozen =
      (event.type === "handoff" && event.phase === "done") || (event.type as string) === "document-frozen";
    if (frozen) this.#sync?.saveNotes((event as { step?: string }).step ?? "");
  }

  async #drive(
    step: string,
    spec: AgentSpec,
    prompt: string,
    { policy, settings }: { policy: HandoffPolicy; settings: StepSettings },
    stop: AbortController,
    lease: StepLease,
    continuation: { record: StepRecord; prompt: string } | undefined,
    options: RunOptions,
    { goal, change }: GoalDecision,
  ): Promise<StepResult> {
    const notesDir = this.workbench?.notes ?? join(this.options.workspace, DEFAULTS.workbenchDir, "notes");
    // A plain continue of a workflow's document step still ends in its document (built-in kinds only:
    // a custom spec must be passed again, it is code).
    const workflow = options.workflow ?? continuation?.record.workflow;
    const freeze =
      options.freeze ??
      (workflow?.document !== undefined ? BUILT_IN_DOCUMENTS[workflow.document] : undefined);
    const run = new StepRun(
      {
        step,
        agent: spec.name,
        prompt,
        policy,
        settings,
        locale: settings.locale,
        workspace: this.options.workspace,
        notesDir: this.workbench?.notes ?? null,
        maxAttempts: this.options.maxAttempts,
        stopSignal: stop.signal,
        ...(continuation ? { continuation } : {}),
        ...(workflow ? { workflow } : {}),
        // Without a workbench the document still needs a file: the next step reads it from disk.
        ...(freeze ? { freeze: { spec: freeze, run: workflow?.run ?? step, notesDir } } : {}),
        ...(goal ? { goal: { goal, logDir: this.#checkLogDir(step), env: process.env, change } } : {}),
      },
      this.#environment(step, spec, { policy, settings }, lease, goal !== undefined),
    );
    // The answer may quote what a tool printed: the caller (and the CLI printing it) gets it redacted.
    return this.#redactor.value(await run.run());
  }

  /** Where the goal's check logs go: `<workbench>/artifacts`, else a folder per step in the run directory. */
  #checkLogDir(step: string): string {
    return this.workbench
      ? this.workbench.artifacts
      : join(this.options.runDir, "goal-checks", safeFileName(step));
  }

  /** What the session options are built from: this runtime's options, workbench, store and kill switch. */
  #wiring(): SessionWiring {
    return {
      options: this.options,
      workbench: this.workbench,
      store: this.store,
      redact: (text) => this.#redactor.text(text),
      keepSpill: (path, step) => this.#sync?.saveFile(path, step),
      kill: this.#kill.signal,
    };
  }

  /** What a step gets from the runtime: persistence, session options, the store's reports, the bus. */
  #environment(
    step: string,
    spec: AgentSpec,
    { policy, settings }: { policy: HandoffPolicy; settings: StepSettings },
    lease: StepLease,
    guarded: boolean,
  ): StepEnvironment {
    const o = this.options;
    return {
      // Every write proves the lease still holds: a driver presumed dead must not overwrite its successor.
      save: (record) => this.records.put(this.#redactor.value(record), { lease: lease.token }),
      earlier: (name) => this.records.get(name),
      sessionOptions: (session) =>
        stepSessionOptions(this.#wiring(), { step, spec, policy, settings, session, lease, guarded }),
      redact: (text) => this.#redactor.text(text),
      reviewerOptions: () => reviewerSessionOptions(this.#wiring(), spec, lease, settings),
      // The index is refreshed before every session so the prompt block lists what is on disk now.
      beforeSession: async (resume) => {
        // A driver killed mid-turn left that turn only in the child's local JSONL: store it before resuming.
        if (resume)
          await recoverLocalTail(this.store.inner, resume, claudeProjectsDir({ ...process.env, ...o.env }));
        if (!this.workbench) return;
        await this.workbench.ensure();
        await this.workbench.refresh();
      },
      watchLoads: (sessionId, listener) => this.#loads.watch(sessionId, listener),
      emit: (event) => this.#bus.emit(event),
      query: o.internal.query,
      now: o.internal.now,
      handoffRequests: lease.requests,
    };
  }
}

/** The workflow option as `runWorkflow` sets it; a clear error for anything else. */
function checkMembership(workflow: WorkflowMembership): void {
  for (const field of ["run", "name", "task"] as const) {
    if (typeof workflow?.[field] !== "string" || workflow[field].trim() === "")
      throw new ConfigurationError(`workflow.${field}`, workflow?.[field], "a non-empty string");
  }
}
