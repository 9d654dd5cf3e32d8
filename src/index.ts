/**
 * flower-agent: long-horizon agents on the Claude Agent SDK. Handoff generations instead of
 * auto-compact, and a context economy for the main thread.
 *
 * The root is what a user of the library builds with — the runtime, agents, handoff and trim policies,
 * workflows, fleets, the live page, the errors — and the types those signatures name. What an integrator
 * needs is under a named subpath (`flower-agent/stores`, `flower-agent/documents`, `flower-agent/hooks`,
 * src/public/), the offline kit under `flower-agent/testing`; the rest is internal. A root that listed
 * internals beside the product (233 names once) was a surface nobody could learn in an afternoon, and
 * every internal named here could not change without breaking a user. docs/library.md has the table.
 */
export { Runtime } from "./runtime/runtime.js";
export type { RunOptions, ContinueOptions } from "./runtime/runtime.js";
export type { RuntimeOptions, WorkOptions } from "./runtime/options.js";
export type { HandoffAsked, RequestHandoffOptions } from "./runtime/generations/ask-for-handoff.js";
export type { RunEnded, RunWaits, Said, SayOptions } from "./runtime/person/say.js";
export type { DiffOptions, HandedBack } from "./runtime/files/run-work.js";
export type { RewindOptions, Rewound } from "./runtime/files/rewind.js";
export type { AppliedBranch } from "./checkpoints/apply-branch.js";
export type { TelemetryOptions } from "./telemetry/settings.js";
export type { StepResult } from "./records/step-record.js";
// One union: each event's own shape is `Extract<FlowerEvent, { type: "handoff" }>`.
export type { FlowerEvent, FlowerEventType } from "./runtime/events.js";

export { coordinator } from "./agents/coordinator.js";
export type { CoordinatorOptions } from "./agents/coordinator.js";
export { subagent } from "./agents/subagent.js";
export type { SubagentOptions } from "./agents/subagent.js";
export { defaultTeam } from "./agents/default-team.js";
export type { AgentSpec, SubagentSpec } from "./agents/agent-spec.js";

export { HandoffPolicy } from "./handoff/policy.js";
export type { HandoffPolicyOptions, HandoffRule } from "./handoff/policy.js";
export { CompactPolicy } from "./handoff/compact.js";
export type { CompactMode, CompactPolicyOptions } from "./handoff/compact.js";
export { TrimPolicy } from "./session-layers/trim-policy.js";

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
export { workflowPosition } from "./workflow/position.js";
export type { WorkflowPosition } from "./workflow/position.js";
export { defaultWorkflow, goalOption } from "./workflow/default-workflow.js";
export type { DefaultWorkflowOptions } from "./workflow/default-workflow.js";
export { documentAgent } from "./workflow/document-agent.js";
export type { DocumentAgentOptions } from "./workflow/document-agent.js";
export { defineDocument } from "./documents/spec.js";
export type { DocumentSpec, DocumentSection, LocalText } from "./documents/document.js";
export { REQUIREMENTS } from "./documents/builtin/requirements.js";
export { GOAL } from "./documents/builtin/goal.js";
export type { GoalOption } from "./goal/goal-option.js";
export type { GoalCheck, GoalCheckExpectation } from "./goal/goal-check.js";

export {
  FlowerError,
  ConfigurationError,
  ManifestError,
  StepFailedError,
  StoreError,
  LeaseHeldError,
  LeaseLostError,
  WorkError,
  WorkRefusedError,
} from "./errors.js";
export type { FlowerErrorCode, LeaseHolder } from "./errors.js";
export type { Locale } from "./locale/locale.js";

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
