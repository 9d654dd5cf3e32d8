/**
 * Compiles an AgentSpec to SDK options. The spec's instructions are APPENDED to the Claude Code preset
 * prompt, never replacing it: specialisation must not cost the harness's general abilities.
 */
import type {
  AgentDefinition,
  Settings,
  HookCallbackMatcher,
  HookEvent,
  Options,
  SessionStore,
} from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../defaults.js";
import { effectiveCompact } from "../handoff/compact.js";
import { delegateGuard, type DelegateDenial } from "../guards/delegate-guard.js";
import type { Locale } from "../locale/locale.js";
import type { AgentSpec } from "./agent-spec.js";
import { COORDINATOR_RULES, SUBAGENT_RULES } from "./rules.js";
import { recallServer, recallSubagent, type RecallOffer, type RecallSearch } from "./recall-subagent.js";
import { RECALL_SERVER } from "../session-layers/recall-search.js";
import { foregroundAgents } from "./foreground-agents.js";
import { runningAsRoot, sandboxSetting } from "./sandbox-env.js";
import { claudeSpawner, type StderrSink } from "./spawn-claude.js";

export type HookMap = Partial<Record<HookEvent, HookCallbackMatcher[]>>;

export interface BuildContext {
  /** The agent's working directory. */
  workspace: string;
  locale: Locale;
  /** Environment the runtime adds over `process.env` (credentials, offline kit, ...). */
  env?: Record<string, string | undefined>;
  /** Whether handoff generations are on (turns auto-compact off unless the spec sets compact). */
  handoffEnabled: boolean;
  /** Extra blocks appended to the system prompt after the instructions (the workbench index). */
  systemAppend?: string[];
  /** Hooks the runtime adds (spill, index refresh, events). */
  hooks?: HookMap;
  sessionStore?: SessionStore;
  /** How the SDK flushes transcript entries to `sessionStore` (see session-options.ts: eager on a shared store). */
  sessionStoreFlush?: "eager" | "batched";
  /** Resume this session (continuity, retries). */
  resume?: string;
  /** With `resume`: go on from this entry of the transcript, the ones after it left behind (a rewind by turn). */
  resumeSessionAt?: string;
  /** Model when the spec sets none. */
  model?: string;
  maxBudgetUsd?: number;
  abortController?: AbortController;
  /** Flag settings for the CLI (e.g. `bashOutputMaxChars` when the spill guard is on). */
  settings?: Settings;
  /** Called when the delegate guard denies a main-thread call. */
  onDeny?: (denial: DelegateDenial) => void;
  /** Called with the pid of each `claude` child as it starts (the lease names its owner's children). */
  onSpawn?: (pid: number) => void;
  /** Receives what the child writes on stderr (the runtime keeps the last lines for a failure's reason). */
  stderr?: StderrSink;
  /**
   * Recall of the step's earlier generations (a successor's sessions): flower's MCP server answering with
   * `search`, and with `offer.subagent` the recall subagent (agents/recall-subagent.ts).
   */
  recall?: { offer: RecallOffer; search: RecallSearch };
}

/** Merges hook maps, keeping every matcher (order: first map first). */
export function mergeHooks(...maps: Array<HookMap | undefined>): HookMap {
  const merged: HookMap = {};
  for (const map of maps) {
    if (!map) continue;
    for (const [event, matchers] of Object.entries(map) as Array<[HookEvent, HookCallbackMatcher[]]>) {
      merged[event] = [...(merged[event] ?? []), ...matchers];
    }
  }
  return merged;
}

