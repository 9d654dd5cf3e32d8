/**
 * A command reaches a shared store before it makes a runtime (an unreachable server is one line, and no
 * run directory is left behind), and the runtime then works over that same connection: one pool per
 * process, not one opened to migrate and closed, and a second beside it (issue 44).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { Runtime } from "../../../src/index.js";
import { handOver, reachStore } from "../../../src/storage/backing-store.js";
import { parseStoreSpec } from "../../../src/storage/store-spec.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";

const postgres = usePostgresServer();
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "flower-reach-"));
  dirs.push(dir);
  return dir;
}

function spec() {
  const url = new URL(postgres().url);
  url.searchParams.set("schema", freshSchema("reach"));
  return parseStoreSpec(url.toString(), "--store");
}

describe("reachStore, then the runtime", () => {
  it("the runtime works over the connection that reached the store, and closes it", async () => {
    const store = spec();
    const reached = await reachStore(store);
    expect(reached).not.toBeNull();
    const root = tempDir();
    const rt = await handOver(
      reached,
      () =>
        new Runtime({ workspace: root, runDir: join(root, "runs"), store, _internal: { reached: reached! } }),
    );
    await rt.ready();
    // The records went through the reached pool: the runtime opened none of its own.
    await rt.records.pull?.();
    expect(reached!.pool.totalCount).toBeGreaterThan(0);
    expect(reached!.pool.ended).toBe(false);
    rt.close();
    await vi.waitFor(() => expect(reached!.pool.ended).toBe(true), { timeout: 30_000 });
  });

  it("a runtime that cannot be made closes the connection nobody took (the process is not kept alive)", async () => {
    const reached = await reachStore(spec());
    const root = tempDir();
    await expect(
      handOver(
        reached,
        () => new Runtime({ workspace: root, runDir: join(root, "runs"), spillThreshold: -1 }),
      ),
    ).rejects.toThrow(ConfigurationError);
    expect(reached!.pool.ended).toBe(true);
    expect(existsSync(join(root, "runs"))).toBe(false);
  });

  it("SQLite has nothing to reach", async () => {
    expect(await reachStore(parseStoreSpec(undefined))).toBeNull();
  });
});
