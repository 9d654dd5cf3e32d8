/**
 * Untracked files that look like secrets stay out of the checkpoints, with the real git: by name and by
 * content, whoever wrote them (the person before the run, the run itself); a tracked file is carried
 * whatever its name; `flower.json`'s `carry` brings one along and says so. A submit's first row in the
 * store names what it left out, and a tracker on another machine says it with every checkpoint; no
 * object of the shadow repository or of the bundles holds a planted value.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "../../../src/secret-redactor.js";
import type {
  CarriedCheckpoint,
  NewCarriedCheckpoint,
  WorkCarrier,
} from "../../../src/checkpoints/work-carrier.js";
import { WorkTracker } from "../../../src/checkpoints/work-tracker.js";
import { useTempDirs } from "../../support/temp-dir.js";
import { git } from "../../support/git.js";

const temp = useTempDirs();

const API_KEY = "sk-ant-PLANTED-API-KEY-0123456789";
const PEM_MARKER = "PLANTED-PEM-MARKER-9f8e7d";
const CREDENTIAL = "PLANTED-ENV-CREDENTIAL-55aa";
const PEM = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA${PEM_MARKER}AAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----\n`;

/** A checkout with a committed `deploy/prod.env`, and untracked secrets next to an untracked note. */
function checkout(): string {
  const root = temp.make("flower-secrets-");
  git(root, "init", "-q", "-b", "main");
  git(root, "config", "user.email", "p@example.com");
  git(root, "config", "user.name", "Person");
  writeFileSync(join(root, ".gitignore"), "runs/\n");
  mkdirSync(join(root, "deploy"));
  writeFileSync(join(root, "deploy", "prod.env"), "REGION=eu\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "first");
  writeFileSync(join(root, ".env"), `ANTHROPIC_API_KEY=${API_KEY}\n`);
  mkdirSync(join(root, "secrets"));
  writeFileSync(join(root, "secrets", "id_rsa"), PEM);
  writeFileSync(join(root, "bundle.txt"), `certificates first\n${PEM}`);
  writeFileSync(join(root, "settings.json"), JSON.stringify({ key: CREDENTIAL }));
  writeFileSync(join(root, "notes.txt"), "an untracked note\n");
  writeFileSync(join(root, ".env.example"), "ANTHROPIC_API_KEY=\n");
  mkdirSync(join(root, "runs"));
  return root;
}

/** The store's log, in memory: what `flower_work` keeps for a run. */
class MemoryCarrier implements WorkCarrier {
  readonly rows: CarriedCheckpoint[] = [];
  async append(_run: string, row: NewCarriedCheckpoint): Promise<number> {
    this.rows.push({ ...row, seq: this.rows.length + 1, at: new Date().toISOString() });
    return this.rows.length;
  }
  async last(): Promise<number> {
    return this.rows.length;
  }
  async list(_run: string, after = 0): Promise<CarriedCheckpoint[]> {
    return this.rows.filter((row) => row.seq > after);
  }
  async sizes(): Promise<Map<string, { rows: number; bytes: number }>> {
    return new Map();
  }
}

function open(root: string, carrier: WorkCarrier | null, run = "fix-it") {
  return WorkTracker.open({
    workspace: root,
    runDir: join(root, "runs"),
    run,
    owned: false,
    carrier,
    maxFileBytes: 1024 * 1024,
    redactor: new SecretRedactor([{ name: "AWS_SECRET_ACCESS_KEY", value: CREDENTIAL }]),
    now: () => new Date("2026-12-04T10:00:00Z"),
  });
}

/** Every object's content in a git directory, as one text: a planted value anywhere shows up here. */
function everyObject(gitDir: string): string {
  return execFileSync("sh", ["-c", `git --git-dir="${gitDir}" cat-file --batch-all-objects --batch`], {
    encoding: "latin1",
    maxBuffer: 64 * 1024 * 1024,
  });
}

const planted = [API_KEY, PEM_MARKER, CREDENTIAL];

describe("secrets and the checkpoints", () => {
  it("leaves out untracked secrets by name and content, carries tracked files and templates, and names each", async () => {
    const root = checkout();
    const work = await open(root, null);
    const first = await work.checkpoint({ kind: "start", step: "work", generation: 1 });
    const tree = git(root, "--git-dir", work.shadow.dir, "ls-tree", "-r", "--name-only", first.commit);
    expect(tree.split("\n").sort()).toEqual([".env.example", ".gitignore", "deploy/prod.env", "notes.txt"]);
    expect(first.leftOut.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: ".env", why: "secret", sign: "name" },
      { path: "bundle.txt", why: "secret", sign: "private-key" },
      { path: "secrets/id_rsa", why: "secret", sign: "name" },
      { path: "settings.json", why: "secret", sign: "credential" },
    ]);

    // The run writes a key of its own, and changes a tracked env file: the first stays out, the second goes.
    writeFileSync(join(root, "generated.key.txt"), PEM);
    writeFileSync(join(root, "deploy", "prod.env"), "REGION=us\n");
    const call = await work.checkpoint({
      kind: "call",
      step: "work",
      generation: 1,
      session: "s",
      call: "t1",
    });
    expect(call.files).toEqual(["deploy/prod.env"]);
    expect(call.leftOut.map((entry) => entry.path)).toContain("generated.key.txt");

    // A file the person adds to their index is theirs to carry: `git add .env` and it goes.
    git(root, "add", ".env");
    const added = await work.checkpoint({
      kind: "call",
      step: "work",
      generation: 1,
      session: "s",
      call: "t2",
    });
    expect(added.files).toEqual([".env"]);
    expect(added.leftOut.map((entry) => entry.path)).not.toContain(".env");
  });

  it("a submit carries none of them to the store, names them in its first row, and a worker's tracker says them", async () => {
    const root = checkout();
    const carrier = new MemoryCarrier();
    const submitted = await (await open(root, carrier, "run-1")).submitted("submit");
    expect(submitted.leftOut.map((entry) => entry.path).sort()).toEqual([
      ".env",
      "bundle.txt",
      "secrets/id_rsa",
      "settings.json",
    ]);
    expect(submitted.carried).toEqual([]);

    // Another machine: a clone that replays the log into its own shadow repository.
    const other = temp.make("flower-secrets-worker-");
    git(other, "clone", "-q", root, "w");
    const clone = join(other, "w");
    mkdirSync(join(clone, "runs"));
    const worker = await open(clone, carrier, "run-1");
    await worker.catchUp();
    expect(worker.submitLeftOut.map((entry) => entry.path).sort()).toEqual([
      ".env",
      "bundle.txt",
      "secrets/id_rsa",
      "settings.json",
    ]);
    const taken = await worker.checkpoint({ kind: "start", step: "work", generation: 1 });
    expect(
      taken.leftOut
        .filter((entry) => entry.why === "secret")
        .map((entry) => entry.path)
        .sort(),
    ).toEqual([".env", "bundle.txt", "secrets/id_rsa", "settings.json"]);
    // The bundles, unpacked into a bare repository: no planted value in any object.
    const unpacked = join(other, "unpacked.git");
    git(other, "init", "-q", "--bare", unpacked);
    for (const [index, row] of carrier.rows.entries()) {
      if (row.bundle === null) continue;
      const file = join(other, `row-${index}.bundle`);
      writeFileSync(file, row.bundle);
      git(unpacked, "-c", "core.hooksPath=/dev/null", "fetch", "-q", file, "+refs/*:refs/carried/*");
    }
    const objects = everyObject(unpacked) + everyObject(worker.shadow.dir) + everyObject(join(clone, ".git"));
    expect(objects).toContain("an untracked note");
    for (const value of planted) expect(objects).not.toContain(value);
  });

  it("carries what flower.json's carry names, and says so", async () => {
    const root = checkout();
    writeFileSync(join(root, "flower.json"), JSON.stringify({ carry: [".env"] }));
    const work = await open(root, new MemoryCarrier(), "run-2");
    const submitted = await work.submitted("submit");
    expect(submitted.carried).toEqual([".env"]);
    expect(submitted.leftOut.map((entry) => entry.path)).not.toContain(".env");
    const tree = git(root, "--git-dir", work.shadow.dir, "ls-tree", "-r", "--name-only", submitted.start!);
    expect(tree.split("\n")).toContain(".env");
    expect(tree.split("\n")).not.toContain("secrets/id_rsa");
  });

  it("a bad carry entry stops the checkpoints with an error naming the file and the entry", async () => {
    const root = checkout();
    writeFileSync(join(root, "flower.json"), JSON.stringify({ carry: [".env", 7] }));
    await expect(open(root, null)).rejects.toThrow(
      `${join(root, "flower.json")}: "carry" entry 7 is not a file name or glob (a non-empty string)`,
    );
  });
});
