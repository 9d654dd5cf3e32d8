/**
 * The step driver: what runs one step once the runtime has checked the call. It takes the step's lease,
 * reads the step under it (a holder we waited for may have moved it on), resolves the settings the step
 * runs with, decides the goal, hands the step to StepRun (which alone writes its record) and, before the
 * lease goes, makes sure a shared store holds everything of the step.
 *
 * Apart from runtime.ts because the runtime is the public object (options, store stack, events, stop and
 * close) and this is the lifecycle of one step inside it; it gets the runtime's parts once and each step
 * as one options object.
 */
import { join } from "node:path";
import type { AgentSpec } from "../../agents/agent-spec.js";
import { recallOffer } from "../../agents/recall-subagent.js";
import { DEFAULTS } from "../../defaults.js";
import { StepFailedError } from "../../errors.js";
import { safeFileName } from "../../fs/safe-file-name.js";
import { type ResolvedGoal } from "../../goal/goal-option.js";
import type { HandoffPolicy } from "../../handoff/policy.js";
import type { PruningSessionStore } from "../../session-layers/pruning-store.js";
import type { SecretRedactor } from "../../secret-redactor.js";
import type { Workbench } from "../../workbench/workbench.js";
import type { EventBus } from "../events.js";
import { decideGoal, type GoalDecision } from "../judge/frozen-goal.js";
import type { LoadRouter } from "../session/load-router.js";
import type { ResolvedRuntimeOptions } from "../options.js";
import { claudeProjectsDir, recoverLocalTail } from "./recover-local-tail.js";
import type { ContinueOptions, RunOptions } from "../run-options.js";
import { StepLease } from "./step-lease.js";
import { StepRun, type StepEnvironment } from "./step-run.js";
import {
  reviewerSessionOptions,
  stepSessionOptions,
  type SessionWiring,
} from "../session/session-options.js";
import { DEFAULT_LEASE_TIMING } from "../../records/lease.js";
import { recordedStep } from "../../records/recorded-step.js";
import type { RunRecords } from "../../records/run-records.js";
import type { StepRecord, StepResult, StepSettings } from "../../records/step-record.js";
import { effectiveSettings, runSettings, type GivenSettings } from "./step-settings.js";
import { builtInSpec } from "../../documents/builtin/index.js";
import { CONTINUE_PROMPT } from "../step-loop-text.js";
import { relocatedRecord, type WorkspaceSync } from "../files/workspace-sync.js";
import type { TelemetryHook } from "../../telemetry/hook.js";
import { toolResults } from "../../session-layers/passes/transcript-entries.js";
import { messageIdOf } from "../person/transcript-message.js";
import { MessageInbox } from "../person/message-inbox.js";
import { GitMissingError } from "../../checkpoints/git.js";
import type { WorkCarrier } from "../../checkpoints/work-carrier.js";
import { WorkTracker } from "../../checkpoints/work-tracker.js";
import { StepWork } from "../files/step-work.js";
import { handBack, openChain } from "../files/run-work.js";
import { runSpent, type Budget } from "../../records/run-spend.js";

/** The runtime's parts a step is driven with; built once by the runtime. */
export interface RuntimeParts {
  options: ResolvedRuntimeOptions;
  records: RunRecords;
  store: PruningSessionStore;
  workbench: Workbench | null;
  bus: EventBus;
  /** The credentials the child gets, kept out of the store, spill files, records and events. */
  redactor: SecretRedactor;
  loads: LoadRouter;
  /** Frozen documents and spill files to and from a shared store; null without one. */
  sync: WorkspaceSync | null;
  /** Records written on another machine (PostgreSQL): their handoff paths name that machine's checkout. */
  shared: boolean;
  /** The runtime's hard abort (close()): kills any claude child still running. */
  kill: AbortSignal;
  /** OpenTelemetry export, or null when off: the `claude` child gets its variables from it. */
  telemetry?: TelemetryHook | null;
  /** A shared store's log of checkpoints (the run's work travels with it); null with a local store. */
  carrier?: WorkCarrier | null;
}

/** One step to drive, already checked by the runtime (runtime.ts validates what a caller gave). */
export interface StepDrive {
  step: string;
  spec: AgentSpec;
  /** The step's task (on `continue`, the recorded one). */
  prompt: string;
  options: ContinueOptions;
  /** Set by `continue`: the prompt the resumed session gets (undefined: the locale's default). */
  continued?: { prompt: string | undefined };
  /** The step's soft stop (Ctrl-C: stop at the next message boundary). */
  stop: AbortController;
  /** The handoff fields given for this step only (over the runtime's); empty when none were given. */
  stepHandoff: GivenSettings;
  /** The goal given for this step, resolved; undefined when none was given. */
  given?: ResolvedGoal;
}

