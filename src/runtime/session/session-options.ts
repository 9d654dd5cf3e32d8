/**
 * The SDK options of one session: the agent's spec turned into `query()` options, plus the guards the
 * runtime installs around it (claims, spill, index), the session store, the budget and the kill switch.
 * Built per session, because a resume, the handoff-writing turn and the reviewer each differ a little.
 */
import type { HookCallbackMatcher, Options } from "@anthropic-ai/claude-agent-sdk";
import type { AgentSpec } from "../../agents/agent-spec.js";
import { buildOptions, mergeHooks, type HookMap } from "../../agents/build-options.js";
import type { StderrSink } from "../../agents/spawn-claude.js";
import { DEFAULTS } from "../../defaults.js";
import { REVIEWER_INSTRUCTIONS } from "../../goal/review-text.js";
import { claimGuard } from "../../guards/claim-guard.js";
import { indexGuard } from "../../guards/index-guard.js";
import { spillGuards } from "../../guards/spill-guard.js";
import { writingGuard } from "../../guards/writing-guard.js";
import type { HandoffPolicy } from "../../handoff/policy.js";
import type { Locale } from "../../locale/locale.js";
import type { PruningSessionStore } from "../../session-layers/pruning-store.js";
import type { Workbench } from "../../workbench/workbench.js";
import type { FlowerEvent } from "../events.js";
import type { ResolvedRuntimeOptions } from "../options.js";
import type { StepLease } from "../drive/step-lease.js";
import type { StepSettings } from "../../records/step-record.js";
import type { StepWork } from "../files/step-work.js";
import type { RecallOffer } from "../../agents/recall-subagent.js";
import type { GenerationSessions } from "../../records/earlier-generations.js";
import { recallSearch } from "./recall-access.js";

/** What the step loop asks of one session's options; the step's own parts come from the wiring. */
export interface SessionRequest {
  resume?: string;
  /** With `resume`: go on from this transcript entry (a rewind by turn took the later ones back). */
  resumeAt?: string;
  writing: boolean;
  sink: (event: FlowerEvent) => void;
  stderr?: StderrSink;
  /** The generation the session belongs to (a checkpoint's commit message names it). */
  generation?: () => number;
  /** The step's generations before this session's: a successor can recall them. */
  earlier?: readonly GenerationSessions[];
}

/** What the runtime lends every session. */
export interface SessionWiring {
  options: ResolvedRuntimeOptions;
  workbench: Workbench | null;
  store: PruningSessionStore;
  /** Takes the credentials out of text that goes to disk (a spill file). */
  redact: (text: string) => string;
  /** A spill file the transcript now points at: a shared store must keep it for another machine. */
  keepSpill: (path: string, step: string) => void;
  /** The runtime's hard stop: close() kills every claude child through it. */
  kill: AbortSignal;
  /** With telemetry on: the variables that tie the step's `claude` child to its run, step and generation. */
  telemetryEnv?: (step: string) => Record<string, string>;
}

/** The child's extra environment: the runtime's `env`, and telemetry's variables when it is on. */
function childEnvOf(wiring: SessionWiring, step: string): Record<string, string> {
  const env = wiring.options.env;
  return wiring.telemetryEnv ? { ...env, ...wiring.telemetryEnv(step) } : env;
}

export interface StepSession {
  step: string;
  spec: AgentSpec;
  policy: HandoffPolicy;
  /** The step's settings (model, budget, language): recorded, or as given for a new step. */
  settings: StepSettings;
  session: SessionRequest;
  lease: StepLease;
  /** The run's work: a checkpoint after each main-thread call (step-work.ts); absent when off. */
  work?: StepWork | undefined;
  /** A goal guards the step: subagent reports that claim success are checked for evidence. */
  guarded: boolean;
  /** How a successor reaches recall (runtime option `recall`); absent: off. */
  recall?: RecallOffer;
}

