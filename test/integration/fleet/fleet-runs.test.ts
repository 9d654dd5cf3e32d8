/**
 * The fleet's library face against a real PostgreSQL server, no worker and no binary: submit puts a
 * run and one pg-boss job in the store; listFleetRuns shows it; approve and cancel move it, refuse what
 * they cannot do with the run's name in the message; a worker's claim is one at a time. The runs driven
 * through the real binary are in test/e2e/cli/fleet-*.test.ts.
 */
import { describe, expect, it } from "vitest";
import { approveRun, cancelRun, listFleetRuns, openFleet, submit } from "../../../src/index.js";
import { currentProcess } from "../../../src/records/process-identity.js";
import { freshSchema, queryOnce, usePostgresServer } from "../../support/postgres-server.js";

const postgres = usePostgresServer();

function storeUrl(): { url: string; schema: string } {
  const schema = freshSchema("fleet");
  return { url: `${postgres().url}?schema=${schema}`, schema };
}

async function jobState(schema: string, id: string): Promise<string | undefined> {
  const rows = await queryOnce<{ state: string }>(
    postgres().url,
    `SELECT state FROM ${schema}_queue.job WHERE id = $1`,
    [id],
  );
  return rows[0]?.state;
}

describe("the fleet's runs", () => {
  it("submit queues a run with one job; list, cancel and approve say what they did or why not", async () => {
    const { url, schema } = storeUrl();
    const first = await submit(url, "Fix the flaky test");
    const second = await submit(url, "Fix the flaky test", { yes: true, window: 90_000 });
    expect(first.run).toBe("fix-the-flaky-test");
    expect(second.run).toBe("fix-the-flaky-test-2");
    expect(await jobState(schema, first.job)).toBe("created");

    const runs = await listFleetRuns(url);
    expect(runs.map((run) => [run.run, run.status, run.yes, run.window])).toEqual([
      ["fix-the-flaky-test", "queued", false, undefined],
      ["fix-the-flaky-test-2", "queued", true, 90_000],
    ]);

    await expect(approveRun(url, first.run)).rejects.toThrow(
      'Cannot approve run "fix-the-flaky-test": it is queued, and only a paused run waits for approval',
    );
    await expect(cancelRun(url, "no-such-run")).rejects.toThrow(
      /No run "no-such-run" in the fleet of .* \(runs: fix-the-flaky-test, fix-the-flaky-test-2\)/,
    );
    const cancelled = await cancelRun(url, first.run);
    expect(cancelled.status).toBe("cancelled");
    expect(await jobState(schema, first.job)).toBe("cancelled");
    await expect(cancelRun(url, first.run)).rejects.toThrow(
      'Cannot cancel run "fix-the-flaky-test": it is cancelled already',
    );
    await expect(submit(url, "x", { run: second.run })).rejects.toThrow(
      /Invalid option run: got "fix-the-flaky-test-2", expected a new run name/,
    );
    await expect(submit("sqlite:/tmp/x.db", "x")).rejects.toThrow(
      /a fleet shares its runs through a PostgreSQL store/,
    );
  });

  it("a paused run is approved back into the queue; only one worker can claim a queued run", async () => {
    const { url } = storeUrl();
    const fleet = openFleet(url);
    try {
      const { run, job } = await submit(fleet, "Write the docs");
      expect((await fleet.queue.fetch(5)).map((fetched) => fetched.id)).toEqual([job]);
      const self = currentProcess();
      const [one, two] = await Promise.all([
        fleet.runs.claim(run, "token-1", self),
        fleet.runs.claim(run, "token-2", self),
      ]);
      expect([one, two].filter((claimed) => claimed !== null)).toHaveLength(1);
      const token = one ? "token-1" : "token-2";
      expect(await fleet.runs.finish(run, "someone-else", "paused")).toBe(false);
      expect(await fleet.runs.finish(run, token, "paused", { job: null })).toBe(true);
      await fleet.queue.complete(job);
      expect((await listFleetRuns(fleet))[0]!.status).toBe("paused");

      const approved = await approveRun(fleet, run);
      expect(approved).toMatchObject({ run, status: "queued", approved: true });
      const jobs = await fleet.queue.fetch(5);
      expect(jobs.map((job) => job.run)).toEqual([run]);
    } finally {
      await fleet.close();
    }
  });
});
