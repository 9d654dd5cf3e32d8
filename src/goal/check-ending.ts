/**
 * How a check's shell ended: what the process handling (check-process.ts) reports and the judging
 * (check-result.ts) reads. Its own file so that neither imports the other for it: the process handling
 * reads the resolved options, which carry a callback taking the judged result.
 */

/** How the shell ended; `aborted` and `timedOut` say who ended it. */
export interface Ending {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  spawnError: Error | null;
}
