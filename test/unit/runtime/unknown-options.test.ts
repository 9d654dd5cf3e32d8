/**
 * Every options object the library takes refuses a key it does not know, with a ConfigurationError
 * naming the key, as `new Runtime({ windw })` always did: a misspelt option (`windw: 200000`) must not
 * leave the run at the default without a word. Each refusal comes before anything is started, opened
 * or written.
 */
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CompactPolicy,
  ConfigurationError,
  HandoffPolicy,
  REQUIREMENTS,
  Runtime,
  TrimPolicy,
  continueWorkflow,
  coordinator,
  defaultWorkflow,
  documentAgent,
  runWorkflow,
  serveRuns,
  submit,
  watchFleet,
  subagent,
  Worker,
} from "../../../src/index.js";
import {
  PostgresSessionStore,
  PruningSessionStore,
  SqliteSessionStore,
  TrimmingSessionStore,
} from "../../../src/public/stores.js";
import { Workbench } from "../../../src/public/hooks.js";
import { freezeDocument, produceDocument } from "../../../src/public/documents.js";
import { script, startFakeModel, startPostgresServer, text } from "../../../src/testing/index.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();
const open: Runtime[] = [];
afterEach(() => {
  for (const rt of open.splice(0)) rt.close();
});

/** A ConfigurationError whose option is `option` (the key as given, with its prefix). */
function refusal(option: string) {
  return expect.objectContaining({
    name: "ConfigurationError",
    option,
    message: expect.stringContaining(`Invalid option ${option}: got `) as string,
  }) as ConfigurationError;
}

