/**
 * The fleet's queue: pg-boss (10.x, the line that runs on Node 20) in the store's own PostgreSQL.
 *
 * Why pg-boss and not a table of our own or another engine: the fleet already shares one PostgreSQL, and
 * pg-boss keeps its jobs there (its own schema next to flower's tables), so a fleet needs no broker, no
 * Redis, no extra service to run or secure. It hands each job to exactly one fetcher (SELECT … FOR UPDATE
 * SKIP LOCKED), and gives us retries with a limit (a run whose worker died goes back through `fail`, and
 * one that kills worker after worker stops being retried), expiry, priorities and retention of finished
 * jobs, all tested elsewhere. graphile-worker would do too, but it wants to own the worker loop; here a
 * worker fetches only when it has a free slot and decides itself when a job is done.
 *
 * What the queue does not decide: who drives a step (the step leases do, records/lease.ts) and whether a
 * run is still held (the fleet row does, postgres-fleet-runs.ts). A job is one delivery of a run to a worker.
 */
import pg, { type ClientBase } from "pg";
import PgBoss from "pg-boss";
import { StoreError } from "../../errors.js";
import type { StoreSpec } from "../store-spec.js";
import { LOCK_NAMESPACE, quoteIdentifier } from "./migrate.js";

/** The one queue of a store's fleet. */
const QUEUE = "flower-runs";

/**
 * How often a job goes back after a worker died with it; then the run fails instead of killing another
 * worker (a task that exhausts memory, say).
 */
export const RETRY_LIMIT = 10;

/**
 * pg-boss fails a job active longer than this (its maximum is under 24 hours). A run may take longer:
 * the job then comes back while the run is still held, and the worker it reaches finds the fleet row
 * held by a live worker and leaves it (fleet/worker.ts), so expiry never lets two workers drive a run.
 */
const EXPIRE_SECONDS = 23 * 60 * 60;

export interface RunJob {
  id: string;
  run: string;
}

export class RunQueue {
  readonly #boss: PgBoss;
  readonly #url: string;
  readonly #schema: string;
  readonly #location: string;
  #started: Promise<void> | null = null;

