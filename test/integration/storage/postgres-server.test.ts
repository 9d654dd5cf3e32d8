/** The test server itself: it must leave nothing behind, and fail (not skip) without its binaries. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import pg from "pg";
import { pidExists } from "../../../src/records/process-identity.js";
import { INSTALL_HINT, startPostgresServer } from "../../support/postgres-server.js";

describe("startPostgresServer", () => {
  it("serves a real database on loopback, then stops and removes every trace", async () => {
    const server = await startPostgresServer();
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const { rows } = await client.query<{ fsync: string }>("SELECT current_setting('fsync') AS fsync");
    await client.end();
    expect(rows[0]?.fsync).toBe("off");
    expect(server.url).toMatch(/^postgres:\/\/flower@127\.0\.0\.1:\d+\/postgres$/);
    const postmaster = Number(
      readFileSync(join(server.dir, "data", "postmaster.pid"), "utf8").split("\n")[0],
    );
    expect(pidExists(postmaster)).toBe(true);
    await server.stop();
    await server.stop();
    expect(existsSync(server.dir)).toBe(false);
    expect(pidExists(postmaster)).toBe(false);
  });

  it("fails with the install command when pg_config is not on PATH", async () => {
    const saved = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      await expect(startPostgresServer()).rejects.toThrow(INSTALL_HINT);
    } finally {
      process.env.PATH = saved;
    }
    expect(INSTALL_HINT).toContain("apt-get install -y postgresql-15");
  });
});
