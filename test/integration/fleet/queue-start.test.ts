/**
 * Workers started together all start the queue. Three `node` processes (three `flower worker`s of one
 * deploy) each open the fleet store from dist/ (build first) as a worker does, wait at a barrier, and call
 * ready() — flower's migration, pg-boss's schema, the fleet's queue — at the same instant; ten rounds, each
 * on a fresh schema, and every one of the 30 starts must succeed, with no deadlock in the server's log:
 * - on a fresh store (the report: 1–3 of 18 workers exited with "cannot start the queue …: deadlock
 *   detected");
 * - on a fresh store whose pg-boss schema is already there, as the first starter leaves it a moment before
 *   it creates the queue: here the three reach pg-boss's `create_queue` together, where two concurrent
 *   calls deadlock (run-queue.ts says how).
 * A start that lost the deadlock failed only when its re-check ran before the winner's commit, so the
 * server's log is where the race shows whatever the timing. The server is this file's own with fsync on, as
 * a deploy's is: a commit that reaches the disk makes the failure likely (before the fix, 2–3 of a case's
 * 30 starts failed in most runs; on the run's shared server, fsync off, hardly any did).
 * A store nobody can reach still fails with the StoreError naming it.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFleet } from "../../../src/index.js";
import { queueSchema } from "../../../src/storage/postgres/run-queue.js";
import {
  freshSchema,
  queryOnce,
  startPostgresServer,
  type PostgresServer,
} from "../../support/postgres-server.js";

const ROUNDS = 10;
const PROCESSES = 3;

let server: PostgresServer | undefined;
beforeAll(async () => {
  server = await startPostgresServer({ durable: true });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const FLEET_STORE = pathToFileURL(join(import.meta.dirname, "../../../dist/storage/fleet-store.js")).href;

/**
 * One worker's start: opens the store as `flower worker` does (supervising the queue), says "waiting", and
 * calls ready() when a line comes on stdin; prints "started" or the error's message, exits 0 or 1.
 */
const STARTER = `
import { openFleetStore } from ${JSON.stringify(FLEET_STORE)};
const fleet = openFleetStore(process.argv[1], { supervise: true });
process.stdout.write("waiting\\n");
process.stdin.once("data", async () => {
  process.stdin.pause();
  let code = 0;
  try {
    await fleet.ready();
    process.stdout.write("started\\n");
  } catch (error) {
    process.stderr.write(String(error?.message ?? error) + "\\n");
    code = 1;
  }
  await fleet.close().catch(() => undefined);
  process.exit(code);
});
`;

interface Start {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `count` starters on `store`, released together once each has loaded flower and is waiting. */
async function startTogether(store: string, count: number): Promise<Start[]> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ["--input-type=module", "-e", STARTER, store], {
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  try {
    const waiting: Promise<void>[] = [];
    const ends = children.map((child) => {
      const result: Start = { code: null, stdout: "", stderr: "" };
      waiting.push(
        new Promise((resolve, reject) => {
          child.stdout.on("data", (chunk: Buffer) => {
            result.stdout += chunk.toString();
            if (result.stdout.includes("waiting\n")) resolve();
          });
          child.on("exit", () => reject(new Error(`a starter exited before the barrier: ${result.stderr}`)));
        }),
      );
      child.stderr.on("data", (chunk: Buffer) => (result.stderr += chunk.toString()));
      return new Promise<Start>((resolve) => child.on("exit", (code) => resolve({ ...result, code })));
    });
    await Promise.all(waiting);
    for (const child of children) child.stdin.end("go\n");
    return await Promise.all(ends);
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

/** The server's log (errors and their statements); `from`: a length read before. */
function serverLog(from = 0): string {
  return readFileSync(join(server!.dir, "server.log"), "utf8").slice(from);
}

/**
 * Ten rounds of three starts on a fresh schema each (`prepare` readies it first): the starts that failed,
 * and the deadlocks the server reported meanwhile (a start can lose one and still find the queue).
 */
async function rounds(
  prepare: (url: string, schema: string) => Promise<void>,
): Promise<{ failures: string[]; deadlocks: string[] }> {
  const { url } = server!;
  const logFrom = serverLog().length;
  const failures: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const schema = freshSchema("qstart");
    await prepare(url, schema);
    const starts = await startTogether(`${url}?schema=${schema}`, PROCESSES);
    for (const start of starts)
      if (start.code !== 0 || !start.stdout.includes("started"))
        failures.push(`round ${round}: exit ${start.code}: ${start.stderr.trim()}`);
    // The queue is there once, whoever created it.
    const queues = await queryOnce<{ name: string }>(url, `SELECT name FROM ${queueSchema(schema)}.queue`);
    expect(queues.map((queue) => queue.name)).toEqual(["flower-runs"]);
  }
  const deadlocks = serverLog(logFrom)
    .split("\n")
    .filter((line) => line.includes("deadlock detected"));
  return { failures, deadlocks };
}

describe(`${PROCESSES} worker processes starting the queue at once, ${ROUNDS} rounds`, () => {
  it("on a fresh store: all start", async () => {
    const { failures, deadlocks } = await rounds(async () => undefined);
    expect(failures, `${failures.length} of ${ROUNDS * PROCESSES} starts failed`).toEqual([]);
    expect(deadlocks, `the server reported ${deadlocks.length} deadlocks`).toEqual([]);
  }, 300_000);

  it("on a fresh store whose pg-boss schema exists, the queue not yet: all start", async () => {
    const { failures, deadlocks } = await rounds(async (url, schema) => {
      const boss = new PgBoss({
        connectionString: url,
        schema: queueSchema(schema),
        supervise: false,
        schedule: false,
      });
      boss.on("error", () => undefined);
      await boss.start();
      await boss.stop({ graceful: false, close: true, wait: true });
    });
    expect(failures, `${failures.length} of ${ROUNDS * PROCESSES} starts failed`).toEqual([]);
    expect(deadlocks, `the server reported ${deadlocks.length} deadlocks`).toEqual([]);
  }, 300_000);
});

it("a store that cannot be reached still fails with the StoreError naming it", async () => {
  const fleet = openFleet("postgres://flower@127.0.0.1:1/nowhere?schema=flower");
  try {
    await expect(fleet.ready()).rejects.toThrow(
      /Cannot use the store postgres:\/\/flower@127\.0\.0\.1:1\/nowhere\S* \(schema flower\): connect ECONNREFUSED/,
    );
    await expect(fleet.queue.start()).rejects.toThrow(
      /Fleet: cannot start the queue in postgres:\/\/flower@127\.0\.0\.1:1\/nowhere\S* \(schema flower\): connect ECONNREFUSED/,
    );
  } finally {
    await fleet.close();
  }
});
