/**
 * A machine that dies mid-generation loses nothing on a shared store. Two checkouts (each its own
 * workspace path, run directory and CLAUDE_CONFIG_DIR), one PostgreSQL server, the built `flower`, the
 * real `claude` binary and the offline kit:
 *
 * machine A runs a step with `--store <url>`; it hands off, its successor reads notes one by one, and
 * while the successor waits for an answer A is killed with SIGKILL (its whole process group: the machine
 * is gone, and so are its JSONL copies and anything the SDK still held in memory). Machine B then runs
 * `flower continue <step> --store <url>` — the line a stop would print for a run started with
 * `--store` in its checkout — and resumes the successor's very session: same id, every entry A's
 * binary wrote present, none twice.
 *
 * Without the eager flush (session-options.ts) the successor's entries would still be in A's memory
 * batch when it died: the store would hold none of them, and B would start the generation afresh.
 */
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, toolUses, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { freshSchema, usePostgresServer, queryOnce } from "../../support/postgres-server.js";
import { localTranscripts } from "../../support/transcripts.js";
import { cleanEnv, killGroup, spawnFlower, useCliTest, writeNotes, runFlowerOk } from "./helpers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();
let model: FakeModel | undefined;

const STEP = "notes";
/** Reads the successor makes before A dies: two transcript entries each, and more around them. */
const SUCCESSOR_READS = 12;
const HANDOFF = handoffMarkdown({
  doing: "GEN-1: reading the notes in batches on machine A.",
  next: ["Read the notes one by one, from note-1.md."],
  scene: ["`note-1.md` — the first note"],
});
const CONTINUE = "Continue the task.";

function project(root: string): void {
  writeNotes(root);
}

interface Machine {
  workspace: string;
  configDir: string;
  env: Record<string, string>;
}

/** A checkout of the project at its own path, with its own claude config dir; no FLOWER_STORE. */
function machine(name: string, origin: string): Machine {
  const workspace = join(temp.make(`flower-${name}-`), "checkout");
  cpSync(origin, workspace, { recursive: true });
  const configDir = temp.make(`flower-claude-${name}-`);
  return { workspace, configDir, env: cleanEnv(model!.env({ CLAUDE_CONFIG_DIR: configDir })) };
}

function query<Row extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<Row[]> {
  return queryOnce<Row>(server().url, sql, values);
}

async function storedRecord(schema: string): Promise<StepRecord> {
  const rows = await query<{ record: string }>(`SELECT record FROM ${schema}.flower_steps WHERE step = $1`, [
    STEP,
  ]);
  return JSON.parse(rows[0]!.record) as StepRecord;
}

/** The uuids of a session's main transcript in the store, in stored order (every project key). */
async function storedUuids(schema: string, sessionId: string): Promise<string[]> {
  const rows = await query<{ body: string }>(
    `SELECT e.body FROM ${schema}.flower_entries e JOIN ${schema}.flower_transcripts t ON t.id = e.transcript_id
      WHERE t.session_id = $1 AND t.subpath = '' ORDER BY e.seq`,
    [sessionId],
  );
  return rows.flatMap((row) => {
    const uuid = (JSON.parse(row.body) as { uuid?: unknown }).uuid;
    return typeof uuid === "string" && uuid !== "" ? [uuid] : [];
  });
}

/** Whether the binary has written `text` into a session's local transcript (CLAUDE_CONFIG_DIR/projects). */
function localTranscriptHas(configDir: string, sessionId: string, text: string): boolean {
  const projects = join(configDir, "projects");
  if (!existsSync(projects)) return false;
  return readdirSync(projects).some((project) => {
    const file = join(projects, project, `${sessionId}.jsonl`);
    return existsSync(file) && readFileSync(file, "utf8").includes(text);
  });
}

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const isSuccessor = (request: ModelRequest) => request.firstUserText().includes("GEN-1");

