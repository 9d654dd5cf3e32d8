/**
 * Step records and leases in PostgreSQL (`flower_steps`, `flower_leases`; migration 2 in
 * migrations.ts): what `records.db` keeps on one machine, shared by every machine that
 * names the same store. Every method is asynchronous; ../shared-run-records.ts puts the synchronous face the
 * runtime writes through in front of it.
 *
 * Why a lease is a row with a heartbeat and not an advisory lock (`pg_try_advisory_lock`):
 * - An advisory lock belongs to a connection, not to a process. A pool hands connections around, and a
 *   transaction-pooling proxy (PgBouncer, common in front of a fleet's Postgres) drops session locks
 *   silently. A connection that blips drops the lock while the process goes on driving the step.
 * - A machine that vanishes (power, network partition) keeps its lock until the server's TCP keepalive
 *   notices, which is two hours by default; a row's heartbeat goes stale after `staleAfterMs` whatever
 *   way the holder died.
 * - `flower runs` shows who holds a step (pid, host, heartbeat) and a takeover must first make sure the
 *   dead holder's `claude` children are gone: both need the holder's identity in a row anyway.
 * - Every record write is fenced by the lease's token inside the same statement (`FOR SHARE` on the
 *   lease row), so a driver presumed dead cannot overwrite its successor's record, exactly as in SQLite.
 * A SIGKILLed holder on the same machine is seen dead at once (its pid is gone); on another machine its
 * lease is taken over once the heartbeat is older than `staleAfterMs`.
 *
 * Times: heartbeats are stamped with the server's clock (`now()`), and a lease is read back with its age
 * as the server sees it, expressed in the reader's clock: machines whose clocks disagree still agree on
 * which lease is stale.
 */
import type { ClientBase, Pool, QueryResultRow } from "pg";
import { LeaseLostError, StoreError } from "../../errors.js";
import type { LeaseRow } from "../../records/lease.js";
import type { AcquireOptions, AcquireResult } from "../../records/run-records.js";
import { daySpends, runOf } from "../../records/run-spend.js";
import type { StepRecord } from "../../records/step-record.js";
import { PostgresHandoffRequests } from "./postgres-handoff-requests.js";
import { PostgresPersonMessages } from "./postgres-person-messages.js";

interface LeaseColumns extends QueryResultRow {
  step: string;
  token: string;
  pid: number;
  host: string;
  machine: string | null;
  start_ticks: string | null;
  started_age_ms: number;
  heartbeat_age_ms: number;
  children: string;
}

/** How far back `changes` reads before the time it was given: a write's commit follows its `updated_at`. */
const OVERLAP_S = 60;

/** The lease columns, with the two times as ages on the server's clock. */
const LEASE_SELECT = `step, token, pid, host, machine, start_ticks, children,
  (extract(epoch FROM now() - started_at) * 1000)::float8 AS started_age_ms,
  (extract(epoch FROM now() - heartbeat_at) * 1000)::float8 AS heartbeat_age_ms`;

function toLease(row: LeaseColumns, readAt: number): LeaseRow {
  return {
    step: row.step,
    token: row.token,
    pid: row.pid,
    host: row.host,
    ...(row.machine === null ? {} : { machine: row.machine }),
    startTicks: row.start_ticks === null ? null : Number(row.start_ticks),
    startedAt: new Date(readAt - row.started_age_ms).toISOString(),
    heartbeatAt: new Date(readAt - row.heartbeat_age_ms).toISOString(),
    children: JSON.parse(row.children) as number[],
  };
}

export class PostgresRunRecords {
  /** The store's URL without its password, and the schema, for messages. */
  readonly location: string;
  readonly #pool: () => Promise<Pool>;
  readonly #steps: string;
  readonly #spend: string;
  readonly #leases: string;
  /** `flower handoff`'s channel to the live driver (handoff-requests.ts). */
  readonly requests: PostgresHandoffRequests;
  /** `flower say`'s channel to a run, whichever machine drives it (person-messages.ts). */
  readonly messages: PostgresPersonMessages;