/** The child's environment: options.env REPLACES the child's environment, so process.env is spread in. */
export function childEnv(spec: AgentSpec, context: BuildContext): Record<string, string | undefined> {
  const compact = effectiveCompact(spec.compact, context.handoffEnabled);
  const env: Record<string, string | undefined> = {
    ...process.env,
    // The CLI would retry API errors 10 times over ~185 s; the runtime owns the retry policy.
    CLAUDE_CODE_MAX_RETRIES: String(DEFAULTS.cliMaxRetries),
    // The plan tool. In headless (SDK) mode the binary offers no todo tool unless told to, whatever the
    // tool list names; and by default it offers the Task tools (TaskCreate/TaskList/TaskUpdate), deferred
    // behind a placeholder and keeping the plan in the binary's own per-machine task files. TodoWrite
    // takes the whole plan as its input on every call: the plan is in the transcript (and so in the
    // store), and flower reads the latest one from the stream to hand it to the successor
    // (session-translator.ts, handoff/plan.ts). The coordinator's allowlist names TodoWrite.
    // A runtime `env` that sets either variable wins.
    CLAUDE_CODE_ENABLE_TODO_TOOLS: "1",
    CLAUDE_CODE_ENABLE_TASKS: "0",
    ...context.env,
    ...(compact?.env() ?? {}),
  };
  // A coordinator sends work to the subagents it declares, which carry SUBAGENT_RULES and their tool lists.
  // The CLI's built-in agent types (general-purpose, Explore, Plan, ...) carry neither, and their list
  // is sent with every main-thread request (~370 tokens). Setting the variable to "" keeps them.
  if (spec.role === "coordinator" && env.CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS === undefined)
    env.CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS = "1";
  // As root the binary refuses bypassPermissions unless it is told it runs in a sandbox (sandbox-env.ts).
  env.IS_SANDBOX = sandboxSetting(env.IS_SANDBOX, runningAsRoot()).value;
  if (env.IS_SANDBOX === undefined) delete env.IS_SANDBOX;
  return env;
}

export function buildOptions(spec: AgentSpec, context: BuildContext): Options {
  const append = [spec.instructions];
  if (spec.role === "coordinator") append.unshift(COORDINATOR_RULES[context.locale]);
  append.push(...(context.systemAppend ?? []));

  const agents: Record<string, AgentDefinition> = {};
  for (const [name, subagentSpec] of Object.entries(spec.subagents ?? {})) {
    agents[name] = {
      description: subagentSpec.description,
      prompt: `${SUBAGENT_RULES[context.locale]}\n\n${subagentSpec.instructions}`,
      ...(subagentSpec.tools ? { tools: subagentSpec.tools } : {}),
      model: subagentSpec.model ?? "inherit",
      // Background agents end the main turn early and come back as a second result; the step loop
      // wants one answer per turn, so subagents run in the foreground.
      background: false,
    };
  }

  const recall = context.recall;
  if (recall && "subagent" in recall.offer)
    agents[recall.offer.subagent] = recallSubagent(context.locale, spec.tools);

  const specHooks: HookMap = { PreToolUse: [foregroundAgents()] };
  if (spec.delegateOnly) {
    specHooks.PreToolUse!.unshift(
      delegateGuard({
        glance: spec.glance ?? false,
        locale: context.locale,
        ...(spec.mainThreadTools ? { mainThreadTools: spec.mainThreadTools } : {}),
        ...(context.onDeny ? { onDeny: context.onDeny } : {}),
      }),
    );
  }

  const model = spec.model ?? context.model;
  const options: Options = {
    cwd: context.workspace,
    env: childEnv(spec, context),
    systemPrompt: {
      type: "preset",
      preset: "claude_code",
      append: append.filter((part) => part.trim() !== "").join("\n\n"),
    },
    permissionMode: "bypassPermissions",
    allowDangerouslySkipPermissions: true,
    hooks: mergeHooks(specHooks, context.hooks, spec.hooks),
    // Main-thread stream events carry the final output_tokens of each response: the context measure.
    includePartialMessages: true,
    spawnClaudeCodeProcess: claudeSpawner(context.onSpawn, context.stderr),
    ...(spec.tools ? { tools: spec.tools, allowedTools: spec.allowedTools ?? spec.tools } : {}),
    ...(!spec.tools && spec.allowedTools ? { allowedTools: spec.allowedTools } : {}),
    ...(spec.disallowedTools ? { disallowedTools: spec.disallowedTools } : {}),
    ...(Object.keys(agents).length > 0 ? { agents } : {}),
    ...(recall ? { mcpServers: { [RECALL_SERVER]: recallServer(recall.search, context.locale) } } : {}),
    ...(model ? { model } : {}),
    ...(spec.maxTurns ? { maxTurns: spec.maxTurns } : {}),
    ...(context.settings ? { settings: context.settings } : {}),
    ...(context.sessionStore ? { sessionStore: context.sessionStore } : {}),
    ...(context.sessionStore && context.sessionStoreFlush
      ? { sessionStoreFlush: context.sessionStoreFlush }
      : {}),
    ...(context.resume ? { resume: context.resume } : {}),
    ...(context.resume && context.resumeSessionAt ? { resumeSessionAt: context.resumeSessionAt } : {}),
    ...(context.maxBudgetUsd !== undefined ? { maxBudgetUsd: context.maxBudgetUsd } : {}),
    ...(context.abortController ? { abortController: context.abortController } : {}),
  };
  return options;
}
