/**
 * A vitest globalSetup: one throwaway PostgreSQL server for the whole test run, whichever projects use
 * it. Each project that lists this file gets the server's URL through provide()/inject()
 * ("flowerPostgresUrl"); test files take a database of their own on it through usePostgresServer().
 *
 * The integration and e2e projects both list this file, and vitest loads a globalSetup once per project,
 * so the server is kept on globalThis (all projects' setups run in the one main process) with a count of
 * the projects holding it: the first starts it, the last to tear down stops it.
 */
import type { TestProject } from "vitest/node";
import { startPostgresServer, type PostgresServer } from "../../src/testing/postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's shared server (`postgres://flower@127.0.0.1:<port>/postgres`), see postgres-server.ts. */
    flowerPostgresUrl: string;
  }
}

interface Shared {
  server: Promise<PostgresServer>;
  holders: number;
}

const KEY = Symbol.for("flower-agent.test.postgres-server");
const registry = globalThis as unknown as Record<typeof KEY, Shared | undefined>;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let shared = registry[KEY];
  if (!shared) {
    shared = { server: startPostgresServer(), holders: 0 };
    registry[KEY] = shared;
  }
  shared.holders += 1;
  const held = shared;
  let server: PostgresServer;
  try {
    server = await held.server;
  } catch (error) {
    held.holders -= 1;
    if (registry[KEY] === held) registry[KEY] = undefined;
    throw error;
  }
  project.provide("flowerPostgresUrl", server.url);
  return async () => {
    held.holders -= 1;
    if (held.holders > 0) return;
    if (registry[KEY] === held) registry[KEY] = undefined;
    await server.stop();
  };
}
