/**
 * The channel of `flower say` (records/person-messages.ts) in both backends, opened as `flower say`
 * opens it (storage/say-target.ts): a run's messages come back in the order said, also when many are
 * said at once from separate connections; `take` clears exactly the one given; another run's are not
 * touched; forgetting a step takes its run's messages with it. And an absent run directory is read as
 * empty without creating anything.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PersonMessage } from "../../../src/records/person-messages.js";
import { openSayTarget, type OpenSayTarget } from "../../../src/storage/say-target.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { storeSpecOf } from "../../../src/storage/store-spec.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";

const postgres = usePostgresServer();
const dirs: string[] = [];
const open: OpenSayTarget[] = [];
afterEach(async () => {
  for (const target of open.splice(0)) await target.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function runDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "flower-messages-"));
  dirs.push(dir);
  return dir;
}

function message(run: string, text: string): PersonMessage {
  return { id: crypto.randomUUID(), run, text, by: "ann@box", at: "2026-12-01T12:00:00.000Z" };
}

const backends = {
  sqlite: () => {
    const dir = runDir();
    // records.db must exist: `flower say` never creates one.
    new SqliteRunRecords(dir).close();
    return openSayTarget(storeSpecOf(undefined), dir);
  },
  postgres: () => openSayTarget(storeSpecOf(`${postgres().url}?schema=${freshSchema("say")}`), runDir()),
};

describe.each(Object.entries(backends))("a person's messages in %s", (_name, openTarget) => {
  it("keeps a run's messages in the order said and clears exactly the one given", async () => {
    const target = openTarget();
    open.push(target);
    const said = Array.from({ length: 12 }, (_, index) => message("r", `message ${index + 1}`));
    // All with the same time: the order is the channel's own, not the clock's.
    for (const entry of said) await target.messages.put(entry);
    await target.messages.put(message("other", "not for r"));
    expect((await target.messages.list("r")).map((entry) => entry.text)).toEqual(
      said.map((entry) => entry.text),
    );
    await target.messages.take("r", said[3]!.id);
    await target.messages.take("other", said[4]!.id);
    const left = await target.messages.list("r");
    expect(left.map((entry) => entry.id)).toEqual(
      said.filter((_, index) => index !== 3).map((entry) => entry.id),
    );
    expect(left[0]).toEqual(said[0]);
    expect((await target.messages.list("other")).map((entry) => entry.text)).toEqual(["not for r"]);
    expect(await target.messages.list("nobody")).toEqual([]);
  });
});

describe("a person's messages, per backend", () => {
  it("SQLite: forgetting a step deletes its run's messages, a workflow step's run's too", () => {
    const dir = runDir();
    const records = new SqliteRunRecords(dir);
    try {
      records.messages.put(message("direct", "for the direct step"));
      records.messages.put(message("wf", "for the workflow run"));
      records.messages.put(message("kept", "for another run"));
      records.delete("direct");
      records.delete("wf/goal");
      expect(records.messages.list("direct")).toEqual([]);
      expect(records.messages.list("wf")).toEqual([]);
      expect(records.messages.list("kept")).toHaveLength(1);
    } finally {
      records.close();
    }
  });

  it("PostgreSQL: many said at once from separate connections all arrive, each once", async () => {
    const url = `${postgres().url}?schema=${freshSchema("say")}`;
    const targets = Array.from({ length: 4 }, () => openSayTarget(storeSpecOf(url), runDir()));
    open.push(...targets);
    await targets[0]!.messages.list("r");
    const said = Array.from({ length: 20 }, (_, index) => message("r", `m${index}`));
    // The interface allows a synchronous backend; this one answers with promises.
    await Promise.all(
      said.map((entry, index) => Promise.resolve(targets[index % targets.length]!.messages.put(entry))),
    );
    const listed = await targets[1]!.messages.list("r");
    expect(listed.map((entry) => entry.id).sort()).toEqual(said.map((entry) => entry.id).sort());
    // A fleet run the store does not have is no fleet run.
    expect(await targets[0]!.fleetStatus?.("r")).toBeUndefined();
  });

  it("a run directory without records.db is read as empty and left as it is", async () => {
    const dir = runDir();
    const target = openSayTarget(storeSpecOf(undefined), dir);
    open.push(target);
    expect(await target.steps()).toEqual([]);
    expect(existsSync(join(dir, "records.db"))).toBe(false);
  });
});