/** Options for a session of the step's own agent (the coordinator, or a step's document agent). */
export function stepSessionOptions(wiring: SessionWiring, input: StepSession): Options {
  const o = wiring.options;
  const { step, spec, policy, lease, guarded, settings } = input;
  const locale = settings.locale;
  const { resume, writing, sink } = input.session;
  const postToolUse: HookCallbackMatcher[] = [];
  if (guarded) {
    postToolUse.push(
      claimGuard({
        locale,
        onFlag: (claim) => sink({ type: "claim-flagged", step, ...claim }),
      }),
    );
  }
  const workbench = wiring.workbench;
  const spilling = workbench !== null && o.spillThreshold !== null;
  if (workbench) {
    postToolUse.push(
      ...spillGuards({
        dir: workbench.spill,
        threshold: o.spillThreshold,
        locale,
        redact: wiring.redact,
        onSpill: (info) => {
          // The transcript now points at this file: another machine resuming it must find it.
          wiring.keepSpill(info.path, step);
          sink({ type: "spill", step, tool: info.tool, path: info.path, chars: info.chars });
        },
      }),
      indexGuard(workbench),
    );
  }
  // The checkpoint hooks go last: a call's checkpoint holds what the other hooks did to the files too.
  const hooks: HookMap = mergeHooks(
    postToolUse.length > 0 ? { PostToolUse: postToolUse } : {},
    input.work ? input.work.hooks(input.session.generation ?? (() => 0), sink) : {},
  );
  // The writing turn answers with the handoff's text; a subagent or a file would take it elsewhere.
  if (writing) hooks.PreToolUse = [writingGuard(o.locale)];
  // A successor recalls the generations before it. Every session of a generation gets the same tools,
  // its writing turn too (a different list would break the prompt cache); the first generation none.
  const earlier = input.session.earlier ?? [];
  const recall =
    input.recall && earlier.length > 0
      ? { offer: input.recall, search: recallSearch(wiring.store, earlier, locale, wiring.redact) }
      : undefined;
  return buildOptions(spec, {
    workspace: o.workspace,
    locale,
    env: childEnvOf(wiring, step),
    handoffEnabled: policy.enabled,
    systemAppend: workbench && spec.role === "coordinator" ? [workbench.promptBlock()] : [],
    hooks,
    ...(spilling ? { settings: { bashOutputMaxChars: DEFAULTS.cliBashInlineMaxChars } } : {}),
    sessionStore: wiring.store,
    ...storeFlush(o),
    ...(resume ? { resume } : {}),
    ...(resume && input.session.resumeAt ? { resumeSessionAt: input.session.resumeAt } : {}),
    ...(settings.model !== null ? { model: settings.model } : {}),
    // The writing turn must be able to finish: no budget cap there.
    ...(settings.maxBudgetUsd !== null && !writing ? { maxBudgetUsd: settings.maxBudgetUsd } : {}),
    abortController: childAbort(wiring.kill),
    onSpawn: (pid) => lease.addChild(pid),
    ...(input.session.stderr ? { stderr: input.session.stderr } : {}),
    ...(recall ? { recall } : {}),
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

/** The reviewer's session: fresh, read-only, no hooks of the coordinator's, the step's store and model. */
export function reviewerSessionOptions(
  wiring: SessionWiring,
  spec: AgentSpec,
  lease: StepLease,
  settings: StepSettings,
): Options {
  const o = wiring.options;
  return buildOptions(reviewerSpec(spec, settings.locale), {
    workspace: o.workspace,
    locale: settings.locale,
    env: childEnvOf(wiring, lease.step),
    handoffEnabled: false,
    sessionStore: wiring.store,
    ...storeFlush(o),
    ...(settings.model !== null ? { model: settings.model } : {}),
    ...(settings.maxBudgetUsd !== null ? { maxBudgetUsd: settings.maxBudgetUsd } : {}),
    abortController: childAbort(wiring.kill),
    onSpawn: (pid) => lease.addChild(pid),
  });
}

/**
 * The goal guard's optional reviewer (`review: true`): read-only tools, no subagents, no workbench block,
 * the step's model.
 */
function reviewerSpec(spec: AgentSpec, locale: Locale): AgentSpec {
  return {
    name: `${spec.name}-reviewer`,
    instructions: REVIEWER_INSTRUCTIONS[locale],
    tools: ["Read", "Grep", "Glob"],
    allowedTools: ["Read", "Grep", "Glob"],
    role: "agent",
    ...(spec.model ? { model: spec.model } : {}),
  };
}

/**
 * A shared store gets every transcript entry as it is written (`sessionStoreFlush: "eager"`). The SDK's
 * default batches until the end of a turn (or 500 entries / 1 MB), and the SDK runs inside flower: a
 * machine that dies mid-turn takes the batch with it, and its own JSONL copy (which recover-local-tail
 * reads) is on the dead machine's disk. Another machine's `continue` then finds the session's last turns
 * missing — for a successor that had not finished a turn, no session at all. Eager costs one append
 * (one round trip) per frame; bench/postgres-load.ts measures it per entry. SQLite is on this machine:
 * its JSONL survives a crash next to it and recover-local-tail stores the tail before the resume, so
 * it keeps the cheaper batches.
 */
function storeFlush(options: ResolvedRuntimeOptions): { sessionStoreFlush?: "eager" } {
  return options.store.kind === "postgres" ? { sessionStoreFlush: "eager" } : {};
}

/** How to unhook each session's controller from the runtime's kill signal (releaseSessionAbort). */
const releases = new WeakMap<AbortController, () => void>();

/** A fresh controller per session that follows the runtime's kill signal. */
export function childAbort(kill: AbortSignal): AbortController {
  const controller = new AbortController();
  if (kill.aborted) {
    controller.abort();
    return controller;
  }
  const onKill = () => controller.abort();
  kill.addEventListener("abort", onKill, { once: true });
  releases.set(controller, () => kill.removeEventListener("abort", onKill));
  return controller;
}

/**
 * Unhooks a finished session's controller from the runtime's kill signal. Left hooked, the signal keeps
 * one listener, and with it that session's controller, per session for the runtime's whole life: Node
 * warns at the 11th (MaxListenersExceededWarning, seen in workload 5 of the bench at ~400 sub-tasks),
 * and a night-long run has hundreds of sessions.
 */
export function releaseSessionAbort(options: { abortController?: AbortController | undefined }): void {
  const controller = options.abortController;
  if (!controller) return;
  releases.get(controller)?.();
  releases.delete(controller);
}
