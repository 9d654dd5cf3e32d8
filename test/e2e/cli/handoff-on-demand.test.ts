/**
 * `flower handoff <step> --next "…"` from a second process, through the built binary, the real `claude`
 * binary and the offline kit: the live driver hands off at its next message boundary, the person's words
 * lead the frozen handoff's next step, marked as theirs, and the successor's first request carries them
 * and says a person asked for the handoff (not that the context was nearly full).
 * From a second checkout on a shared store (a real PostgreSQL server) too. Without a live driver the
 * command says so and exits 1; an unknown step is a usage error naming it.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { cleanEnv, runFlower, spawnFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

const WORDS = "Check the totals in count.txt before adding more";
const DONE = "Successor finished.";
const BY = `${userInfo().username}@${hostname()}`;

/** What the model saw, for the assertions. */
interface Seen {
  busy: boolean;
  writingPrompt: string | null;
  successorFirst: string | null;
}

/**
 * A main thread that keeps reading one file (a turn every 200 ms, far below any handoff line) until the
 * writing turn; the successor (another session) finishes at once.
 */
async function busyModel(seen: Seen): Promise<FakeModel> {
  let first: string | undefined;
  return startModel({
    policy: (request: ModelRequest) => {
      if (request.isSubagent) return text("unused");
      if (request.isHandoffTurn) {
        seen.writingPrompt ??= request.lastUserText();
        return text(
          handoffMarkdown({
            doing: "Counting the lines of count.txt, turn after turn.",
            decided: ["Read the file again each turn, because it may change."],
            deadends: "(empty)",
            next: ["Go on counting."],
            scene: ["`count.txt` — the file being counted"],
          }),
        );
      }
      first ??= request.sessionId;
      if (request.sessionId !== first) {
        seen.successorFirst ??= request.firstUserText();
        return text(DONE);
      }
      seen.busy = true;
      if (request.countToolResults("Read") >= 400) return text("Gave up: nobody asked for a handoff.");
      return { ...toolUse("Read", { file_path: "count.txt" }), delayMs: 200 };
    },
  });
}

function project(): string {
  const root = temp.make("flower-ondemand-");
  writeFileSync(join(root, "count.txt"), "one\ntwo\nthree\n");
  return root;
}

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function localRecord(runDir: string, step: string): StepRecord {
  const manifest = JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile;
  return manifest.steps[step]!;
}

/** How the successor's first request says why the previous generation handed off. */
const ASKED = 'You are taking over the step "busy". A person asked the previous session to hand over';

/** What the person's words look like in `next`: first, marked as theirs. */
const MARKED = `- From ${BY} via flower handoff: ${WORDS}`;