  /** `pool` resolves once the schema is migrated; `schema` is already quoted. */
  constructor(pool: () => Promise<Pool>, schema: string, location: string) {
    this.#pool = pool;
    this.#steps = `${schema}.flower_steps`;
    this.#spend = `${schema}.flower_step_spend`;
    this.#leases = `${schema}.flower_leases`;
    this.requests = new PostgresHandoffRequests(pool, schema, location);
    this.messages = new PostgresPersonMessages(pool, schema, location);
    this.location = location;
  }

  async get(step: string): Promise<StepRecord | undefined> {
    const { rows } = await this.#query<{ record: string }>(
      "read a step",
      `SELECT record FROM ${this.#steps} WHERE step = $1`,
      [step],
    );
    return rows[0] ? (JSON.parse(rows[0].record) as StepRecord) : undefined;
  }

  /** Every step, oldest update first. */
  async list(): Promise<StepRecord[]> {
    const { rows } = await this.#query<{ record: string }>(
      "list the steps",
      `SELECT record FROM ${this.#steps} ORDER BY updated_at, step`,
      [],
    );
    return rows.map((row) => JSON.parse(row.record) as StepRecord);
  }

  /**
   * The records written since `since` (the server's time an earlier call answered with; every record
   * when null), with the server's time now and how many records there are: what a reader that keeps the
   * records (followed-records.ts) needs each second without reading them all. A write commits a moment
   * after its `updated_at` (the statement's start), so the window reaches OVERLAP_S back.
   */
  async changes(since: string | null): Promise<{ at: string; count: number; records: StepRecord[] }> {
    const { rows: now } = await this.#query<{ at: string; count: number }>(
      "read the steps' count",
      `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
         count(*)::int AS count FROM ${this.#steps}`,
      [],
    );
    const { rows } = await this.#query<{ record: string }>(
      "read the changed steps",
      `SELECT record FROM ${this.#steps}
       WHERE $1::timestamptz IS NULL OR updated_at > $1::timestamptz - make_interval(secs => ${OVERLAP_S})`,
      [since],
    );
    return {
      at: now[0]!.at,
      count: now[0]!.count,
      records: rows.map((row) => JSON.parse(row.record) as StepRecord),
    };
  }

  /** Every step's name (no record): what a reader that keeps the records checks deletions against. */
  async names(): Promise<string[]> {
    const { rows } = await this.#query<{ step: string }>(
      "list the steps' names",
      `SELECT step FROM ${this.#steps}`,
      [],
    );
    return rows.map((row) => row.step);
  }

  /**
   * Writes the record; with `lease`, only while that lease holds the step (LeaseLostError otherwise).
   * One statement: the lease row is share-locked until the write commits, so a takeover waits for it.
   * The same statement keeps what the record spent per UTC day (flower_step_spend) and its run and cost
   * (columns of its row) in step with it: the day's spend and a run's are then one aggregate each.
   */
  async put(record: StepRecord, options: { lease?: string } = {}): Promise<void> {
    const days = daySpends(record);
    const { rows } = await this.#query<{ written: number }>(
      "write a step",
      `WITH holder AS (
         SELECT 1 FROM ${this.#leases} WHERE step = $1 AND token = $3 FOR SHARE
       ),
       allowed AS (
         SELECT 1 WHERE $3::text IS NULL OR EXISTS (SELECT 1 FROM holder)
       ),
       written AS (
         INSERT INTO ${this.#steps} (step, record, updated_at, run, cost_usd)
         SELECT $1, $2, now(), $4, $5 FROM allowed
         ON CONFLICT (step) DO UPDATE SET record = EXCLUDED.record, updated_at = EXCLUDED.updated_at,
           run = EXCLUDED.run, cost_usd = EXCLUDED.cost_usd
         RETURNING 1
       ),
       gone AS (
         DELETE FROM ${this.#spend} WHERE step = $1 AND NOT (day = ANY($6::text[]))
           AND EXISTS (SELECT 1 FROM allowed)
       ),
       spent AS (
         INSERT INTO ${this.#spend} (step, day, usd)
         SELECT $1, d.day, d.usd FROM unnest($6::text[], $7::float8[]) AS d(day, usd)
         WHERE EXISTS (SELECT 1 FROM allowed)
         ON CONFLICT (step, day) DO UPDATE SET usd = EXCLUDED.usd
       )
       SELECT count(*)::int AS written FROM written`,
      [
        record.step,
        JSON.stringify(record),
        options.lease ?? null,
        runOf(record),
        record.costUsd,
        [...days.keys()],
        [...days.values()],
      ],
    );
    if (options.lease !== undefined && (rows[0]?.written ?? 0) === 0) throw new LeaseLostError(record.step);
  }

  /** What every record spent on a UTC day (`YYYY-MM-DD`): one sum over the day's rows, no record read. */
  async daySpent(day: string): Promise<number> {
    const { rows } = await this.#query<{ usd: number }>(
      "sum the day's spend",
      `SELECT coalesce(sum(usd), 0)::float8 AS usd FROM ${this.#spend} WHERE day = $1`,
      [day],
    );
    return rows[0]?.usd ?? 0;
  }

  /** A run's spent figure (runSpent over its records): one sum over its rows. */
  async runSpent(run: string): Promise<number> {
    const { rows } = await this.#query<{ usd: number }>(
      "sum a run's spend",
      `SELECT coalesce(sum(cost_usd), 0)::float8 AS usd FROM ${this.#steps} WHERE run = $1`,
      [run],
    );
    return rows[0]?.usd ?? 0;
  }

  /** Removes a step's record and its lease. */
  async delete(step: string): Promise<boolean> {
    const pool = await this.#ready();
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const deleted = await this.deleteSteps(client, [step]);
      await client.query("COMMIT");
      return deleted > 0;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw this.#failure("delete a step", error);
    } finally {
      client.release();
    }
  }

  /**
   * In the caller's transaction (storage/store-view.ts's forget): locks the steps' lease rows until it
   * ends and returns them, so the caller can check they are still the ones it judged dead.
   */
  async lockLeases(client: ClientBase, steps: readonly string[]): Promise<{ step: string; token: string }[]> {
    const { rows } = await client.query<{ step: string; token: string }>(
      `SELECT step, token FROM ${this.#leases} WHERE step = ANY($1) FOR UPDATE`,
      [steps],
    );
    return rows;
  }

  /** In the caller's transaction: deletes the steps' leases and records; returns how many records went. */
  async deleteSteps(client: ClientBase, steps: readonly string[]): Promise<number> {
    await client.query(`DELETE FROM ${this.#leases} WHERE step = ANY($1)`, [steps]);
    await this.requests.deleteSteps(client, steps);
    await this.messages.deleteSteps(client, steps);
    await client.query(`DELETE FROM ${this.#spend} WHERE step = ANY($1)`, [steps]);
    const { rowCount } = await client.query(`DELETE FROM ${this.#steps} WHERE step = ANY($1)`, [steps]);
    return rowCount ?? 0;
  }

  async acquire(step: string, options: AcquireOptions & { token: string }): Promise<AcquireResult> {
    // Insert-or-nothing, then read: two machines inserting at once cannot both win the primary key.
    for (let tries = 0; tries < 3; tries += 1) {
      const inserted = await this.#query<LeaseColumns>(
        "take a lease",
        `INSERT INTO ${this.#leases} (step, token, pid, host, machine, start_ticks)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (step) DO NOTHING RETURNING ${LEASE_SELECT}`,
        this.#identity(step, options),
      );
      const readAt = Date.now();
      if (inserted.rows[0]) return { kind: "acquired", lease: toLease(inserted.rows[0], readAt) };
      const current = await this.#lease(step);
      // Released between the insert and the read: try again.
      if (!current) continue;
      if (current.token === options.token) return { kind: "acquired", lease: current };
      return { kind: "held", lease: current };
    }
    throw new StoreError(`Cannot take the lease of "${step}" in ${this.location}: it changed hands 3 times`);
  }

  /** Replaces the dead owner's lease (by its token) with ours; false when somebody else got there first. */
  async takeOver(
    step: string,
    deadToken: string,
    options: AcquireOptions & { token: string },
  ): Promise<boolean> {
    const replaced = await this.#query(
      "take over a lease",
      `UPDATE ${this.#leases} SET token = $2, pid = $3, host = $4, machine = $5, start_ticks = $6,
         started_at = now(), heartbeat_at = now(), children = '[]'
       WHERE step = $1 AND token = $7`,
      [...this.#identity(step, options), deadToken],
    );
    if ((replaced.rowCount ?? 0) > 0) return true;
    // The dead owner's row is gone altogether (released, or deleted): an empty slot is ours if we get it.
    const inserted = await this.#query(
      "take over a lease",
      `INSERT INTO ${this.#leases} (step, token, pid, host, machine, start_ticks)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (step) DO NOTHING`,
      this.#identity(step, options),
    );
    return (inserted.rowCount ?? 0) > 0;
  }

  /** Refreshes the heartbeat (server clock) and the children; false when the lease is no longer ours. */
  async heartbeat(step: string, token: string, _now: Date, children?: number[]): Promise<boolean> {
    const result =
      children === undefined
        ? await this.#query(
            "refresh a lease",
            `UPDATE ${this.#leases} SET heartbeat_at = now() WHERE step = $1 AND token = $2`,
            [step, token],
          )
        : await this.#query(
            "refresh a lease",
            `UPDATE ${this.#leases} SET heartbeat_at = now(), children = $3 WHERE step = $1 AND token = $2`,
            [step, token, JSON.stringify(children)],
          );
    return (result.rowCount ?? 0) > 0;
  }

  async release(step: string, token: string): Promise<void> {
    await this.#query("release a lease", `DELETE FROM ${this.#leases} WHERE step = $1 AND token = $2`, [
      step,
      token,
    ]);
  }

  async leases(): Promise<LeaseRow[]> {
    const { rows } = await this.#query<LeaseColumns>(
      "list the leases",
      `SELECT ${LEASE_SELECT} FROM ${this.#leases} ORDER BY step`,
      [],
    );
    const readAt = Date.now();
    return rows.map((row) => toLease(row, readAt));
  }

  async #lease(step: string): Promise<LeaseRow | undefined> {
    const { rows } = await this.#query<LeaseColumns>(
      "read a lease",
      `SELECT ${LEASE_SELECT} FROM ${this.#leases} WHERE step = $1`,
      [step],
    );
    return rows[0] ? toLease(rows[0], Date.now()) : undefined;
  }

  #identity(step: string, { self, token }: AcquireOptions & { token: string }): unknown[] {
    return [step, token, self.pid, self.host, self.machine ?? null, self.startTicks];
  }

  async #ready(): Promise<Pool> {
    try {
      return await this.#pool();
    } catch (error) {
      throw this.#failure("connect", error);
    }
  }

  async #query<Row extends QueryResultRow = QueryResultRow>(
    operation: string,
    text: string,
    values: unknown[],
  ): Promise<{ rows: Row[]; rowCount: number | null }> {
    const pool = await this.#ready();
    try {
      const result = await pool.query<Row>(text, values);
      return { rows: result.rows, rowCount: result.rowCount };
    } catch (error) {
      throw this.#failure(operation, error);
    }
  }

  #failure(operation: string, error: unknown): StoreError {
    if (error instanceof StoreError) return error;
    return new StoreError(
      `Run records: cannot ${operation} in ${this.location}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
