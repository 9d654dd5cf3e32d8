/**
 * Secrets are never carried without being asked (SPEC K7), and a worker keeps nothing of a run that is
 * over (K8): the person's checkout has an untracked `.env` that `.gitignore` does not name (an API key in
 * it) and `secrets/id_rsa` (a private key with a marker), beside an untracked note. They submit a run
 * with `flower submit`; a `flower worker` on another clone of the repository drives it, with the real
 * binary and the kit, on a real PostgreSQL store.
 *
 * What must hold: submit names both files as left out; neither planted value is in any byte of the store
 * (every table, its bundles unpacked with git), of the worker's checkout (its `.git` and run directory
 * too), or of the branch `flower fetch` builds; the model never sees them. A second run whose checkout's
 * `flower.json` says `"carry": [".env"]` brings `.env` along and says so, the key still out. `flower
 * apply` in the submitting checkout merges each run's work, its untracked files untouched and never
 * committed. The worker's checkout has no ref, reflog entry, worktree or shadow repository of either run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { fleetRows, startWorker, until } from "./fleet-helpers.js";
import { cleanEnv, runFlower, runFlowerOk, useCliTest } from "./helpers.js";
import { git } from "../../support/git.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

const API_KEY = "sk-ant-api03-PLANTED-ENV-KEY-7c1d2e3f4a5b";
const PEM_MARKER = "PLANTEDPEMMARKER0e9d8c7b";
const PRIVATE_KEY = [
  "-----BEGIN OPENSSH PRIVATE KEY-----",
  `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW${PEM_MARKER}`,
  "QyNTUxOQAAACDkVlYXJsb25nZXJrZXltYXRlcmlhbHRvbWFrZWl0bG9va3JlYWwAAAA=",
  "-----END OPENSSH PRIVATE KEY-----",
  "",
].join("\n");

/** origin with one pushed commit; the person's clone with the secrets and a note; the worker's clone. */
function repositories(): { origin: string; person: string; worker: string } {
  const root = temp.make("flower-fleet-secrets-");
  const origin = join(root, "origin.git");
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  const clone = (name: string) => {
    const dir = join(root, name);
    git(root, "clone", "-q", origin, dir);
    git(dir, "config", "user.email", `${name}@example.com`);
    git(dir, "config", "user.name", name);
    return dir;
  };
  const seed = clone("seed");
  writeFileSync(join(seed, ".gitignore"), "runs/\n");
  writeFileSync(join(seed, "README.md"), "# A service\n");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "the service");
  git(seed, "push", "-q", "origin", "main");
  const person = clone("person");
  writeFileSync(join(person, ".env"), `ANTHROPIC_API_KEY=${API_KEY}\n`);
  mkdirSync(join(person, "secrets"));
  writeFileSync(join(person, "secrets", "id_rsa"), PRIVATE_KEY, { mode: 0o600 });
  writeFileSync(join(person, "context.txt"), "UNTRACKED-CONTEXT for the run\n");
  mkdirSync(join(person, "runs"));
  return { origin, person, worker: clone("worker") };
}

const tagOf = (request: ModelRequest) => Number(/Secret task (\d+)\b/.exec(request.allText())?.[1] ?? 0);

/** The engineer writes the run's result and lists what the run's tree holds; the lead then finishes. */
function reply(request: ModelRequest): Reply | undefined {
  if (request.kind === "title" || request.kind === "compact") return undefined;
  const tag = tagOf(request);
  if (request.isSubagent)
    return request.countToolResults("Bash") > 0
      ? text(`Done for Secret task ${tag}.`)
      : toolUse("Bash", {
          command: `printf 'result of run ${tag}\\n' > result-${tag}.txt && cat context.txt && ls -a . secrets 2>&1; true`,
        });
  return request.countToolResults("Agent") === 0
    ? toolUse("Agent", {
        subagent_type: "engineer",
        description: "write the result",
        prompt: `Secret task ${tag}: write result-${tag}.txt`,
      })
    : text(`Secret task ${tag} finished.`);
}

/** Every row of every table of the store (flower's schema and its queue's), as text; bytes as hex too. */
async function storeDump(url: string, schema: string): Promise<{ text: string; bundles: Buffer[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_schema: string; table_name: string }>(
      "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ($1, $2)",
      [schema, `${schema}_queue`],
    );
    expect(tables.rows.map((row) => row.table_name)).toContain("flower_work");
    const parts: string[] = [];
    const bundles: Buffer[] = [];
    for (const { table_schema, table_name } of tables.rows) {
      // flower_work in the order its bundles build on each other.
      const order = table_name === "flower_work" ? " ORDER BY run, seq" : "";
      const rows = await client.query(`SELECT * FROM "${table_schema}"."${table_name}"${order}`);
      for (const row of rows.rows as Array<Record<string, unknown>>)
        for (const value of Object.values(row)) {
          if (Buffer.isBuffer(value)) {
            parts.push(value.toString("latin1"), value.toString("hex"));
            if (table_name === "flower_work") bundles.push(value);
          } else parts.push(JSON.stringify(value));
        }
    }
    return { text: parts.join("\n"), bundles };
  } finally {
    await client.end();
  }
}