/** What #drive hands to StepRun: the step, how it runs, and under which lease. */
interface Drive {
  step: string;
  spec: AgentSpec;
  prompt: string;
  policy: HandoffPolicy;
  settings: StepSettings;
  stop: AbortController;
  lease: StepLease;
  continuation: { record: StepRecord; prompt: string } | undefined;
  options: RunOptions;
  goal: GoalDecision;
}

/** The ceilings a step runs under: the run's recorded budget, and the runtime's own (a fleet's day). */
function budgetsOf(settings: StepSettings, extra: readonly Budget[] | undefined): { budgets?: Budget[] } {
  const budgets: Budget[] = [
    ...(settings.budgetUsd !== undefined ? [{ by: "run" as const, usd: settings.budgetUsd, offset: 0 }] : []),
    ...(extra ?? []),
  ];
  return budgets.length > 0 ? { budgets } : {};
}

export class StepDriver {
  readonly #parts: RuntimeParts;

  constructor(parts: RuntimeParts) {
    this.#parts = parts;
  }

  /** Runs one step under its lease to its result; the lease goes, and the store holds the step, after. */
  async run(drive: StepDrive): Promise<StepResult> {
    const { step, options, continued, stop, stepHandoff, given } = drive;
    const { records, bus } = this.#parts;
    const o = this.#parts.options;
    let lease: StepLease | undefined;
    let left = false;
    try {
      lease = await StepLease.acquire({
        records,
        step,
        timing: { ...DEFAULT_LEASE_TIMING, ...o.internal.leaseTiming },
        now: o.internal.now,
        wait: options.wait ?? false,
        signal: stop.signal,
        onWait: (error) => bus.emit({ type: "lease-wait", step, holder: error.holder }),
        onTakeover: (holder) => bus.emit({ type: "lease-takeover", step, holder }),
      });
      // Read under the lease: while we waited, the holder may have moved the step on (here or, with a
      // shared store, on another machine: its record and frozen documents come from the store).
      await records.pull?.(step, { lease: lease.token });
      await this.#parts.sync?.restoreNotes();
      const record = continued === undefined ? undefined : this.#continuable(step);
      // A continued step runs as it was started; a new step of a workflow run as the run was started.
      const recorded =
        record?.settings ??
        (options.workflow !== undefined && record === undefined
          ? runSettings(
              records.list().filter((other) => other.step !== step),
              options.workflow.run,
            )
          : undefined);
      const { settings, policy, overrides } = effectiveSettings(
        this.#given(stepHandoff, options, given?.review),
        recorded,
        { env: o.childEnv, locale: o.locale },
      );
      for (const override of overrides) bus.emit({ type: "setting-override", step, ...override });
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
      const result = await this.#drive({
        step,
        spec: drive.spec,
        prompt: drive.prompt,
        policy,
        settings,
        stop,
        lease,
        continuation,
        options,
        goal,
      });
      left = true;
      await this.#leave(step);
      await this.#handBack(step, options.workflow?.run ?? record?.run ?? step);
      return result;
    } catch (error) {
      // A failed step's work is handed back too: the person may want what it got done.
      if (lease && error instanceof StepFailedError)
        await this.#handBack(step, options.workflow?.run ?? records.get(step)?.run ?? step);
      throw error;
    } finally {
      if (lease && !left)
        await this.#leave(step).catch((error: unknown) => {
          process.stderr.write(`flower: the store did not get everything of "${step}": ${String(error)}\n`);
        });
      await lease?.release();
    }
  }

  /**
   * After a step: the run's work as the branch `flower/<run>` of the workspace's repository. A failure is
   * said (work-warning) and does not change how the step ended.
   */
  async #handBack(step: string, run: string): Promise<void> {
    const o = this.#parts.options;
    if (!o.work.checkpoints || !o.work.branch) return;
    try {
      const record = this.#parts.records.get(step);
      if (!record?.work) return;
      const chain = await openChain({ options: o, records: this.#parts.records, carrier: null }, run);
      // The step's end is the run's end for now: its shadow repository is packed and pruned after.
      const handed = await handBack(chain).finally(() => chain.tracker.close({ maintain: true }));
      if (handed !== null)
        this.#parts.bus.emit({
          type: "work-branch",
          step,
          run,
          branch: handed.branch,
          commits: handed.commits,
          repository: handed.repository,
        });
    } catch (error) {
      this.#parts.bus.emit({
        type: "work-warning",
        step,
        message: `the run's work could not be handed back as a branch: ${(error as Error).message}`,
      });
    }
  }

  /**
   * The record of a step that `continue` picks up. One that never got a session (its driver killed before
   * the first answer, which a busy machine makes likely) starts from its task in that same record.
   */
  #continuable(step: string): StepRecord {
    const record = recordedStep(this.#parts.records, step);
    // Recorded on another machine: its handoff paths name that machine's checkout.
    return this.#parts.shared ? relocatedRecord(record, this.#parts.options.workspace) : record;
  }

  /**
   * What this call names explicitly: the runtime's given options, the step's own handoff fields over
   * them, the goal's review (a workflow step without a goal: the run's `review`).
   */
  #given(stepHandoff: GivenSettings, options: RunOptions, review: boolean | undefined): GivenSettings {
    const workflowReview = options.workflow?.review;
    return {
      ...this.#parts.options.given,
      ...stepHandoff,
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
    const sync = this.#parts.sync;
    if (sync) {
      sync.saveNotes(step);
      await sync.flush();
    }
    await this.#parts.records.flush?.(step);
  }

  async #drive(drive: Drive): Promise<StepResult> {
    const { step, spec, prompt, policy, settings, stop, continuation, options } = drive;
    const { goal, change } = drive.goal;
    const o = this.#parts.options;
    const workbench = this.#parts.workbench;
    const notesDir = workbench?.notes ?? join(o.workspace, DEFAULTS.workbenchDir, "notes");
    // A plain continue of a workflow's document step still ends in its document (built-in kinds only:
    // a custom spec must be passed again, it is code).
    const workflow = options.workflow ?? continuation?.record.workflow;
    const freeze =
      options.freeze ?? (workflow?.document !== undefined ? builtInSpec(workflow.document) : undefined);
    // A step name run again from its start (rt.run, not continue) begins a new chain of its files.
    const again = continuation === undefined && this.#parts.records.get(step) !== undefined;
    const work = await this.#openWork(
      step,
      workflow?.run ?? continuation?.record.run ?? step,
      drive.lease,
      again,
    );
    // A person's messages are the run's (a workflow run's current step gets them): read while it runs.
    const inbox = new MessageInbox(
      this.#parts.records.messages,
      workflow?.run ?? continuation?.record.run ?? step,
    );
    const run = new StepRun(
      {
        step,
        agent: spec.name,
        prompt,
        policy,
        settings,
        locale: settings.locale,
        workspace: o.workspace,
        notesDir: workbench?.notes ?? null,
        maxAttempts: o.maxAttempts,
        stopSignal: stop.signal,
        ...(continuation ? { continuation } : {}),
        ...(workflow ? { workflow } : {}),
        // Without a workbench the document still needs a file: the next step reads it from disk.
        ...(freeze ? { freeze: { spec: freeze, run: workflow?.run ?? step, notesDir } } : {}),
        ...(goal ? { goal: { goal, logDir: this.#checkLogDir(step), env: process.env, change } } : {}),
        ...(o.recall ? { recall: recallOffer(spec) } : {}),
        ...budgetsOf(settings, o.internal.budgets),
      },
      {
        ...this.#environment(step, spec, { policy, settings }, drive.lease, goal !== undefined, work),
        messages: inbox,
        // The run's other steps (a workflow's earlier ones): their spend counts against its budget.
        spentElsewhere: () =>
          runSpent(
            this.#parts.records.list().filter((record) => record.step !== step),
            workflow?.run ?? continuation?.record.run ?? step,
          ),
      },
    );
    try {
      // The answer may quote what a tool printed: the caller (and the CLI printing it) gets it redacted.
      return this.#parts.redactor.value(await run.run());
    } finally {
      inbox.stop();
      // Its shell ends; the shadow repository is packed after the hand-back (#handBack).
      await work?.tracker.close();
    }
  }

  /** Where the goal's check logs go: `<workbench>/artifacts`, else a folder per step in the run directory. */
  #checkLogDir(step: string): string {
    const workbench = this.#parts.workbench;
    return workbench
      ? workbench.artifacts
      : join(this.#parts.options.runDir, "goal-checks", safeFileName(step));
  }

  /** What the session options are built from: this runtime's options, workbench, store and kill switch. */
  #wiring(): SessionWiring {
    const { options, workbench, store, redactor, sync, kill, telemetry } = this.#parts;
    return {
      options,
      workbench,
      store,
      redact: (text) => redactor.text(text),
      keepSpill: (path, step) => sync?.saveFile(path, step),
      kill,
      ...(telemetry ? { telemetryEnv: (step: string) => telemetry.childEnv(step) } : {}),
    };
  }

  /** What a step gets from the runtime: persistence, session options, the store's reports, the bus. */
  #environment(
    step: string,
    spec: AgentSpec,
    { policy, settings }: { policy: HandoffPolicy; settings: StepSettings },
    lease: StepLease,
    guarded: boolean,
    work: StepWork | undefined,
  ): StepEnvironment {
    const { options: o, records, store, workbench, bus, redactor, loads } = this.#parts;
    return {
      // Every write proves the lease still holds: a driver presumed dead must not overwrite its successor.
      save: (record) => records.put(redactor.value(record), { lease: lease.token }),
      earlier: (name) => records.get(name),
      sessionOptions: (session) =>
        stepSessionOptions(this.#wiring(), {
          step,
          spec,
          policy,
          settings,
          session,
          lease,
          guarded,
          work,
          ...(o.recall ? { recall: recallOffer(spec) } : {}),
        }),
      redact: (text) => redactor.text(text),
      reviewerOptions: () => reviewerSessionOptions(this.#wiring(), spec, lease, settings),
      // The index is refreshed before every session so the prompt block lists what is on disk now.
      beforeSession: async (resume) => {
        // A driver killed mid-turn left that turn only in the child's local JSONL: store it before resuming.
        if (resume)
          await recoverLocalTail(store.inner, resume, claudeProjectsDir({ ...process.env, ...o.env }));
        if (!workbench) return;
        await workbench.ensure();
        await workbench.refresh();
      },
      watchLoads: (sessionId, listener) => loads.watch(sessionId, listener),
      emit: (event) => bus.emit(event),
      query: o.internal.query,
      now: o.internal.now,
      handoffRequests: lease.requests,
      messagesInTranscript: async (sessionId, ids) => {
        // The killed driver's last turn may be only in the child's local JSONL: stored first.
        await recoverLocalTail(store.inner, sessionId, claudeProjectsDir({ ...process.env, ...o.env }));
        return transcriptMessages(store, sessionId, ids);
      },
      ...(work ? { work } : {}),
    };
  }

  /**
   * The run's work for this step: its chain in the workspace's shadow repository, under this lease. Off
   * when the runtime's `work.checkpoints` is false; without git (or when the shadow repository cannot be
   * opened) the step runs as before and a `work-warning` says why its files are not checkpointed.
   */
  async #openWork(
    step: string,
    run: string,
    lease: StepLease,
    again: boolean,
  ): Promise<StepWork | undefined> {
    const { options: o, store, bus, carrier } = this.#parts;
    if (!o.work.checkpoints) return undefined;
    try {
      const tracker = await WorkTracker.open({
        workspace: o.workspace,
        runDir: o.runDir,
        run,
        owned: o.work.isolated,
        carrier: carrier ?? null,
        fence: () => ({ step, lease: lease.token }),
        maxFileBytes: o.work.maxFileBytes,
        redactor: this.#parts.redactor,
        now: o.internal.now,
      });
      if (again) await tracker.restart();
      const projects = claudeProjectsDir({ ...process.env, ...o.env });
      const recovered = new Set<string>();
      return new StepWork({
        step,
        tracker,
        hasResult: async (session, call) => {
          // The killed driver's last turn may be only in the child's local JSONL: stored first.
          if (!recovered.has(session)) {
            recovered.add(session);
            await recoverLocalTail(store.inner, session, projects);
          }
          return transcriptHasResult(store, session, call);
        },
      });
    } catch (error) {
      bus.emit({
        type: "work-warning",
        step,
        message:
          error instanceof GitMissingError
            ? error.message
            : `the run's files are not checkpointed: ${(error as Error).message}`,
      });
      return undefined;
    }
  }
}

