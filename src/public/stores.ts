/**
 * `flower-agent/stores`: for an integrator who puts flower's sessions or records somewhere, or reads them
 * — the session stores and the layers over them, the run records and their types, the manifest's format.
 * A library user never needs these (the `Runtime`'s `store` option opens them); they are kept off the
 * root so it stays what a user builds with (src/index.ts).
 */
export { SqliteSessionStore } from "../storage/sqlite/sqlite-session-store.js";
export { PostgresSessionStore } from "../storage/postgres/postgres-session-store.js";
export type { PostgresSessionStoreOptions } from "../storage/postgres/postgres-session-store.js";
export { TrimmingSessionStore } from "../session-layers/trimming-store.js";
export { PruningSessionStore, withRewrites } from "../session-layers/pruning-store.js";

export { SqliteRunRecords } from "../storage/sqlite/sqlite-run-records.js";
export type { RunRecords } from "../records/run-records.js";
export type { LeaseRow } from "../records/lease.js";
export { MANIFEST_FORMAT, MANIFEST_VERSION } from "../records/manifest-file.js";
export type { ManifestFile } from "../records/manifest-file.js";
export { workflowRuns, runRecords, frozenDocuments } from "../workflow/position.js";
export type {
  StepRecord,
  StepStatus,
  StepSettings,
  GenerationRecord,
  AttemptFailure,
  DeliveredMessage,
  StoreLoadRecord,
  WorkflowMembership,
} from "../records/step-record.js";
export type {
  GuardRecord,
  CheckRunRecord,
  CheckResultRecord,
  ReviewRecord,
  ReviewCriterionRecord,
  FlaggedClaimRecord,
  IgnoredGoalRecord,
  GoalSwitchRecord,
} from "../records/guard-record.js";
export type { FrozenDocumentRecord, ReadDocumentRecord } from "../records/frozen-document-record.js";
export type { PersonMessage } from "../records/person-messages.js";
