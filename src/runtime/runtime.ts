/**
 * The runtime: wiring only. It validates options, owns the run directory (manifest + session store),
 * the workbench and the event bus, and hands each step to run-step.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { HookCallbackMatcher } from "@anthropic-ai/claude-agent-sdk";
import type { AgentSpec } from "../agents/agent-spec.js";
import { buildOptions, type HookMap } from "../agents/build-options.js";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError, StepFailedError } from "../errors.js";
import { spillGuards } from "../guards/spill-guard.js";
import { indexGuard } from "../guards/index-guard.js";
import { HandoffPolicy } from "../handoff/policy.js";
import { PruningSessionStore } from "../store/pruning-store.js";
import { Workbench } from "../workbench/workbench.js";
import { EventBus, type FlowerEvent } from "./events.js";
import { Manifest } from "./manifest.js";
import { deleteStepSessions } from "./retention.js";
import { resolveRuntimeOptions, type ResolvedRuntimeOptions, type RuntimeOptions } from "./options.js";
import { StepRun } from "./run-step.js";
import type { RewriteReport } from "../store/passes/report.js";
import type { StepRecord, StepResult } from "./step-result.js";

export interface RunOptions {
  /** Handoff policy for this step only (e.g. per model or per role); overrides the runtime's. */
  handoff?: HandoffPolicy | boolean;
}

export interface ContinueOptions extends RunOptions {
  /** The prompt the resumed session gets. @default "Continue the task." (zh: "继续。") */
  prompt?: string;
}

const CONTINUE_PROMPT = { zh: "继续。", en: "Continue the task." } as const;

export class Runtime {
  readonly options: ResolvedRuntimeOptions;
  readonly manifest: Manifest;
  readonly store: PruningSessionStore;
  readonly workbench: Workbench | null;
  readonly #bus = new EventBus();
  /** One soft stop per running step (Ctrl-C: stop at the next message boundary). */
  readonly #stops = new Set<AbortController>();
  /** Hard abort for close(): kills any claude child still running. */
  readonly #kill = new AbortController();
  /** Session id → the step running it, so store loads are booked to the right step. */
  readonly #sessions = new Map<string, StepRun>();
  /** Sessions resumed only to write a handoff: their store loads are booked but not shown. */
  readonly #writing = new Set<string>();
  readonly #running = new Set<string>();

  constructor(options: RuntimeOptions) {
    this.options = resolveRuntimeOptions(options);
    mkdirSync(this.options.runDir, { recursive: true });
    this.manifest = new Manifest(this.options.runDir);
    if (this.options.onEvent) this.#bus.on(this.options.onEvent);
    this.workbench = this.options.workbench
      ? new Workbench({ workspace: this.options.workspace, locale: this.options.locale })
      : null;
    this.store = new PruningSessionStore({
      path: join(this.options.runDir, "sessions.db"),
      workspace: this.options.workspace,
      trim: this.options.trim ?? false,
      locale: this.options.locale,
      onLoad: (key, report) => {
        if (key.subpath) return;
        // Bookkeeping must never break a resume: a failure here is reported, the load goes on.
        try {
          this.#bookLoad(key.sessionId, report);
        } catch (error) {
          process.stderr.write(
            `flower: could not record a store load for ${key.sessionId}: ${String(error)}\n`,
          );
        }
      },
    });
  }

  /** Books what the store rewrote on a resume to the step running that session, and emits it. */
  #bookLoad(sessionId: string, report: RewriteReport): void {
    const run = this.#sessions.get(sessionId);
    if (run) {
      run.record.storeLoads.push({ sessionId, at: new Date().toISOString(), ...report });
      run.save();
    }
    // The handoff-writing turn emits nothing to the UI.
    if (!this.#writing.has(sessionId))
      this.#bus.emit({ type: "store-load", step: run?.record.step ?? "", sessionId, ...report });
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
    const record = this.manifest.get(step);
    if (!record) {
      throw new ConfigurationError(
        "step",
        step,
        `a step recorded in ${this.manifest.path} (known: ${
          this.manifest
            .steps()
            .map((s) => s.step)
            .join(", ") || "none"
        })`,
      );
    }
    if (!record.sessionId && !record.pendingHandoff && !record.pendingPrompt) {
      throw new StepFailedError(step, "it has no session to resume yet; run it again with rt.run()");
    }
    const prompt = options.prompt ?? CONTINUE_PROMPT[this.options.locale];
    return this.#runStep(step, spec, record.prompt, options, { record, prompt });
  }