describe("flower handoff", () => {
  it("makes the live driver hand off now, with the person's words first in next and in the successor's first request", async () => {
    const seen: Seen = { busy: false, writingPrompt: null, successorFirst: null };
    const model = await busyModel(seen);
    const root = project();
    const runDir = join(root, "runs");
    const env = cleanEnv(model.env());
    const driver = spawnFlower(
      ["--workspace", root, "--run-dir", runDir, "--direct", "--step", "busy", "Count the lines"],
      { env, cwd: root, timeoutMs: 120_000 },
    );
    await until(() => seen.busy, "the driver's first turn");

    const asked = await runFlower(["handoff", "busy", "--next", WORDS, "--run-dir", runDir], {
      env,
      cwd: root,
      timeoutMs: 30_000,
    });
    expect(asked.stderr).toBe("");
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/asked the driver of "busy" \(pid \d+ on .+\) to hand off/);

    const finished = await driver.done;
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toContain(`>> busy: ${BY} asked for a handoff (flower handoff); next: ${WORDS}`);
    expect(finished.stdout).toContain(DONE);
    // The writing turn was told who asked and what they want; the successor starts from their words.
    expect(seen.writingPrompt).toContain(WORDS);
    expect(seen.successorFirst).toContain(MARKED);
    // The successor is told a person asked for the handoff, not that the context was nearly full.
    expect(seen.successorFirst).toContain(ASKED);
    expect(seen.successorFirst).not.toContain("nearly full");

    const record = localRecord(runDir, "busy");
    expect(record.generations).toBe(2);
    expect(record.handoffRequests).toEqual([
      { by: BY, at: expect.any(String) as string, next: WORDS, generation: 1 },
    ]);
    const frozen = readFileSync(record.handoffs[0]!, "utf8");
    const next = frozen.slice(frozen.indexOf("## Next step"));
    expect(next.split("\n")[1]).toBe(MARKED);
    expect(next).toContain("Go on counting.");
    model.assertNoErrors();

    // flower show names the request under the generation it ended, in both languages.
    const shown = await runFlower(["show", "busy", "--run-dir", runDir], { env, cwd: root });
    expect(shown.stdout).toMatch(
      new RegExp(`^ {7}<- asked by ${BY} \\(flower handoff\\) at .+: ${WORDS}$`, "m"),
    );
    const shownZh = await runFlower(["show", "busy", "--run-dir", runDir, "--lang", "zh"], {
      env,
      cwd: root,
    });
    expect(shownZh.stdout).toContain(`要求交接(flower handoff):${WORDS}`);

    // The step is done now: nobody is driving it.
    const late = await runFlower(["handoff", "busy", "--run-dir", runDir], { env, cwd: root });
    expect(late.code).toBe(1);
    expect(late.stdout).toBe("");
    expect(late.stderr).toContain('flower handoff: "busy" has no live driver (it is done)');
    const lateZh = await runFlower(["handoff", "busy", "--run-dir", runDir, "--lang", "zh"], {
      env,
      cwd: root,
    });
    expect(lateZh.code).toBe(1);
    expect(lateZh.stderr).toContain('flower handoff: "busy" 现在没有在跑的驱动(它的状态是 done)');
    const unknown = await runFlower(["handoff", "bsuy", "--run-dir", runDir], { env, cwd: root });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no step "bsuy"');
    expect(unknown.stderr).toContain("known: busy");
  });

  it("reaches the driver on another machine through a shared store", async () => {
    const seen: Seen = { busy: false, writingPrompt: null, successorFirst: null };
    const model = await busyModel(seen);
    const url = `${server().url}?schema=${freshSchema("ondemand")}`;
    const origin = project();
    const checkout = (name: string) => {
      const root = temp.make(`flower-ondemand-${name}-`);
      const workspace = join(root, "checkout");
      cpSync(origin, workspace, { recursive: true });
      const env = cleanEnv(
        model.env({ CLAUDE_CONFIG_DIR: temp.make(`flower-claude-${name}-`), FLOWER_STORE: url }),
      );
      return { workspace, runDir: join(root, "runs"), env };
    };
    const a = checkout("a");
    const b = checkout("b");
    const driver = spawnFlower(
      ["--workspace", a.workspace, "--run-dir", a.runDir, "--direct", "--step", "busy", "Count the lines"],
      { env: a.env, cwd: a.workspace, timeoutMs: 120_000 },
    );
    await until(() => seen.busy, "the driver's first turn");

    // Machine B has no run directory of its own: the store knows the step and its driver.
    const asked = await runFlower(["handoff", "busy", "--next", WORDS], {
      env: b.env,
      cwd: b.workspace,
      timeoutMs: 30_000,
    });
    expect(asked.stderr).toBe("");
    expect(asked.code).toBe(0);

    const finished = await driver.done;
    expect(finished.code, finished.stderr).toBe(0);
    expect(seen.successorFirst).toContain(MARKED);
    expect(seen.successorFirst).toContain(ASKED);
    expect(seen.successorFirst).not.toContain("nearly full");
    const record = localRecord(a.runDir, "busy");
    expect(record.handoffRequests?.map((request) => request.next)).toEqual([WORDS]);
    expect(readFileSync(record.handoffs[0]!, "utf8")).toContain(MARKED);

    const late = await runFlower(["handoff", "busy"], { env: b.env, cwd: b.workspace });
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('"busy" has no live driver (it is done)');
    model.assertNoErrors();
  });
});