/** Runs `make` and returns what it threw (synchronously or by rejecting). */
async function thrown(make: () => unknown): Promise<unknown> {
  try {
    await make();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal, got none");
}

const team = coordinator("lead", "Goal.", { helper: subagent("Helps.", "Help.") });
const source = {
  where: "memory",
  runs: async () => [],
  report: async () => null,
  close: async () => undefined,
};

function runtime(): Runtime {
  const root = temp.make("flower-unknown-");
  const rt = new Runtime({ workspace: root, runDir: join(root, "runs") });
  open.push(rt);
  return rt;
}

describe("an options object refuses a key it does not know, naming it", () => {
  it("HandoffPolicy: windw is not taken for a 1M window", async () => {
    const error = await thrown(() => new HandoffPolicy({ windw: 200_000 } as never));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toEqual(refusal("windw"));
    expect((error as Error).message).toContain("got 200000, expected a known option (enabled, window,");
    // Through the Runtime's handoff option and HandoffPolicy.from too.
    expect(await thrown(() => HandoffPolicy.from({ headrom: 1 } as never))).toEqual(refusal("headrom"));
    // Known keys still work, also when left undefined.
    expect(new HandoffPolicy({ window: 200_000, headroom: undefined }).window).toBe(200_000);
  });

  it("TrimPolicy, CompactPolicy", async () => {
    expect(await thrown(() => new TrimPolicy({ keepRecnt: 5 } as never))).toEqual(refusal("keepRecnt"));
    expect(await thrown(() => new CompactPolicy({ mdoe: "auto" } as never))).toEqual(refusal("compact.mdoe"));
  });

  it("coordinator() and subagent()", async () => {
    const helper = subagent("Helps.", "Help.");
    expect(await thrown(() => coordinator("lead", "Goal.", { helper }, { glanse: false } as never))).toEqual(
      refusal("coordinator glanse"),
    );
    expect(await thrown(() => subagent("Helps.", "Help.", { tool: ["Read"] } as never))).toEqual(
      refusal("subagent tool"),
    );
  });

  it("rt.run() and rt.continue() options, before the step starts", async () => {
    const rt = runtime();
    expect(await thrown(() => rt.run("s", team, "Do it.", { goall: { checks: [] } } as never))).toEqual(
      refusal("goall"),
    );
    // `prompt` is continue's, not run's.
    expect(await thrown(() => rt.run("s", team, "Do it.", { prompt: "x" } as never))).toEqual(
      refusal("prompt"),
    );
    expect(await thrown(() => rt.continue("s", team, { promt: "Go on." } as never))).toEqual(
      refusal("promt"),
    );
    expect(rt.records.list()).toEqual([]);
    expect(await thrown(() => rt.diff("r", { formt: "stat" } as never))).toEqual(refusal("formt"));
    expect(await thrown(() => rt.apply("r", { sqash: true } as never))).toEqual(refusal("sqash"));
    expect(await thrown(() => rt.requestHandoff("s", { nxt: "x" } as never))).toEqual(refusal("nxt"));
  });

  it("runWorkflow(), continueWorkflow(), defaultWorkflow(), documentAgent()", async () => {
    const rt = runtime();
    const workflow = defaultWorkflow();
    expect(await thrown(() => runWorkflow(rt, workflow, "Task.", { pauseAftr: false } as never))).toEqual(
      refusal("pauseAftr"),
    );
    expect(await thrown(() => continueWorkflow(rt, workflow, "r", { rereadGoall: true } as never))).toEqual(
      refusal("rereadGoall"),
    );
    expect(rt.records.list()).toEqual([]);
    expect(await thrown(() => defaultWorkflow({ reveiw: true } as never))).toEqual(
      refusal("defaultWorkflow reveiw"),
    );
    expect(await thrown(() => documentAgent(REQUIREMENTS, "en", { modle: "x" } as never))).toEqual(
      refusal("documentAgent modle"),
    );
  });

  it("submit() and Worker, before the store is opened", async () => {
    const store = "postgres://nobody@127.0.0.1:1/x";
    expect(await thrown(() => submit(store, "Task.", { direkt: true } as never))).toEqual(refusal("direkt"));
    expect(
      await thrown(() => new Worker({ store, runtime: { workspace: "." }, concurency: 2 } as never)),
    ).toEqual(refusal("concurency"));
    // The runtime options each run gets are checked now, not when the first run fails with them.
    expect(
      await thrown(() => new Worker({ store, runtime: { workspace: ".", modle: "x" } } as never)),
    ).toEqual(refusal("runtime.modle"));
    // The store and onEvent are the fleet's: not a run's runtime options.
    expect(await thrown(() => new Worker({ store, runtime: { workspace: ".", store } } as never))).toEqual(
      refusal("runtime.store"),
    );
    const changes = watchFleet(store, { intervallMs: 100 } as never);
    expect(await thrown(() => changes.next())).toEqual(refusal("intervallMs"));
  });

  it("serveRuns(), before anything listens", async () => {
    expect(await thrown(() => serveRuns({ source, port: 0, allowActons: true } as never))).toEqual(
      refusal("allowActons"),
    );
  });

  it("the offline kit: startFakeModel(), its validation object, script(), startPostgresServer()", async () => {
    const policy = () => text("ok");
    expect(await thrown(() => startFakeModel({ policy, contextWindw: 200_000 } as never))).toEqual(
      refusal("contextWindw"),
    );
    expect(
      await thrown(() => startFakeModel({ policy, validation: { alternaton: false } } as never)),
    ).toEqual(refusal("validation.alternaton"));
    expect(await thrown(() => script([text("a")], { otherwize: policy } as never))).toEqual(
      refusal("otherwize"),
    );
    expect(await thrown(() => startPostgresServer({ maxConections: 10 } as never))).toEqual(
      refusal("maxConections"),
    );
  });

  it("the session stores and the workbench, before a file is made", async () => {
    const root = temp.make("flower-unknown-stores-");
    const path = join(root, "sessions.db");
    expect(await thrown(() => new SqliteSessionStore({ path, busyTimeout: 5 } as never))).toEqual(
      refusal("busyTimeout"),
    );
    // A misspelt url must not print its password.
    const error = await thrown(
      () => new PostgresSessionStore({ ulr: "postgres://me:hunter2@db/x", url: "postgres://db/x" } as never),
    );
    expect(error).toEqual(refusal("ulr"));
    expect((error as Error).message).not.toContain("hunter2");
    const inner = new SqliteSessionStore({ path });
    try {
      expect(
        await thrown(() => new TrimmingSessionStore({ inner, workspace: root, trimm: true } as never)),
      ).toEqual(refusal("trimm"));
      expect(
        await thrown(() => new PruningSessionStore({ inner, workspace: root, keepDenial: 2 } as never)),
      ).toEqual(refusal("keepDenial"));
      // The pruning store's own options are known to it.
      expect(new PruningSessionStore({ inner, workspace: root, keepDenials: 2 }).keepDenials).toBe(2);
    } finally {
      inner.close();
    }
    const workspace = join(root, "workspace");
    mkdirSync(workspace);
    expect(await thrown(() => new Workbench({ workspace, maxEntrys: 3 } as never))).toEqual(
      refusal("maxEntrys"),
    );
    expect(readdirSync(workspace)).toEqual([]);
  });

  it("produceDocument() and freezeDocument()", async () => {
    expect(await thrown(() => produceDocument(REQUIREMENTS, null, { run: "r", eror: "x" } as never))).toEqual(
      refusal("eror"),
    );
    const { document } = produceDocument(REQUIREMENTS, null, { run: "r" });
    const notesDir = temp.make("flower-unknown-notes-");
    expect(
      await thrown(() => freezeDocument(document, { notesDir, locale: "en", nowe: new Date() } as never)),
    ).toEqual(refusal("nowe"));
    expect(readdirSync(notesDir)).toEqual([]);
  });
});