  /** The most recently updated step of this run directory, if any. */
  lastStep(): StepRecord | undefined {
    return this.manifest
      .steps()
      .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt))
      .at(-1);
  }

  /**
   * Retention: deletes a step's sessions (burned generations and the current one, with their subagent
   * transcripts) from the session store; the manifest record stays. Returns how many were deleted.
   */
  async deleteSessions(step: string): Promise<number> {
    if (this.#running.has(step)) throw new ConfigurationError("step", step, "a step that is not running");
    return deleteStepSessions(this.manifest, this.store, step);
  }

  /** Stops the running steps at the next message boundary; their records stay continuable. */
  stop(): void {
    for (const stop of this.#stops) stop.abort();
  }

  /** Kills whatever still runs and closes the session store. The runtime cannot be used afterwards. */
  close(): void {
    this.#kill.abort();
    // SQLite closes synchronously inside this call; a network store finishes in the background.
    this.store.close().catch((error: unknown) => {
      process.stderr.write(`flower: could not close the session store: ${String(error)}\n`);
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
    continuation: { record: StepRecord; prompt: string } | undefined,
  ): Promise<StepResult> {
    if (!spec || typeof spec !== "object" || typeof spec.instructions !== "string") {
      throw new ConfigurationError("spec", spec, "an AgentSpec (see coordinator() and worker())");
    }
    const policy = options.handoff === undefined ? this.options.handoff : HandoffPolicy.from(options.handoff);
    const o = this.options;
    this.#running.add(step);
    const stop = new AbortController();
    this.#stops.add(stop);
    // Assigned right below; the closures only run once the step has started.
    // eslint-disable-next-line prefer-const
    let run: StepRun | undefined;
    /** Spills and denials are counted on the step record, whether or not the event is shown. */
    const count = (event: FlowerEvent) => {
      if (!run) return;
      if (event.type === "spill") {
        run.record.spills += 1;
        run.record.spilledChars += event.chars;
      }
      if (event.type === "tool-denied") run.record.denials += 1;
    };
    const emit = (event: FlowerEvent) => {
      count(event);
      this.#bus.emit(event);
    };
    run = new StepRun({
      step,
      agent: spec.name,
      prompt,
      policy,
      locale: o.locale,
      workspace: o.workspace,
      notesDir: this.workbench?.notes ?? null,
      maxAttempts: o.maxAttempts,
      manifest: this.manifest,
      emit,
      stopSignal: stop.signal,
      ...(continuation ? { continuation } : {}),
      onSession: (sessionId, writing) => {
        if (run) this.#sessions.set(sessionId, run);
        if (writing) this.#writing.add(sessionId);
      },
      // The index is refreshed before every session so the prompt block lists what is on disk now.
      beforeSession: async () => {
        if (!this.workbench) return;
        await this.workbench.ensure();
        await this.workbench.refresh();
      },
      optionsFor: ({ resume, writing }) => {
        // The writing turn's hooks still count spills and denials but show nothing.
        const sessionEmit = writing ? count : emit;
        const postToolUse: HookCallbackMatcher[] = [];
        const spilling = this.workbench !== null && o.spillThreshold !== null;
        if (this.workbench) {
          postToolUse.push(
            ...spillGuards({
              dir: this.workbench.spill,
              threshold: o.spillThreshold,
              locale: o.locale,
              onSpill: (info) =>
                sessionEmit({ type: "spill", step, tool: info.tool, path: info.path, chars: info.chars }),
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
          ...(o.maxBudgetUsd !== undefined && !writing ? { maxBudgetUsd: o.maxBudgetUsd } : {}),
          abortController: childAbort(this.#kill.signal),
          onDeny: (denial) =>
            sessionEmit({
              type: "tool-denied",
              step,
              tool: denial.tool,
              command: denial.command,
              reason: denial.reason,
            }),
        });
      },
    });
    try {
      return await run.run();
    } finally {
      this.#stops.delete(stop);
      this.#running.delete(step);
    }
  }
}

/** A fresh controller per session that follows the runtime's kill signal. */
function childAbort(kill: AbortSignal): AbortController {
  const controller = new AbortController();
  if (kill.aborted) controller.abort();
  else kill.addEventListener("abort", () => controller.abort(), { once: true });
  return controller;
}
