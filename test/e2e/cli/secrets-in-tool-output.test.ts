/**
 * Security through the real CLI, the way a credential really leaks: a subagent runs `env` (and a `printenv`
 * long enough for the spill guard), so the planted API key and auth token come back in tool results. The
 * model sees them (that is what the provider receives, flower cannot change it), quotes them in its
 * answers, and then every byte flower wrote — the run directory with both databases and their WAL files,
 * the workbench with the spill files, stdout and stderr of every command (-v and --json events), and with
 * a shared store every row of its Postgres schema — is searched for them beyond the 4 characters -v shows.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { cleanEnv, runFlower, type Finished, useCliTest } from "./helpers.js";
import { filesUnder, noSecretOf } from "./secrets.js";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;
const server = usePostgresServer();

const API_KEY = "sk-ant-api03-ENVLEAKKEY-Pq2Wd5Gh8Uy1";
const AUTH_TOKEN = "sk-ant-oat01-ENVLEAKTOKEN-Mv6Tc3Xf9Rn4";
/** Makes `printenv` longer than the spill threshold (4,000 characters). */
const PADDING = "padding-".repeat(800);

const expectNoSecret = noSecretOf([API_KEY, AUTH_TOKEN]);

/** The lines of a tool result that name a credential variable, as a model quoting its findings would. */
function credentialLines(result: string): string {
  return result
    .split("\n")
    .filter((line) => /ANTHROPIC_(API_KEY|AUTH_TOKEN)=/.test(line))
    .join("\n");
}

/** Every row of every table in a schema, as text (byte columns decoded). */
async function schemaDump(url: string, schema: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
      [schema],
    );
    expect(tables.rows.length).toBeGreaterThan(0);
    const parts: string[] = [];
    for (const { table_name } of tables.rows) {
      const rows = await client.query(`SELECT * FROM "${schema}"."${table_name}"`);
      for (const row of rows.rows as Array<Record<string, unknown>>) {
        for (const value of Object.values(row))
          parts.push(Buffer.isBuffer(value) ? value.toString("utf8") : JSON.stringify(value));
      }
    }
    return parts.join("\n");
  } finally {
    await client.end();
  }
}

async function envSession(store: "sqlite" | "postgres"): Promise<void> {
  const root = temp.make("flower-envleak-");
  const workspace = join(root, "ws");
  const runDir = join(root, "runs");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "README.md"), "a project\n");
  const schema = freshSchema("envleak");
  const storeUrl = `${server().url}?schema=${schema}`;
  model = await startModel({
    policy: (request: ModelRequest) => {
      if (request.isSubagent) {
        const ran = request.countToolResults("Bash");
        if (ran === 0)
          return toolUse("Bash", { command: "env | grep -E '^ANTHROPIC_(API_KEY|AUTH_TOKEN)='" });
        if (ran === 1) return toolUse("Bash", { command: "printenv" });
        // A model quoting what it found: the credentials reach the answer, the Agent result, the record.
        return text(`The credentials are set:\n${credentialLines(request.toolResults()[0]!.text)}`);
      }
      if (request.lastUserText().includes("Continue the task.")) return text("Continued.");
      if (request.countToolResults() === 0)
        return toolUse("Agent", {
          subagent_type: "analyst",
          description: "Env",
          prompt: "Print the environment.",
        });
      return text(`Finished. The worker reported:\n${credentialLines(request.lastToolResult()!.text)}`);
    },
  });
  const env = (extra: Record<string, string> = {}) =>
    cleanEnv(
      model!.env({
        ANTHROPIC_API_KEY: API_KEY,
        ANTHROPIC_AUTH_TOKEN: AUTH_TOKEN,
        FLOWER_PADDING: PADDING,
        ...(store === "postgres" ? { FLOWER_STORE: storeUrl } : {}),
        ...extra,
      }),
    );
  const outputs: Array<[string, Finished]> = [];
  const flower = async (name: string, args: string[]) => {
    const where = ["show", "report", "runs"].includes(args[0]!) ? [] : ["--workspace", workspace];
    const finished = await runFlower([...args, ...where, "--run-dir", runDir], {
      env: env(),
      cwd: root,
      timeoutMs: 60_000,
    });
    outputs.push([name, finished]);
    expect(finished.code, `${name}: ${finished.stdout}${finished.stderr}`).toBe(0);
    return finished;
  };

  const run = await flower("run -v", ["-v", "--direct", "--step", "s", "Check the environment"]);
  expect(run.stdout).toContain("spill");
  expect(run.stdout).toContain("[redacted ANTHROPIC_API_KEY]");
  const continued = await flower("continue -v --json", ["continue", "s", "-v", "--json"]);
  expect(continued.stdout).toContain('"type":"result"');
  await flower("show", ["show", "s"]);
  await flower("report", ["report", "s"]);
  await flower("runs --json", ["runs", "--json"]);

  // The test means something: the credentials did come back from the tools, and the model saw them
  // (what the provider receives is not flower's to change).
  const seen = model.requests.flatMap((request) => request.toolResults().map((result) => result.text));
  expect(seen.some((result) => result.includes(`ANTHROPIC_API_KEY=${API_KEY}`))).toBe(true);
  expect(seen.some((result) => result.includes(`ANTHROPIC_AUTH_TOKEN=${AUTH_TOKEN}`))).toBe(true);
  const printed = model.requests
    .flatMap((request) => request.toolResults())
    .filter((result) => result.input?.command === "printenv");
  // The long printenv output was spilled: the model got the pointer, the file has the rest.
  expect(printed.length).toBeGreaterThan(0);
  expect(printed.every((result) => result.text.includes(join(".flower", "spill")))).toBe(true);

  for (const [name, finished] of outputs) {
    expectNoSecret(`${name} stdout`, finished.stdout);
    expectNoSecret(`${name} stderr`, finished.stderr);
  }
  const written = [...filesUnder(runDir), ...filesUnder(join(workspace, ".flower"))];
  const spills = written.filter((path) => path.includes(join(".flower", "spill")));
  expect(spills.length).toBeGreaterThan(0);
  // The printenv spill file is there, with the markers where the credentials were.
  const printenvSpill = spills.filter((path) =>
    readFileSync(path, "utf8").includes("FLOWER_PADDING=padding-"),
  );
  expect(printenvSpill.length).toBeGreaterThan(0);
  for (const path of printenvSpill) {
    const content = readFileSync(path, "utf8");
    expect(content).toContain("ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]");
    expect(content).toContain("ANTHROPIC_AUTH_TOKEN=[redacted ANTHROPIC_AUTH_TOKEN]");
  }
  if (store === "sqlite") {
    const sessions = written.find((path) => path.endsWith("sessions.db"));
    expect(sessions).toBeDefined();
    const stored = written
      .filter((path) => /sessions\.db(-wal)?$/.test(path))
      .map((path) => readFileSync(path))
      .some((bytes) => bytes.includes("[redacted ANTHROPIC_AUTH_TOKEN]"));
    expect(stored).toBe(true);
  }
  for (const path of written) expectNoSecret(path, readFileSync(path));
  if (store === "postgres") {
    const dump = await schemaDump(server().url, schema);
    expect(dump).toContain("[redacted ANTHROPIC_API_KEY]");
    expectNoSecret(`postgres schema ${schema}`, dump);
  }
}

describe("credentials a subagent prints", () => {
  it("env and printenv output never put a credential in a file, the store, an event or -v (SQLite)", async () => {
    await envSession("sqlite");
  }, 180_000);

  it("the same with a shared Postgres store: no row of its schema holds one", async () => {
    await envSession("postgres");
  }, 180_000);
});
