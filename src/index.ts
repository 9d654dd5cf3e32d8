/**
 * flower-agent: long-horizon agents on the Claude Agent SDK. Handoff generations instead of
 * auto-compact, and a context economy for the main thread.
 */
export { Runtime } from "./runtime/runtime.js";
export type { RunOptions, ContinueOptions } from "./runtime/runtime.js";
export type { HandoffAsked, RequestHandoffOptions } from "./runtime/generations/ask-for-handoff.js";
export type { RunEnded, RunWaits, Said, SayOptions } from "./runtime/person/say.js";
export type { PersonMessage } from "./records/person-messages.js";
export type { RuntimeOptions, WorkOptions } from "./runtime/options.js";
export type { DiffOptions, HandedBack } from "./runtime/files/run-work.js";
export type { RewindOptions, Rewound } from "./runtime/files/rewind.js";
export type { AppliedBranch } from "./work/apply-branch.js";
export type { TelemetryOptions } from "./telemetry/settings.js";
export type {
  StepResult,
  StepRecord,
  GenerationRecord,
  AttemptFailure,
  DeliveredMessage,
  StoreLoadRecord,
  StepSettings,
} from "./records/step-record.js";
export type { SettingName, SettingOverride, SettingValue } from "./runtime/events.js";
export { MANIFEST_FORMAT, MANIFEST_VERSION } from "./records/manifest-file.js";
export type { ManifestFile } from "./records/manifest-file.js";
export { SqliteRunRecords } from "./storage/sqlite/sqlite-run-records.js";
export type { RunRecords } from "./records/run-records.js";
export type { LeaseRow } from "./records/lease.js";
export { EventBus } from "./runtime/events.js";
export type {
  FlowerEvent,
  FlowerEventType,
  StepStartEvent,
  StepEndEvent,
  RetryEvent,
  ContextEvent,
  AgentEvent,
  ToolUseEvent,
  ToolDeniedEvent,
  SpillEvent,
  HandoffEvent,
  StoreLoadEvent,
  GoalChecksEvent,
  GoalCheckSummary,
  GuardRoundEvent,
  ClaimFlaggedEvent,
  ReviewEvent,
  WorkflowStepEvent,
  DocumentFrozenEvent,
  SettingOverrideEvent,
  GoalChangeEvent,
  DocumentChangedEvent,
  LeaseTakeoverEvent,
} from "./runtime/events.js";
export type { StepStatus } from "./records/step-record.js";
export type {
  GuardRecord,
  CheckRunRecord,
  CheckResultRecord,
  ReviewRecord,
  ReviewCriterionRecord,
  FlaggedClaimRecord,
  IgnoredGoalRecord,
  GoalSwitchRecord,
} from "./records/guard-record.js";
export type { GoalOption } from "./goal/goal-option.js";
export type { GoalCheck, GoalCheckExpectation } from "./goal/goal-check.js";
export { parseGoalChecks } from "./goal/goal-document.js";
export { assessClaim } from "./goal/claims.js";
export { claimGuard } from "./guards/claim-guard.js";
export type { WorkflowMembership } from "./records/step-record.js";

export { defineDocument, requiredKeys } from "./documents/spec.js";
export { ParsedDocument, documentTitle } from "./documents/document.js";
export type {
  DocumentSpec,
  DocumentSection,
  LocalText,
  ParsedDocumentInit,
  DocumentSummaryLine,
} from "./documents/document.js";
export { parseDocument } from "./documents/read.js";
export { assessDocument } from "./documents/quality.js";
export type { DocumentAssessment } from "./documents/quality.js";
export { produceDocument } from "./documents/produce.js";
export type { ProducedDocument, ProduceDocumentOptions } from "./documents/produce.js";
export { documentPath, freezeDocument, readFrozenDocument } from "./documents/freeze.js";
export type { FreezeDocumentOptions, ReadDocument } from "./documents/freeze.js";
export type { FrozenFile } from "./documents/freeze-file.js";
export {
  documentInstructions,
  documentRequest,
  documentSignature,
  DOCUMENT_SIGNATURE_PATTERN,
} from "./documents/instructions.js";
export type { FrozenDocumentRecord, ReadDocumentRecord } from "./records/frozen-document-record.js";
export { REQUIREMENTS } from "./documents/builtin/requirements.js";
export { GOAL, goalChecks } from "./documents/builtin/goal.js";
export { BUILT_IN_DOCUMENTS } from "./documents/builtin/index.js";

