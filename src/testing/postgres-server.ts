/**
 * A real, throwaway PostgreSQL server for tests and benchmarks of the shared store: `initdb` + `postgres`
 * from `pg_config --bindir` (Debian's postgresql-15), a cluster in a temp dir, listening on a free
 * loopback port with its unix socket inside the temp dir; fsync off unless `durable` (a benchmark wants a
 * server that writes like a real one). Postgres refuses to run as root, so as root every command runs
 * through `runuser -u postgres --` on a dir owned by postgres.
 *
 * Nothing may outlive the tests: `stop()` shuts the server down and removes the dir; an exit handler does
 * the same if a test file ends without stopping it; and a watchdog shell kills the server if the test
 * process itself is killed (SIGKILL leaves no handler a chance).
 *
 * Missing binaries are a failure, not a skip: the message says how to install them.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { refuseUnknownOptions } from "../errors.js";
import { pidExists } from "../records/process-identity.js";

export const INSTALL_HINT =
  "PostgreSQL server binaries not found. The Postgres store tests start their own server from " +
  "`pg_config --bindir` (initdb, postgres). Install them with: " +
  "apt-get update && apt-get install -y postgresql-15  (Debian/Ubuntu; any PostgreSQL ≥ 13 with pg_config works).";

export interface PostgresServer {
  /** `postgres://flower@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  url: string;
  port: number;
  /** The temp dir holding the cluster, its socket and its log. */
  dir: string;
  /** Shuts the server down and removes its dir. Idempotent. */
  stop(): Promise<void>;
}

export interface PostgresServerOptions {
  /**
   * fsync, synchronous commit and full page writes as a real server has them (for benchmarks); off,
   * tests run faster and lose nothing they check.
   * @default false
   */
  durable?: boolean;
  /** @default 200 */
  maxConnections?: number;
  /** @default "32MB" */
  sharedBuffers?: string;
}

const live = new Set<{ pid: () => number | undefined; dir: string }>();
let exitHandlerInstalled = false;

export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  refuseUnknownOptions(options, {
    durable: true,
    maxConnections: true,
    sharedBuffers: true,
  } satisfies Record<keyof PostgresServerOptions, true>);
  const { durable = false, maxConnections = 200, sharedBuffers = "32MB" } = options;
  if (!Number.isInteger(maxConnections) || maxConnections < 3)
    throw new Error(
      `startPostgresServer: maxConnections must be an integer >= 3, got ${String(maxConnections)}`,
    );
  const bin = serverBinaries();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : null;
  const dir = mkdtempSync(join(tmpdir(), "flower-pg-"));
  chmodSync(dir, 0o700);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];

  const entry = { pid: (): number | undefined => postmasterPid(data), dir };
  live.add(entry);
  installExitHandler();
  let server: ChildProcess | undefined;
  let watchdog: ChildProcess | undefined;
  try {
    const [initdb, initArgs] = command(bin.initdb, [
      "-D",
      data,
      "-U",
      "flower",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    try {
      execFileSync(initdb, initArgs, { stdio: "pipe", cwd: dir });
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? "");
      throw new Error(`initdb failed in ${dir}: ${stderr || (error as Error).message}`, { cause: error });
    }
    const port = await freePort();
    const log = openSync(join(dir, "server.log"), "a");
    const [postgres, serverArgs] = command(bin.postgres, [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-h",
      "127.0.0.1",
      ...(durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
      "-c",
      `max_connections=${maxConnections}`,
      "-c",
      `shared_buffers=${sharedBuffers}`,
    ]);
    server = spawn(postgres, serverArgs, { stdio: ["ignore", log, log], cwd: dir });
    closeSync(log);
    const url = `postgres://flower@127.0.0.1:${port}/postgres`;
    await waitUntilAccepting(url, server, dir);
    const pid = postmasterPid(data);
    if (pid === undefined) throw new Error(`postgres started but wrote no postmaster.pid in ${data}`);
    // Dies with the test process even when that one is SIGKILLed; exits by itself once the server is gone.
    watchdog = spawn(
      "sh",
      [
        "-c",
        `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${pid} 2>/dev/null; do sleep 1; done; ` +
          `kill -QUIT ${pid} 2>/dev/null; sleep 2; rm -rf '${dir}'`,
      ],
      { stdio: "ignore", detached: true },
    );
    watchdog.unref();
    const started = { server, watchdog };
    let stopped = false;
    return {
      url,
      port,
      dir,
      async stop() {
        if (stopped) return;
        stopped = true;
        await shutDown(entry.pid(), started.server);
        started.watchdog.kill("SIGKILL");
        live.delete(entry);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await shutDown(entry.pid(), server);
    watchdog?.kill("SIGKILL");
    live.delete(entry);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function serverBinaries(): { initdb: string; postgres: string } {
  let bindir: string;
  try {
    bindir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch (error) {
    throw new Error(INSTALL_HINT, { cause: error });
  }
  const initdb = join(bindir, "initdb");
  const postgres = join(bindir, "postgres");
  if (!existsSync(initdb) || !existsSync(postgres))
    throw new Error(`${INSTALL_HINT} (pg_config names ${bindir}, which has no initdb/postgres)`);
  return { initdb, postgres };
}

function postgresUser(): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch (error) {
    throw new Error(
      `Running as root, the test server must run as the user "postgres", which does not exist. ${INSTALL_HINT}`,
      { cause: error },
    );
  }
}

function postmasterPid(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

async function waitUntilAccepting(url: string, server: ChildProcess, dir: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(
        `postgres exited during start (${server.exitCode ?? server.signalCode}): ${logTail(dir)}`,
      );
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`postgres did not accept connections within 30 s: ${String(lastError)}; ${logTail(dir)}`);
}

function logTail(dir: string): string {
  try {
    return readFileSync(join(dir, "server.log"), "utf8").slice(-2000);
  } catch {
    return "(no server log)";
  }
}

/** Fast shutdown (SIGINT), then SIGKILL after 10 s; waits for the spawned child (runuser or postgres) too. */
async function shutDown(pid: number | undefined, child: ChildProcess | undefined): Promise<void> {
  if (pid !== undefined && pidExists(pid)) {
    process.kill(pid, "SIGINT");
    const deadline = Date.now() + 10_000;
    while (pidExists(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (pidExists(pid)) process.kill(pid, "SIGKILL");
  }
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (pid === undefined) child.kill("SIGKILL");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

function installExitHandler(): void {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.on("exit", () => {
    for (const entry of live) {
      const pid = entry.pid();
      if (pid !== undefined && pidExists(pid)) process.kill(pid, "SIGQUIT");
      rmSync(entry.dir, { recursive: true, force: true });
    }
  });
}
