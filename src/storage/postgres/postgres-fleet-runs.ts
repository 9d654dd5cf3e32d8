/**
 * The fleet's runs in PostgreSQL (`flower_fleet_runs`, migration 4 in migrations.ts): one row per
 * submitted run, its status and the worker that has it (records/fleet-run.ts).
 *
 * Every change of hands is one conditional UPDATE (compare-and-set on the status or the holder's token):
 * two workers handed the same run by the queue (a retried job, a job of a release that raced a takeover)
 * cannot both claim it, and a worker presumed dead cannot write over the one that took its run back.
 * The holder's heartbeat is stamped with the server's clock, so machines with skewed clocks agree on
 * which holder is stale (as with the step leases, run-records.ts).
 */
import type { ClientBase, Pool, QueryResultRow } from "pg";
import { StoreError } from "../../errors.js";
import type { FleetHolder, FleetRun, FleetRunOptions, FleetStatus } from "../../records/fleet-run.js";
import type { ProcessIdentity } from "../../records/process-identity.js";

interface FleetColumns extends QueryResultRow {
  run: string;
  task: string;
  options: string;
  status: FleetStatus;
  step: string | null;
  job: string | null;
  approved: boolean;
  cancel_requested: boolean;
  error: string | null;
  token: string | null;
  pid: number | null;
  host: string | null;
  machine: string | null;
  start_ticks: string | null;
  heartbeat_age_ms: number | null;
  submitted_at: Date;
  updated_at: Date;
}

const SELECT = `run, task, options, status, step, job, approved, cancel_requested, error, token, pid, host,
  machine, start_ticks, submitted_at, updated_at,
  (extract(epoch FROM now() - heartbeat_at) * 1000)::float8 AS heartbeat_age_ms`;

/** Clears the holder: the run is nobody's until a worker claims it again. */
const NO_HOLDER =
  "token = NULL, pid = NULL, host = NULL, machine = NULL, start_ticks = NULL, heartbeat_at = NULL";

