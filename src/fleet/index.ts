/**
 * The fleet's library API: a queue of runs on the shared PostgreSQL store, workers on any machine, and
 * a view of every run. The CLI's `flower submit|worker|approve|cancel|runs --store` and the live page
 * call exactly these.
 */
export { submit } from "./submit.js";
export type { SubmitOptions, Submitted } from "./submit.js";
export { Worker } from "./worker.js";
export type { FleetWorkerOptions } from "./worker.js";
export type { FleetCommandFor } from "./fleet-notice.js";
export type { RunRuntimeOptions } from "./drive-run.js";
export { openFleet, listFleetRuns, approveRun, cancelRun } from "./fleet-runs.js";
export type { FleetRunView, FleetStoreOption } from "./fleet-runs.js";
export { FleetEvents, watchFleet } from "./fleet-events.js";
export type { FleetEvent, FleetChange, WatchFleetOptions } from "./fleet-events.js";
export type { FleetStatus, FleetRunOptions } from "../records/fleet-run.js";
export { FLEET_STATUSES } from "../records/fleet-run.js";
export type { FleetStore } from "../storage/fleet-store.js";
