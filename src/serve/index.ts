/** The live page of runs (`flower serve`), for a team's own service too. */
export { serveRuns } from "./server.js";
export type { ServedRuns } from "./server.js";
export { SERVE_DEFAULTS } from "./serve-options.js";
export type { ServeOptions } from "./serve-options.js";
export type { RunActions, RunGauge, RunRow, RunSource, RunsSnapshot } from "./page-source.js";