describe("a machine that dies mid-generation on a shared store", () => {
  it("B's continue resumes the successor's very session with every entry A wrote, none twice", async () => {
    /** The request A is waiting on when it dies. */
    let dying: ModelRequest | undefined;
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) return text("unused");
        if (request.isHandoffTurn) return text(HANDOFF);
        if (request.lastUserText().includes(CONTINUE)) return text("Finished on machine B.");
        if (isSuccessor(request)) {
          const read = request.countToolResults("Read");
          if (read < SUCCESSOR_READS) return toolUse("Read", { file_path: `note-${read + 1}.md` });
          // A is killed while this answer is on its way.
          dying = request;
          return { ...text("never arrives"), delayMs: 120_000 };
        }
        const read = request.countToolResults("Read");
        return toolUses(
          Array.from({ length: 6 }, (_, i) => ({
            name: "Read",
            input: { file_path: `note-${read + i + 1}.md` },
          })),
        );
      },
    });
    const schema = freshSchema("crash");
    const url = `${server().url}?schema=${schema}`;
    const origin = temp.make("flower-origin-");
    project(origin);
    const a = machine("a", origin);
    const b = machine("b", origin);

    const running = spawnFlower(
      ["--direct", "--window", "85000", "--store", url, "--step", STEP, "Read all notes."],
      {
        env: a.env,
        cwd: a.workspace,
        timeoutMs: 180_000,
      },
    );
    await until(() => dying !== undefined, "the successor's last request on machine A", 150_000);
    const before = await storedRecord(schema);
    expect(before.generations).toBe(2);
    const successor = before.sessionId!;
    expect(before.history[1]!.sessionId).toBe(successor);
    expect(dying!.sessionId).toBe(successor);

    // What A's binary wrote of the successor's session, as A's disk has it: every entry reaches the
    // store while the turn is still running (with batched flush, none would before the turn ends).
    const written = () => localTranscripts(a.configDir).uuids.get(successor) ?? [];
    // Under load the binary can send its next request before the last tool result is in its own
    // transcript; an entry still on its way when the machine dies is the documented loss. So A dies once
    // the last Read's result is on A's disk, and the question is whether the store has everything there.
    await until(
      async () => {
        if (!localTranscriptHas(a.configDir, successor, `# NOTE-${SUCCESSOR_READS}`)) return false;
        const stored = new Set(await storedUuids(schema, successor));
        return written().length > 0 && written().every((uuid) => stored.has(uuid));
      },
      "the successor's entries in the store while its turn runs",
      30_000,
    );
    const local = written();
    expect(local.length).toBeGreaterThanOrEqual(2 * SUCCESSOR_READS);

    // The machine dies.
    killGroup(running.child, "SIGKILL");
    await running.done;

    const requestsBefore = model.requests.length;
    const continued = await runFlowerOk(["continue", STEP, "--store", url], {
      env: b.env,
      cwd: b.workspace,
      timeoutMs: 90_000,
    });
    expect(continued.stdout).toContain("Finished on machine B.");

    // B resumed the successor's session, not a fresh one, and the model saw what the successor had read.
    const resumed = model.requests.slice(requestsBefore).find((request) => request.kind === "main")!;
    expect(resumed.sessionId).toBe(successor);
    expect(resumed.countToolResults("Read")).toBe(SUCCESSOR_READS);
    expect(resumed.allText()).toContain(`# NOTE-${SUCCESSOR_READS}`);
    expect(resumed.firstUserText()).toContain("GEN-1");

    // No entry lost or duplicated: every entry A wrote is in the store once, followed by B's.
    const stored = await storedUuids(schema, successor);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.slice(0, local.length)).toEqual(local);
    expect(stored.length).toBeGreaterThan(local.length);

    const done = await storedRecord(schema);
    expect(done.status).toBe("done");
    expect(done.generations).toBe(2);
    expect(done.sessionId).toBe(successor);
    expect(done.errors.join("\n")).not.toMatch(/started afresh/);
  }, 300_000);
});
