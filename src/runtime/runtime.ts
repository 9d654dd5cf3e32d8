/**
 * The runtime: wiring only. It validates options, owns the run directory (records + session store) or the
 * shared store that replaces it (backing-store.ts), the workbench and the event bus, and hands each step
 * to StepRun, which alone writes the step's record.
 */
import { mkdirSync } from "node:fs";
import type { HookCallbackMatcher, Options } from "@anthropic-ai/claude-agent-sdk";
import type { AgentSpec } from "../agents/agent-spec.js";
import { buildOptions, type HookMap } from "../agents/build-options.js";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError, StepFailedError } from "../errors.js";
import { indexGuard } from "../guards/index-guard.js";
import { spillGuards } from "../guards/spill-guard.js";
import { HandoffPolicy } from "../handoff/policy.js";
import { PruningSessionStore } from "../store/pruning-store.js";
import { Workbench } from "../workbench/workbench.js";
import { EventBus, type FlowerEvent } from "./events.js";
import { LoadRouter } from "./load-router.js";
import {
  resolveHandoffPolicy,
  resolveRuntimeOptions,
  type ResolvedRuntimeOptions,
  type RuntimeOptions,
} from "./options.js";
import { openBackingStore, type BackingStore } from "./backing-store.js";
import { deleteStepSessions } from "./retention.js";
import { StepLease } from "./step-lease.js";
import { StepRun, type StepEnvironment } from "./step-run.js";
import { DEFAULT_LEASE_TIMING } from "../records/lease.js";
import type { RunRecords } from "../records/run-records.js";
import type { StepRecord, StepResult } from "../records/step-record.js";
import { CONTINUE_PROMPT } from "./text.js";
import { relocatedRecord, WorkspaceSync } from "./workspace-sync.js";

export interface RunOptions {
  /** Handoff policy for this step only (e.g. per model or per role); overrides the runtime's. */
  handoff?: HandoffPolicy | boolean;
  /**
   * When another live driver holds the step: wait for it (true: as long as it takes; a number: at most
   * that many ms) instead of failing with LeaseHeldError at once. @default false
   */
  wait?: boolean | number;
}

export interface ContinueOptions extends RunOptions {
  /** The prompt the resumed session gets. @default "Continue the task." (zh: "继续。") */
  prompt?: string;
}

export class Runtime {
  readonly options: ResolvedRuntimeOptions;
  /** Step records and leases (records.db, mirrored to manifest.json; written through to a shared store). */
  readonly records: RunRecords;
  readonly store: PruningSessionStore;
  readonly workbench: Workbench | null;
  readonly #bus = new EventBus();
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
    mkdirSync(this.options.runDir, { recursive: true });
    this.#backing = openBackingStore(this.options.store, this.options.runDir, this.options.workspace);
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