function toRun(row: FleetColumns, readAt: number): FleetRun {
  const holder: FleetHolder | null =
    row.token === null || row.pid === null || row.host === null
      ? null
      : {
          token: row.token,
          pid: row.pid,
          host: row.host,
          ...(row.machine === null ? {} : { machine: row.machine }),
          startTicks: row.start_ticks === null ? null : Number(row.start_ticks),
          heartbeatAt: new Date(readAt - (row.heartbeat_age_ms ?? 0)).toISOString(),
        };
  return {
    run: row.run,
    task: row.task,
    status: row.status,
    options: JSON.parse(row.options) as FleetRunOptions,
    step: row.step,
    holder,
    job: row.job,
    approved: row.approved,
    cancelRequested: row.cancel_requested,
    error: row.error,
    submittedAt: row.submitted_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export class PostgresFleetRuns {
  readonly location: string;
  readonly #pool: () => Promise<Pool>;
  readonly #table: string;

  /** `pool` resolves once the schema is migrated; `schema` is already quoted. */
  constructor(pool: () => Promise<Pool>, schema: string, location: string) {
    this.#pool = pool;
    this.#table = `${schema}.flower_fleet_runs`;
    this.location = location;
  }

  /** Every run (or those with `status`: a worker's watch reads only the running ones), oldest submission first. */
  async list(status?: FleetStatus): Promise<FleetRun[]> {
    const rows = await this.#query(
      "list the fleet's runs",
      `SELECT ${SELECT} FROM ${this.#table} WHERE $1::text IS NULL OR status = $1 ORDER BY submitted_at, run`,
      [status ?? null],
    );
    const readAt = Date.now();
    return rows.map((row) => toRun(row, readAt));
  }

  async get(run: string): Promise<FleetRun | undefined> {
    const rows = await this.#query(
      "read a fleet run",
      `SELECT ${SELECT} FROM ${this.#table} WHERE run = $1`,
      [run],
    );
    return rows[0] ? toRun(rows[0], Date.now()) : undefined;
  }

  /** A new queued run; false when the name is taken (the caller picks the next one). */
  async insert(run: string, task: string, options: FleetRunOptions): Promise<boolean> {
    const rows = await this.#query(
      "submit a run",
      `INSERT INTO ${this.#table} (run, task, options, status) VALUES ($1, $2, $3, 'queued')
       ON CONFLICT (run) DO NOTHING RETURNING run`,
      [run, task, JSON.stringify(options)],
    );
    return rows.length > 0;
  }

  /** Replaces a queued run's options (submit adds where its work comes from once it owns the name). */
  async setOptions(run: string, options: FleetRunOptions): Promise<void> {
    await this.#query("record a run's options", `UPDATE ${this.#table} SET options = $2 WHERE run = $1`, [
      run,
      JSON.stringify(options),
    ]);
  }

  /** Deletes a run that never reached the queue (its submit failed after the row was written). */
  async remove(run: string): Promise<void> {
    await this.#query("remove a run", `DELETE FROM ${this.#table} WHERE run = $1 AND job IS NULL`, [run]);
  }

  /** Names the job that delivers a queued run now. */
  async setJob(run: string, job: string): Promise<void> {
    await this.#query("name a run's job", `UPDATE ${this.#table} SET job = $2 WHERE run = $1`, [run, job]);
  }

  /** Takes a queued run for `self`; null when it is not queued any more (another worker has it, or it ended). */
  async claim(run: string, token: string, self: ProcessIdentity): Promise<FleetRun | null> {
    const rows = await this.#query(
      "claim a run",
      `UPDATE ${this.#table} SET status = 'running', token = $2, pid = $3, host = $4, machine = $5,
         start_ticks = $6, heartbeat_at = now(), updated_at = now()
       WHERE run = $1 AND status = 'queued' RETURNING ${SELECT}`,
      [run, token, self.pid, self.host, self.machine ?? null, self.startTicks],
    );
    return rows[0] ? toRun(rows[0], Date.now()) : null;
  }

  /**
   * The holder's heartbeat for all its runs at once; returns each run still held by `token` with whether
   * a cancel was asked. A run missing from the answer was taken from this worker.
   */
  async beat(token: string): Promise<Map<string, { cancelRequested: boolean }>> {
    const rows = await this.#query(
      "refresh the fleet's heartbeat",
      `UPDATE ${this.#table} SET heartbeat_at = now() WHERE token = $1 AND status = 'running'
       RETURNING run, cancel_requested`,
      [token],
    );
    return new Map(rows.map((row) => [row.run, { cancelRequested: row.cancel_requested }]));
  }

  /** The workflow step a held run is on now. */
  async setStep(run: string, token: string, step: string): Promise<void> {
    await this.#query(
      "record a run's step",
      `UPDATE ${this.#table} SET step = $3, updated_at = now() WHERE run = $1 AND token = $2`,
      [run, token, step],
    );
  }

  /**
   * The holder ends its turn with the run: a final status, `paused`, or `queued` (given back, with the
   * job that delivers it next). Only while `token` still holds it; false otherwise.
   */
  async finish(
    run: string,
    token: string,
    status: FleetStatus,
    fields: { error?: string | null; job?: string | null } = {},
  ): Promise<boolean> {
    const rows = await this.#query(
      "record a run's end",
      `UPDATE ${this.#table} SET status = $3, error = $4, job = CASE WHEN $5 THEN $6 ELSE job END,
         ${NO_HOLDER}, updated_at = now()
       WHERE run = $1 AND token = $2 AND status = 'running' RETURNING run`,
      [run, token, status, fields.error ?? null, fields.job !== undefined, fields.job ?? null],
    );
    return rows.length > 0;
  }

  /**
   * A dead holder's run goes back to the queue, or ends `cancelled` when a cancel was asked of it (nobody
   * is left to act on it). The new status; null when somebody else changed the run first.
   */
  async reclaim(run: string, deadToken: string): Promise<"queued" | "cancelled" | null> {
    const rows = await this.#query(
      "take back a dead worker's run",
      `UPDATE ${this.#table}
         SET status = CASE WHEN cancel_requested THEN 'cancelled' ELSE 'queued' END, ${NO_HOLDER},
           job = CASE WHEN cancel_requested THEN NULL ELSE job END, updated_at = now()
       WHERE run = $1 AND token = $2 AND status = 'running' RETURNING status`,
      [run, deadToken],
    );
    return (rows[0]?.status as "queued" | "cancelled" | undefined) ?? null;
  }

  /** `from` → `to` for a run nobody holds (approve: paused → queued; cancel: queued/paused → cancelled). */
  async move(
    run: string,
    from: readonly FleetStatus[],
    to: FleetStatus,
    fields: { approved?: boolean; job?: string | null; error?: string } = {},
  ): Promise<boolean> {
    const rows = await this.#query(
      "change a run's status",
      `UPDATE ${this.#table} SET status = $3, approved = approved OR $4,
         job = CASE WHEN $5 THEN $6 ELSE job END, error = CASE WHEN $7 THEN $8 ELSE error END,
         updated_at = now()
       WHERE run = $1 AND status = ANY($2) RETURNING run`,
      [
        run,
        from,
        to,
        fields.approved === true,
        fields.job !== undefined,
        fields.job ?? null,
        fields.error !== undefined,
        fields.error ?? null,
      ],
    );
    return rows.length > 0;
  }

  /** Asks the holder of a running run to stop it at its next boundary. */
  async requestCancel(run: string): Promise<boolean> {
    const rows = await this.#query(
      "ask to cancel a run",
      `UPDATE ${this.#table} SET cancel_requested = true, updated_at = now()
       WHERE run = $1 AND status = 'running' RETURNING run`,
      [run],
    );
    return rows.length > 0;
  }

  /**
   * In the caller's transaction (storage/store-view.ts's forget): the rows of `runs` that exist, locked
   * until it ends, so none moves between the caller's check and its delete.
   */
  async lock(client: ClientBase, runs: readonly string[]): Promise<FleetRun[]> {
    const { rows } = await client.query<FleetColumns>(
      `SELECT ${SELECT} FROM ${this.#table} WHERE run = ANY($1) ORDER BY run FOR UPDATE`,
      [runs],
    );
    const readAt = Date.now();
    return rows.map((row) => toRun(row, readAt));
  }

  /** In the caller's transaction: deletes the rows of `runs`; returns how many went. */
  async deleteRuns(client: ClientBase, runs: readonly string[]): Promise<number> {
    const { rowCount } = await client.query(`DELETE FROM ${this.#table} WHERE run = ANY($1)`, [runs]);
    return rowCount ?? 0;
  }

  async #query(operation: string, text: string, values: unknown[]): Promise<FleetColumns[]> {
    let pool: Pool;
    try {
      pool = await this.#pool();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(`Fleet: cannot connect to ${this.location}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      return (await pool.query<FleetColumns>(text, values)).rows;
    } catch (error) {
      throw new StoreError(`Fleet: cannot ${operation} in ${this.location}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}
