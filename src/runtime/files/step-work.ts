/**
 * A step's side of the run's work (src/checkpoints/work-tracker.ts): when its checkpoints are taken, and what
 * each tells the step's ledger.
 *
 * - before every session of the step's own agent (a generation's start, a resume, a retry, a guard
 *   round): `start` or `resume`;
 * - after every main-thread tool call, in its PostToolUse (or PostToolUseFailure: a failing `rm x; exit 1`
 *   still deleted x) hook, before the binary writes the call's result to the transcript: `call`. A
 *   subagent's calls are not checkpointed one by one: their effects land with the Agent call that sent it;
 * - when the step ends or stops: `end` or `stop`.
 * Calls that cannot change a file (Read, Grep, Glob, TodoWrite, ToolSearch) take none.
 *
 * A checkpoint that fails (a full disk, a store that is away) is said once as a `work-warning` and the
 * step goes on: losing the run over a checkpoint would lose more than the checkpoint.
 */
import type { HookCallback, HookCallbackMatcher, HookEvent } from "@anthropic-ai/claude-agent-sdk";
import type { CheckpointKind } from "../../checkpoints/checkpoint-message.js";
import type { HasResult, Reconciled, WorkTracker } from "../../checkpoints/work-tracker.js";
import type { FlowerEvent } from "../events.js";

/** Tools that read only: no checkpoint after them. */
const READ_ONLY = new Set([
  "Read",
  "Grep",
  "Glob",
  "TodoWrite",
  "ToolSearch",
  "WebFetch",
  "WebSearch",
  "ListAgents",
]);

/** The CLI waits this long for a hook (seconds): a checkpoint stored over a slow network must not be cut. */
const HOOK_TIMEOUT_S = 600;

export interface StepWorkOptions {
  step: string;
  tracker: WorkTracker;
  /** Whether a session's transcript (in the store, its local tail recovered first) holds a call's result. */
  hasResult: HasResult;
}

export class StepWork {
  readonly step: string;
  readonly tracker: WorkTracker;
  readonly #hasResult: HasResult;
  /** Warnings already said (each once per step). */
  readonly #said = new Set<string>();

  constructor(options: StepWorkOptions) {
    this.step = options.step;
    this.tracker = options.tracker;
    this.#hasResult = options.hasResult;
  }

  /**
   * Before the step's first session: a shared store's log is replayed, the chain is cut back to what the
   * transcript has, and the files are brought to it. Emits `work-restored` when anything moved or was kept.
   */
  async begin(start: string | null, sink: (event: FlowerEvent) => void): Promise<Reconciled | null> {
    try {
      await this.tracker.catchUp();
      const reconciled = await this.tracker.reconcile(this.#hasResult, start);
      if (
        reconciled.target !== null &&
        (reconciled.dropped > 0 || reconciled.restored.length > 0 || reconciled.kept.length > 0)
      )
        sink({
          type: "work-restored",
          step: this.step,
          commit: reconciled.target,
          dropped: reconciled.dropped,
          restored: reconciled.restored,
          kept: reconciled.kept,
        });
      return reconciled;
    } catch (error) {
      this.#warn(sink, `the run's files could not be brought to its last checkpoint: ${messageOf(error)}`);
      return null;
    }
  }

  /** Takes a checkpoint and tells the ledger; never throws. */
  async checkpoint(
    input: {
      kind: CheckpointKind;
      generation: number;
      session?: string | null;
      call?: string;
      tool?: string;
    },
    sink: (event: FlowerEvent) => void,
  ): Promise<void> {
    try {
      const taken = await this.tracker.checkpoint({
        kind: input.kind,
        step: this.step,
        generation: input.generation,
        session: input.session ?? null,
        call: input.call ?? null,
        tool: input.tool ?? null,
      });
      sink({
        type: "work-checkpoint",
        step: this.step,
        kind: input.kind,
        commit: taken.commit,
        changed: taken.changed,
        files: taken.files,
        leftOut: taken.leftOut,
        ...(input.tool !== undefined ? { tool: input.tool } : {}),
        ...(input.call !== undefined ? { call: input.call } : {}),
      });
    } catch (error) {
      // Said once per cause: a lock that stays makes every checkpoint after it fail alike.
      const why = messageOf(error);
      this.#warn(
        sink,
        `a checkpoint of the run's files failed (${input.kind}): ${why}`,
        `checkpoint: ${why}`,
      );
    }
  }

  /** PostToolUse and PostToolUseFailure hooks: a checkpoint after each main-thread call. */
  hooks(
    generation: () => number,
    sink: (event: FlowerEvent) => void,
  ): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
    const callback: HookCallback = async (input) => {
      if (input.hook_event_name !== "PostToolUse" && input.hook_event_name !== "PostToolUseFailure")
        return {};
      // A subagent's call: its effects are checkpointed with the Agent call that sent the subagent.
      if ("agent_id" in input && input.agent_id !== undefined) return {};
      if (READ_ONLY.has(input.tool_name)) return {};
      await this.checkpoint(
        {
          kind: "call",
          generation: generation(),
          session: input.session_id,
          call: input.tool_use_id,
          tool: input.tool_name,
        },
        sink,
      );
      return {};
    };
    const matcher: HookCallbackMatcher = { hooks: [callback], timeout: HOOK_TIMEOUT_S };
    return { PostToolUse: [matcher], PostToolUseFailure: [matcher] };
  }

  /** Says `message` unless what it is about (`key`, the message itself by default) was said already. */
  #warn(sink: (event: FlowerEvent) => void, message: string, key = message): void {
    if (this.#said.has(key)) return;
    this.#said.add(key);
    sink({ type: "work-warning", step: this.step, message });
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().slice(0, 300);
}