  /**
   * `supervise`: run pg-boss's maintenance (expiry, retention) from this process; a worker does, a
   * one-off command (submit, approve) does not.
   */
  constructor(spec: Extract<StoreSpec, { kind: "postgres" }>, location: string, supervise: boolean) {
    this.#url = spec.url;
    this.#schema = spec.schema;
    this.#location = location;
    this.#boss = new PgBoss({
      connectionString: spec.url,
      schema: queueSchema(spec.schema),
      max: 2,
      supervise,
      schedule: false,
      // Finished jobs are history the fleet row already keeps; a week is enough to look into one.
      deleteAfterDays: 7,
    });
    // Unheard, an error event (a dropped idle connection) would crash the process; the next call fails instead.
    this.#boss.on("error", () => undefined);
  }

  /** Starts pg-boss (creating its schema on first use) and the queue; once. */
  start(): Promise<void> {
    this.#started ??= this.#guard("start the queue", () =>
      this.#serialized(async () => {
        await this.#boss.start();
        if (!(await this.#boss.getQueue(QUEUE)))
          await this.#boss.createQueue(QUEUE, {
            name: QUEUE,
            policy: "standard",
            retryLimit: RETRY_LIMIT,
            retryDelay: 0,
            expireInSeconds: EXPIRE_SECONDS,
          });
      }),
    );
    return this.#started;
  }

  /**
   * Runs `action` (the start) while holding a transaction-level advisory lock keyed on the store's schema,
   * on a connection of its own, so processes starting together start the queue one after another.
   *
   * Without it, workers started at once on a fresh store failed with "deadlock detected": pg-boss's
   * `create_queue` (one statement, under no lock) inserts the queue's row `ON CONFLICT DO NOTHING`, then
   * creates its partition and adds foreign keys to that queue table; a second caller's insert holds the
   * queue table and waits for the first's transaction, the first's `ALTER TABLE … FOREIGN KEY` waits for
   * the second's table lock, and PostgreSQL aborts one. The loser could not tell that from a real failure:
   * a re-check found no queue while the winner, unblocked, was still creating it. (pg-boss's own schema
   * creation does take its lock, but the losers of that race get "already exists" and each reconnects;
   * under this lock they find the schema done.) The second starter waits here until the first committed,
   * then finds pg-boss installed and the queue there. The lock is free to take for a runner's role (DML
   * only); should a holder's process hang, the server ends its idle transaction, freeing the lock, and the
   * holder ignores that at its COMMIT (its start went on other connections).
   */
  async #serialized(action: () => Promise<void>): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: 10_000 });
    // A connection the server ends (the idle timeout below) is reported as an event; its COMMIT fails instead.
    client.on("error", () => undefined);
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL idle_in_transaction_session_timeout = '60s'");
      // Keyed apart from the migration's lock on the same schema (migrate.ts): ":" is not in a schema name.
      await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [
        LOCK_NAMESPACE,
        `queue:${this.#schema}`,
      ]);
      await action();
      await client.query("COMMIT").catch(() => undefined);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Queues a delivery of `run`; `priority`: higher first. Returns the job's id. */
  async send(run: string, priority = 0): Promise<string> {
    await this.start();
    const id = await this.#guard("queue a run", () => this.#boss.send(QUEUE, { run }, { priority }));
    if (id === null) throw new StoreError(`Fleet: the queue in ${this.#location} refused run "${run}"`);
    return id;
  }

  /** Up to `count` deliveries, each to this caller alone. */
  async fetch(count: number): Promise<RunJob[]> {
    await this.start();
    const jobs = await this.#guard("fetch runs", () =>
      this.#boss.fetch<{ run?: unknown }>(QUEUE, { batchSize: count, priority: true }),
    );
    return jobs.flatMap((job) =>
      typeof job.data?.run === "string" ? [{ id: job.id, run: job.data.run }] : [],
    );
  }

  /** The delivery is over (the run ended, paused, or was given back with a new job). */
  async complete(id: string): Promise<void> {
    await this.start();
    await this.#guard("complete a job", () => this.#boss.complete(QUEUE, id));
  }

  /** The worker holding it died: pg-boss retries the job (another worker fetches it) until its limit. */
  async fail(id: string, why: string): Promise<void> {
    await this.start();
    await this.#guard("give back a dead worker's job", () => this.#boss.fail(QUEUE, id, { why }));
  }

  /** A cancelled run's waiting job goes. */
  async cancel(id: string): Promise<void> {
    await this.start();
    await this.#guard("cancel a job", () => this.#boss.cancel(QUEUE, id));
  }

  /** pg-boss's state of a job (`created`, `retry`, `active`, `completed`, `failed`, `cancelled`), or null. */
  async state(id: string): Promise<string | null> {
    await this.start();
    const job = await this.#guard("read a job", () => this.#boss.getJobById(QUEUE, id));
    return job?.state ?? null;
  }

  async stop(): Promise<void> {
    if (this.#started === null) return;
    await this.#started.catch(() => undefined);
    await this.#boss.stop({ graceful: false, close: true, wait: true });
  }

  async #guard<T>(operation: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw new StoreError(`Fleet: cannot ${operation} in ${this.#location}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/** The states after which pg-boss never delivers a job again. */
const ENDED_JOB_STATES = ["completed", "cancelled", "failed"];

/**
 * In the caller's transaction (storage/store-view.ts's forget): deletes the ended jobs that delivered
 * `run`, kept by pg-boss for a week (a job's data is the run's name, made of the task's first words), from
 * its live table and its archive. A job that may still be delivered is left alone: it finds no fleet row
 * and its worker completes it (fleet/worker.ts). pg-boss offers deletion by id only and on its own
 * connection, so this is its own `deleteJob` statement (pg-boss 10's tables `job` and `archive`), by the
 * run in the job's data, inside the forget's transaction. Returns how many went; 0 without a queue.
 */
export async function deleteEndedJobs(client: ClientBase, schema: string, run: string): Promise<number> {
  const queue = quoteIdentifier(queueSchema(schema));
  const { rows } = await client.query<{ job: string | null; archive: string | null }>(
    "SELECT to_regclass($1)::text AS job, to_regclass($2)::text AS archive",
    [`${queue}.job`, `${queue}.archive`],
  );
  let deleted = 0;
  for (const table of [rows[0]?.job, rows[0]?.archive]) {
    if (!table) continue;
    const result = await client.query(
      `DELETE FROM ${table} WHERE name = $1 AND data->>'run' = $2 AND state::text = ANY($3)`,
      [QUEUE, run, ENDED_JOB_STATES],
    );
    deleted += result.rowCount ?? 0;
  }
  return deleted;
}

/** pg-boss's schema beside flower's: `flower_queue` for `public`, else `<schema>_queue` (63 bytes at most). */
export function queueSchema(schema: string): string {
  return schema === "public" ? "flower_queue" : `${schema.slice(0, 57)}_queue`;
}