/** The objects of a git directory, uncompressed, as one text. */
function objectsOf(gitDir: string): string {
  return execFileSync("git", ["--git-dir", gitDir, "cat-file", "--batch-all-objects", "--batch"], {
    encoding: "latin1",
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** Every byte under a folder, and every object of every git directory in it, uncompressed. */
function everyByte(dir: string): string {
  const parts: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (existsSync(join(path, "objects")) && existsSync(join(path, "HEAD"))) parts.push(objectsOf(path));
        walk(path);
      } else if (entry.isFile()) parts.push(readFileSync(path, "latin1"));
    }
  };
  walk(dir);
  return parts.join("\n");
}

/**
 * The bundles of the store, fetched in order into a bare clone of origin (what they build on): every
 * object they carry, uncompressed (origin's own objects are in it too: they hold no planted value).
 */
function unpacked(origin: string, bundles: Buffer[]): string {
  const dir = temp.make("flower-unbundled-");
  const bare = join(dir, "bare.git");
  git(dir, "clone", "-q", "--bare", origin, bare);
  bundles.forEach((bundle, index) => {
    const file = join(dir, `${index}.bundle`);
    writeFileSync(file, bundle);
    git(bare, "fetch", "-q", file, `+refs/*:refs/bundle-${index}/*`);
  });
  return objectsOf(bare);
}

/** The files of the person's checkout that git does not track, with their content. */
function untracked(person: string): Record<string, string> {
  const paths = git(person, "ls-files", "--others", "--exclude-standard").split("\n").filter(Boolean);
  return Object.fromEntries(
    paths
      .filter((path) => statSync(join(person, path)).isFile())
      .map((path) => [path, readFileSync(join(person, path), "utf8")]),
  );
}