  /** Subscribe to events; returns the unsubscribe function. */
  on(listener: (event: FlowerEvent) => void): () => void {
    return this.#bus.on(listener);
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
    const prompt = options.prompt ?? CONTINUE_PROMPT[this.options.locale];
    return this.#runStep(step, spec, record.prompt, options, prompt);
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
    options: RunOptions,
    continuePrompt: string | undefined,
  ): Promise<StepResult> {
    if (!spec || typeof spec !== "object" || typeof spec.instructions !== "string") {
      throw new ConfigurationError("spec", spec, "an AgentSpec (see coordinator() and worker())");
    }
    const wait = options.wait ?? false;
    if (typeof wait !== "boolean" && !(typeof wait === "number" && wait >= 0))
      throw new ConfigurationError("wait", wait, "a boolean or a number of milliseconds >= 0");
    const policy =
      options.handoff === undefined
        ? this.options.handoff
        : resolveHandoffPolicy(options.handoff, this.options.env);
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
      const continuation =
        continuePrompt === undefined
          ? undefined
          : { record: this.#continuable(step), prompt: continuePrompt };
      const result = await this.#drive(step, spec, prompt, policy, stop, lease, continuation);
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
    policy: HandoffPolicy,
    stop: AbortController,
    lease: StepLease,
    continuation: { record: StepRecord; prompt: string } | undefined,
  ): Promise<StepResult> {
    const run = new StepRun(
      {
        step,
        agent: spec.name,
        prompt,
        policy,
        locale: this.options.locale,
        workspace: this.options.workspace,
        notesDir: this.workbench?.notes ?? null,
        maxAttempts: this.options.maxAttempts,
        stopSignal: stop.signal,
        ...(continuation ? { continuation } : {}),
      },
      this.#environment(step, spec, policy, lease),
    );
    return run.run();
  }

  /** What a step gets from the runtime: persistence, session options, the store's reports, the bus. */
  #environment(step: string, spec: AgentSpec, policy: HandoffPolicy, lease: StepLease): StepEnvironment {
    const o = this.options;
    return {
      // Every write proves the lease still holds: a driver presumed dead must not overwrite its successor.
      save: (record) => this.records.put(record, { lease: lease.token }),
      earlier: (name) => this.records.get(name),
      sessionOptions: (session) => this.#sessionOptions(step, spec, policy, session, lease),
      // The index is refreshed before every session so the prompt block lists what is on disk now.
      beforeSession: async () => {
        if (!this.workbench) return;
        await this.workbench.ensure();
        await this.workbench.refresh();
      },
      watchLoads: (sessionId, listener) => this.#loads.watch(sessionId, listener),
      emit: (event) => this.#bus.emit(event),
      query: o.internal.query,
      now: o.internal.now,
    };
  }

  #sessionOptions(
    step: string,
    spec: AgentSpec,
    policy: HandoffPolicy,
    session: { resume?: string; writing: boolean; sink: (event: FlowerEvent) => void },
    lease: StepLease,
  ): Options {
    const o = this.options;
    const { resume, writing, sink } = session;
    const postToolUse: HookCallbackMatcher[] = [];
    const spilling = this.workbench !== null && o.spillThreshold !== null;
    if (this.workbench) {
      postToolUse.push(
        ...spillGuards({
          dir: this.workbench.spill,
          threshold: o.spillThreshold,
          locale: o.locale,
          onSpill: (info) => {
            // The transcript now points at this file: another machine resuming it must find it.
            this.#sync?.saveFile(info.path, step);
            sink({ type: "spill", step, tool: info.tool, path: info.path, chars: info.chars });
          },
        }),
        indexGuard(this.workbench),
      );
    }
    const hooks: HookMap = postToolUse.length > 0 ? { PostToolUse: postToolUse } : {};
    return buildOptions(spec, {
      workspace: o.workspace,
      locale: o.locale,
      env: o.env,
      handoffEnabled: policy.enabled,
      systemAppend: this.workbench && spec.role === "coordinator" ? [this.workbench.promptBlock()] : [],
      hooks,
      ...(spilling ? { settings: { bashOutputMaxChars: DEFAULTS.cliBashInlineMaxChars } } : {}),
      sessionStore: this.store,
      ...(resume ? { resume } : {}),
      ...(o.model ? { model: o.model } : {}),
      // The writing turn must be able to finish: no budget cap there.
      ...(o.maxBudgetUsd !== undefined && !writing ? { maxBudgetUsd: o.maxBudgetUsd } : {}),
      abortController: childAbort(this.#kill.signal),
      onSpawn: (pid) => lease.addChild(pid),
      onDeny: (denial) =>
        sink({
          type: "tool-denied",
          step,
          tool: denial.tool,
          command: denial.command,
          reason: denial.reason,
        }),
    });
  }
}

/** A fresh controller per session that follows the runtime's kill signal. */
function childAbort(kill: AbortSignal): AbortController {
  const controller = new AbortController();
  if (kill.aborted) controller.abort();
  else kill.addEventListener("abort", () => controller.abort(), { once: true });
  return controller;
}
