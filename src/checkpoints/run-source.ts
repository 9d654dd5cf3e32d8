/**
 * What `flower submit` records about the work a run is given: the repository, the commit the person is
 * on, and their checkout as they see it (uncommitted changes, untracked files, unpushed commits) — the
 * last two carried in the store's log, so a worker on any machine begins from exactly that, pushed or not.
 * Untracked files that look like secrets are not carried (secret-files.ts), unless `flower.json` names
 * them in `carry`: both lists come back, for submit to say.
 */
import { DEFAULTS } from "../defaults.js";
import type { SecretRedactor } from "../secret-redactor.js";
import { gitText } from "./git.js";
import { personRepository, type LeftOut } from "./shadow-repo.js";
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

/** What a submit carried, and what it left here. */
export interface CapturedSource {
  source: RunSource;
  /** Untracked files that looked like secrets, relative to the checkout: not carried. */
  leftOut: LeftOut[];
  /** Files that looked like secrets and were carried because `flower.json`'s `carry` names them. */
  carried: string[];
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
  /** The credentials a run's `claude` child would be given: an untracked file holding one stays here. */
  redactor?: Pick<SecretRedactor, "holds"> | null;
  now: () => Date;
}): Promise<CapturedSource | null> {
  const person = await personRepository(options.checkout);
  if (person === null || person.head === null) return null;
  const tracker = await WorkTracker.open({
    workspace: options.checkout,
    runDir: options.runDir,
    run: options.run,
    owned: false,
    carrier: options.carrier,
    maxFileBytes: DEFAULTS.checkpointMaxFileBytes,
    redactor: options.redactor ?? null,
    now: options.now,
  });
  const { start, leftOut, carried } = await tracker.submitted("submit").finally(() => tracker.close());
  const origin = await gitText(["remote", "get-url", "origin"], { cwd: person.root, ok: [0, 2, 128] }).catch(
    () => "",
  );
  const branch = await gitText(["symbolic-ref", "--quiet", "--short", "HEAD"], {
    cwd: person.root,
    ok: [0, 1],
  });
  const source: RunSource = {
    repository: origin !== "" ? origin : person.root,
    commit: person.head,
    branch: branch === "" ? null : branch,
    start: start ?? person.head,
  };
  return { source, leftOut, carried };
}