export { defineWorkflow, workflowStepName } from "./workflow/workflow.js";
export type { Workflow, WorkflowStep, StepInput, WorkflowDocument } from "./workflow/workflow.js";
export { runWorkflow, continueWorkflow } from "./workflow/run-workflow.js";
export type {
  WorkflowOptions,
  ContinueWorkflowOptions,
  WorkflowResult,
  WorkflowStepOutcome,
  WorkflowPause,
} from "./workflow/run-workflow.js";
export type { DocumentAtEnd } from "./workflow/documents-at-end.js";
export { workflowPosition, workflowRuns, runRecords, frozenDocuments } from "./workflow/position.js";
export type { WorkflowPosition } from "./workflow/position.js";
export { defaultWorkflow, goalOption, DEFAULT_STEPS } from "./workflow/default-workflow.js";
export type { DefaultWorkflowOptions } from "./workflow/default-workflow.js";
export { documentAgent } from "./workflow/document-agent.js";
export type { DocumentAgentOptions } from "./workflow/document-agent.js";
export { defaultStepPrompt, documentsBlock, workStepPrompt } from "./workflow/step-prompt.js";
export { readOnlyGuard, READ_ONLY_TOOLS } from "./guards/read-only-guard.js";

export type { AgentSpec, SubagentSpec } from "./agents/agent-spec.js";
export { buildOptions } from "./agents/build-options.js";
export type { BuildContext } from "./agents/build-options.js";
export { subagent } from "./agents/subagent.js";
export type { SubagentOptions } from "./agents/subagent.js";
export { coordinator, COORDINATOR_TOOLS, sessionTools } from "./agents/coordinator.js";
export { defaultTeam } from "./agents/default-team.js";
export type { CoordinatorOptions } from "./agents/coordinator.js";
export { COORDINATOR_RULES, SUBAGENT_RULES } from "./agents/rules.js";
// Deprecated aliases, kept so library code written against them keeps working (agents/subagent.ts).
export { worker, WORKER_RULES } from "./agents/subagent.js";
export type { WorkerSpec, WorkerOptions } from "./agents/subagent.js";

export { HandoffPolicy, defaultWindow, resolveWindow } from "./handoff/policy.js";
export type { HandoffPolicyOptions, HandoffRule } from "./handoff/policy.js";
export { CompactPolicy } from "./handoff/compact.js";
export type { CompactMode, CompactPolicyOptions } from "./handoff/compact.js";
export { Handoff } from "./handoff/handoff-document.js";
export { parseHandoff } from "./handoff/read-handoff.js";
export { HANDOFF_SECTIONS, REQUIRED } from "./handoff-sections.js";
export type { HandoffSectionName } from "./handoff-sections.js";
export { HANDOFF_PROMPT, handoffPrompt } from "./handoff/prompt.js";
export { isOverflow } from "./handoff/overflow.js";
export { degraded, degradedError, DEGRADED } from "./handoff/degraded.js";
export { handoffDue } from "./handoff/trigger.js";
export { assessHandoff } from "./handoff/handoff-quality.js";

export { delegateGuard } from "./guards/delegate-guard.js";
export { spillGuard } from "./guards/spill-guard.js";
export { indexGuard } from "./guards/index-guard.js";
export { isEphemeral } from "./glance/is-ephemeral.js";
export { Workbench } from "./workbench/workbench.js";

export { SqliteSessionStore } from "./storage/sqlite/sqlite-session-store.js";
export { TrimmingSessionStore } from "./session-layers/trimming-store.js";
export { PruningSessionStore, withRewrites } from "./session-layers/pruning-store.js";
export { PostgresSessionStore } from "./storage/postgres/postgres-session-store.js";
export type { PostgresSessionStoreOptions } from "./storage/postgres/postgres-session-store.js";
export { TrimPolicy } from "./session-layers/trim-policy.js";

export {
  FlowerError,
  ConfigurationError,
  ManifestError,
  StepFailedError,
  StoreError,
  FakeModelError,
  LeaseHeldError,
  LeaseLostError,
  WorkError,
  WorkRefusedError,
} from "./errors.js";
export type { FlowerErrorCode, LeaseHolder } from "./errors.js";
export type { Locale } from "./locale/locale.js";
export { DEFAULTS } from "./defaults.js";

export {
  submit,
  Worker,
  openFleet,
  listFleetRuns,
  approveRun,
  cancelRun,
  FleetEvents,
  watchFleet,
  FLEET_STATUSES,
} from "./fleet/index.js";
export type {
  SubmitOptions,
  Submitted,
  FleetWorkerOptions,
  RunRuntimeOptions,
  FleetRunView,
  FleetStoreOption,
  FleetEvent,
  FleetChange,
  WatchFleetOptions,
  FleetStatus,
  FleetRunOptions,
  FleetStore,
  FleetCommandFor,
} from "./fleet/index.js";

export { NOTIFY_EVENTS } from "./notify/index.js";
export type { Notification, NotifyEvent } from "./notify/index.js";

export { serveRuns, SERVE_DEFAULTS } from "./serve/index.js";
export type {
  ServedRuns,
  ServeOptions,
  RunActions,
  RunGauge,
  RunRow,
  RunSource,
  RunsSnapshot,
} from "./serve/index.js";
