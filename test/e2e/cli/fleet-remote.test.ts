/**
 * A worker on another machine dies (power off): its pid cannot be probed from here, so its runs are
 * taken back only once its heartbeat is older than the lease's staleAfterMs (30 s). The machine is
 * simulated in the store as it would look 31 s after it vanished — its fleet row running with its
 * identity, the queue's job active, the step's lease held — and a `flower worker` started here must take
 * the run back through the queue, take the stale lease over, and finish the run.
 */
import { describe, expect, it } from "vitest";
import { text, toolUse, type ModelRequest } from "../../../src/testing/index.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { fleetProject, fleetRows, query, startWorker, submitRun, until } from "./fleet-helpers.js";
import { useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

/** How the vanished machine looks: another host and boot id, its heartbeat 31 s old. */
const GONE = { pid: 4242, host: "runner-b", machine: "another-boot/pid:[4026531836]" };
const STALE = "now() - interval '31 seconds'";

describe("a worker on another machine that vanished", () => {
  it("its run is taken back once its heartbeat is stale, its lease taken over, and the run finished", async () => {
    const kit = await startModel({
      policy: (request: ModelRequest) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.isSubagent) return text("unused");
        const read = request.countToolResults("Read");
        return read < 2 ? toolUse("Read", { file_path: `note-${read + 1}.md` }) : text("Read them all.");
      },
    });
    const schema = freshSchema("remote");
    const url = `${server().url}?schema=${schema}`;
    const workspace = fleetProject(temp);
    const run = await submitRun(url, "Read two notes", ["--direct"]);

    // The other machine had taken the run (its job active, its row and the step's lease in its name).
    const db = server().url;
    await query(
      db,
      `UPDATE ${schema}_queue.job SET state = 'active', started_on = now() WHERE name = 'flower-runs'`,
    );
    await query(
      db,
      `UPDATE ${schema}.flower_fleet_runs SET status = 'running', token = 'gone', pid = $2, host = $3,
         machine = $4, start_ticks = 1, heartbeat_at = ${STALE} WHERE run = $1`,
      [run, GONE.pid, GONE.host, GONE.machine],
    );
    await query(
      db,
      `INSERT INTO ${schema}.flower_leases (step, token, pid, host, machine, start_ticks, started_at, heartbeat_at)
       VALUES ($1, 'gone-lease', $2, $3, $4, 1, ${STALE}, ${STALE})`,
      [run, GONE.pid, GONE.host, GONE.machine],
    );

    // While its heartbeat is fresh, the other machine may be alive: nothing is taken from it.
    await query(db, `UPDATE ${schema}.flower_fleet_runs SET heartbeat_at = now() WHERE run = $1`, [run]);
    const worker = startWorker(kit, temp, { name: "w1", url, workspace });
    let said = "";
    worker.child.stdout!.on("data", (chunk: Buffer) => (said += chunk.toString()));
    await until(() => said.includes("takes runs from"), "the worker to start");
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await fleetRows(db, schema))[0]).toMatchObject({ status: "running", pid: GONE.pid });
    expect(kit.requests).toHaveLength(0);

    // Its heartbeat goes stale: the run comes back through the queue.
    await query(db, `UPDATE ${schema}.flower_fleet_runs SET heartbeat_at = ${STALE} WHERE run = $1`, [run]);
    await until(
      async () => (await fleetRows(db, schema))[0]?.status === "done",
      "the run taken back and done",
    );
    expect(await query(db, `SELECT * FROM ${schema}.flower_leases`)).toEqual([]);
    const [job] = await query<{ state: string; retry_count: number }>(
      db,
      `SELECT state, retry_count FROM ${schema}_queue.job WHERE name = 'flower-runs'`,
    );
    expect(job).toEqual({ state: "completed", retry_count: 1 });

    worker.child.kill("SIGTERM");
    const ended = await worker.done;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain(
      `${run}: its worker pid ${GONE.pid}@${GONE.host} is gone; back in the queue`,
    );
    expect(ended.stdout).toContain(`${run}: done`);
    kit.assertNoErrors();
  }, 180_000);
});