/**
 * Whether any stored copy of a session's main transcript holds the result of the tool call `call`. Read
 * below the rewrite passes (`inner`): a pass may leave a result out of what a resumed session is fed,
 * but the call still ran and its files are still the run's.
 */
async function transcriptHasResult(
  store: PruningSessionStore,
  sessionId: string,
  call: string,
): Promise<boolean> {
  for (const projectKey of await store.projectKeysOf(sessionId)) {
    const entries = (await store.inner.load({ projectKey, sessionId })) ?? [];
    if (entries.some((entry) => toolResults(entry).some((block) => block.tool_use_id === call))) return true;
  }
  return false;
}

/**
 * Which of the person's messages `ids` a session's stored transcript holds: as a turn of its own (a user
 * entry with the message's uuid) or folded in at a boundary (a `queued_command` attachment naming it).
 * Read below the rewrite passes (`inner`), as the transcript was written.
 */
async function transcriptMessages(
  store: PruningSessionStore,
  sessionId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const wanted = new Set(ids);
  const found = new Set<string>();
  for (const projectKey of await store.projectKeysOf(sessionId)) {
    for (const entry of (await store.inner.load({ projectKey, sessionId })) ?? []) {
      const id = messageIdOf(entry);
      if (id !== null && wanted.has(id)) found.add(id);
    }
  }
  return found;
}