describe("secrets and a worker's leftovers, in a fleet", () => {
  it("an untracked .env and id_rsa stay in the submitting checkout: not in the store, on the worker or in the fetched branch; carry brings .env on request; apply merges around them; the worker keeps nothing", async () => {
    const { origin, person, worker } = repositories();
    const schema = freshSchema("secrets");
    const url = `${server().url}?schema=${schema}`;
    const kit = await startModel({ policy: reply });
    const env = cleanEnv();
    const before = untracked(person);
    const workerRefs = git(worker, "for-each-ref", "--format=%(refname) %(objectname)");
    const workerReflog = git(worker, "reflog", "--all");

    // Run 1: both files look like secrets, neither is named in carry.
    const first = await runFlower(["submit", "Secret task 1: write the result", "--direct", "--store", url], {
      env,
      cwd: person,
    });
    expect(first.code).toBe(0);
    const run1 = first.stdout.trim();
    expect(first.stderr.trim().split("\n")).toEqual([
      `flower submit: left out, they look like secrets (untracked here): .env, secrets/id_rsa; not sent to the store or any worker. To send them, name them in flower.json: { "carry": [...] }`,
    ]);

    const workerA = startWorker(kit, temp, { name: "w", url, workspace: worker, timeoutMs: 300_000 });
    await until(
      async () => (await fleetRows(server().url, schema))[0]?.status === "done",
      "run 1 done",
      200_000,
    );
    const afterFirst = await storeDump(server().url, schema);
    expect(afterFirst.bundles.length).toBeGreaterThan(0);
    const carriedFirst = unpacked(origin, afterFirst.bundles);
    expect(carriedFirst).toContain("UNTRACKED-CONTEXT for the run");
    for (const planted of [API_KEY, PEM_MARKER]) {
      expect(afterFirst.text).not.toContain(planted);
      expect(afterFirst.text).not.toContain(Buffer.from(planted).toString("hex"));
      expect(carriedFirst).not.toContain(planted);
    }
    // The run's tree on the worker had neither file, and the model never saw them.
    const listing = kit.requests
      .filter((request) => request.isSubagent && tagOf(request) === 1)
      .flatMap((request) => request.toolResults().map((result) => result.text))
      .join("\n");
    expect(listing).toContain("UNTRACKED-CONTEXT for the run");
    expect(listing).toContain("result-1.txt");
    expect(listing).not.toMatch(/^\.env$/m);
    expect(listing).toMatch(/secrets.*No such file/);

    // Run 2: flower.json (untracked, carried like any file) asks for .env.
    writeFileSync(join(person, "flower.json"), `${JSON.stringify({ carry: [".env"] })}\n`);
    const second = await runFlower(
      ["submit", "Secret task 2: write the result", "--direct", "--store", url],
      {
        env,
        cwd: person,
      },
    );
    expect(second.code).toBe(0);
    const run2 = second.stdout.trim();
    expect(second.stderr.trim().split("\n")).toEqual([
      `flower submit: left out, they look like secrets (untracked here): secrets/id_rsa; not sent to the store or any worker. To send them, name them in flower.json: { "carry": [...] }`,
      `flower submit: carried, as flower.json's "carry" asks, though they look like secrets: .env`,
    ]);
    await until(
      async () => (await fleetRows(server().url, schema)).every((row) => row.status === "done"),
      "run 2 done",
      200_000,
    );
    workerA.child.kill("SIGTERM");
    const log = await workerA.done;
    expect(log.stdout).toContain(
      `${run1}: left out of its checkpoints, they look like secrets: .env, secrets/id_rsa (untracked; flower.json's "carry" names files to bring)`,
    );
    expect(log.stdout.match(new RegExp(`${run1}: left out of its checkpoints`, "g"))).toHaveLength(1);
    expect(log.stdout).toContain(
      `${run2}: left out of its checkpoints, they look like secrets: secrets/id_rsa`,
    );
    const listing2 = kit.requests
      .filter((request) => request.isSubagent && tagOf(request) === 2)
      .flatMap((request) => request.toolResults().map((result) => result.text))
      .join("\n");
    expect(listing2).toMatch(/^\.env$/m);
    const afterSecond = await storeDump(server().url, schema);
    const carriedSecond = unpacked(origin, afterSecond.bundles);
    expect(carriedSecond).toContain(API_KEY);
    expect(carriedSecond).not.toContain(PEM_MARKER);
    expect(afterSecond.text).not.toContain(PEM_MARKER);

    // The worker's checkout, every byte of it (its .git and run directory included): neither value, and
    // nothing of either run: no ref, no reflog entry, no worktree, no shadow repository.
    const onWorker = everyByte(worker);
    for (const planted of [API_KEY, PEM_MARKER]) expect(onWorker).not.toContain(planted);
    expect(git(worker, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(workerRefs);
    expect(git(worker, "reflog", "--all")).toBe(workerReflog);
    expect(git(worker, "worktree", "list").split("\n")).toHaveLength(1);
    expect(readdirSync(join(worker, "runs", "worktrees"))).toEqual([]);
    expect(existsSync(join(worker, "runs", "work")) ? readdirSync(join(worker, "runs", "work")) : []).toEqual(
      [],
    );

    // What the person reads of it: show names the files, and no branch until it is fetched.
    const shown = await runFlowerOk(["show", run1, "--store", url], { env, cwd: person });
    expect(shown.stdout).toContain(
      'left out as secrets (untracked: never carried to a store or a worker, never in flower/<run>; flower.json "carry" names files to bring): .env (its name), secrets/id_rsa (its name)',
    );
    expect(shown.stdout).toMatch(/files {7}its own worktree \(removed\) · \d+ checkpoints?\n/);

    // Fetched into the person's checkout: the branches hold neither value (run 2's holds the carried .env).
    for (const run of [run1, run2]) {
      const fetched = await runFlowerOk(["fetch", run, "--store", url], { env, cwd: person });
      expect(fetched.stdout).toContain(`flower/${run}`);
    }
    const files = (run: string) =>
      git(person, "ls-tree", "-r", "--name-only", `flower/${run}`).split("\n").sort();
    expect(files(run1)).toEqual([".gitignore", "README.md", "context.txt", "result-1.txt"]);
    expect(files(run2)).toEqual([
      ".env",
      ".gitignore",
      "README.md",
      "context.txt",
      "flower.json",
      "result-2.txt",
    ]);
    const history = (run: string) => git(person, "log", "-p", "--binary", `flower/${run}`);
    for (const planted of [API_KEY, PEM_MARKER]) expect(history(run1)).not.toContain(planted);
    expect(history(run2)).not.toContain(PEM_MARKER);
    const shownAgain = await runFlowerOk(["show", run1, "--store", url], { env, cwd: person });
    expect(shownAgain.stdout).toContain(`branch flower/${run1} (flower diff ${run1}, flower apply ${run1})`);

    // Applied in the checkout they came from: each merges, its untracked files untouched, none committed.
    const now = untracked(person);
    for (const [run, tag] of [
      [run1, 1],
      [run2, 2],
    ] as const) {
      const applied = await runFlowerOk(["apply", run, "--store", url], { env, cwd: person });
      expect(applied.stdout).toMatch(new RegExp(`^merged flower/${run} into main: 1 file changed`));
      expect(readFileSync(join(person, `result-${tag}.txt`), "utf8")).toBe(`result of run ${tag}\n`);
    }
    expect(untracked(person)).toEqual(now);
    expect(now).toEqual({ ...before, "flower.json": `${JSON.stringify({ carry: [".env"] })}\n` });
    expect(git(person, "ls-tree", "-r", "--name-only", "HEAD").split("\n").sort()).toEqual([
      ".gitignore",
      "README.md",
      "result-1.txt",
      "result-2.txt",
    ]);
    expect(git(person, "status", "--porcelain").split("\n").sort()).toEqual([
      "?? .env",
      "?? context.txt",
      "?? flower.json",
      "?? secrets/",
    ]);
    kit.assertNoErrors();
  }, 600_000);
});
