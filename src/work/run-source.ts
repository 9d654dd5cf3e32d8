/**
 * What `flower submit` records about the work a run is given: the repository, the commit the person is
 * on, and their checkout as they see it (uncommitted changes, untracked files, unpushed commits) — the
 * last two carried in the store's log, so a worker on any machine begins from exactly that, pushed or not.
 */
import { DEFAULTS } from "../defaults.js";
import { gitText } from "./git.js";
import { personRepository } from "./shadow-repo.js";
import type { WorkCarrier } from "./work-carrier.js";
import { WorkTracker } from "./work-tracker.js";

export interface RunSource {
  /** The repository as its checkout names it: the `origin` remote's URL, else the checkout's path. */
  repository: string;
  /** The commit the person was on (HEAD). */
  commit: string;
  /** The branch they were on; null on a detached HEAD. */
  branch: string | null;
  /** The checkout as they saw it: `commit` itself, or a commit on top of it with their uncommitted changes. */
  start: string;
}

/**
 * Records the checkout's work for a submitted run in the store's log. Null when the checkout is not a
 * git repository or has no commit yet: workers then run on their own checkout.
 */
export async function captureSource(options: {
  checkout: string;
  runDir: string;
  run: string;
  carrier: WorkCarrier;
  now: () => Date;
}): Promise<RunSource | null> {
  const person = await personRepository(options.checkout);
  if (person === null || person.head === null) return null;
  const tracker = await WorkTracker.open({
    workspace: options.checkout,
    runDir: options.runDir,
    run: options.run,
    owned: false,
    carrier: options.carrier,
    maxFileBytes: DEFAULTS.checkpointMaxFileBytes,
    now: options.now,
  });
  const start = await tracker.submitted("submit").finally(() => tracker.close());
  const origin = await gitText(["remote", "get-url", "origin"], { cwd: person.root, ok: [0, 2, 128] }).catch(
    () => "",
  );
  const branch = await gitText(["symbolic-ref", "--quiet", "--short", "HEAD"], {
    cwd: person.root,
    ok: [0, 1],
  });
  return {
    repository: origin !== "" ? origin : person.root,
    commit: person.head,
    branch: branch === "" ? null : branch,
    start: start ?? person.head,
  };
}
