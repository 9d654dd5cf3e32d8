/**
 * `flower continue` runs a step as it was started (issue 22, item 1): the built CLI, the real `claude`
 * binary and the offline kit. A step is started with settings, stopped with Ctrl-C (or ended by its
 * budget), and continued with exactly the command the CLI printed — no flag on `continue` — and the
 * kit's recorded requests show the started model, the handoff at the started line, the reviewer, the
 * language and the budget. A flag given to `continue` overrides one setting and prints one line each.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { REVIEW_SIGNATURE } from "../../../src/goal/index.js";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { cleanEnv, runFlower, spawnFlower, type Finished, type Spawned, useCliTest } from "./helpers.js";
import { goalAnswer, isGoalStep, requirementsAnswer } from "./workflow-answers.js";

/** Two or three runs of the binary each, some with a handoff and a reviewer: generous on a loaded machine. */
const TIMEOUT = 150_000;
const SONNET = "claude-sonnet-4-5-20250929";
const HAIKU = "claude-haiku-4-5";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;

function workspace(): string {
  const root = temp.make("flower-continue-settings-");
  writeFileSync(join(root, "small.txt"), "small\n");
  return root;
}

function record(root: string, step: string): StepRecord {
  const manifest = JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8")) as ManifestFile;
  return manifest.steps[step]!;
}

const READ = toolUse("Read", { file_path: "small.txt" });
/** Answered slowly, so the Ctrl-C sent while it is being answered lands mid-turn. */
const SLOW_READ = { ...READ, delayMs: 400 };
const HANDOFF = handoffMarkdown({ doing: "GEN-1: reading small.txt.", next: ["Say it is finished."] });
const VERDICT = "- the task is done — met — evidence: small.txt was read";

const isReviewer = (request: ModelRequest) => request.firstUserText().includes(REVIEW_SIGNATURE);

/**
 * Starts `flower args` in `root` (the default run directory, so the printed line is the bare
 * `flower continue <step>`) and sends Ctrl-C while the model answers its `stopAt`-th main turn.
 */
function startAndStop(
  args: string[],
  root: string,
  stopAt: number,
  first: (request: ModelRequest) => ReturnType<typeof text>,
): { policy: (request: ModelRequest) => ReturnType<typeof text>; run: () => Promise<Finished> } {
  const holder: { spawned?: Spawned } = {};
  let mainTurns = 0;
  let stopping = true;
  return {
    policy: (request) => {
      if (stopping && request.kind === "main" && !isReviewer(request)) {
        mainTurns += 1;
        if (mainTurns === stopAt) {
          stopping = false;
          holder.spawned?.child.kill("SIGINT");
          return SLOW_READ;
        }
        return READ;
      }
      return first(request);
    },
    run: async () => {
      holder.spawned = spawnFlower(args, { env: cleanEnv(model!.env()), cwd: root, timeoutMs: 60_000 });
      const stopped = await holder.spawned.done;
      expect(stopped.timedOut).toBe(false);
      expect(stopped.code, stopped.stdout + stopped.stderr).toBe(130);
      return stopped;
    },
  };
}

/** Runs the continue command exactly as the stopped run printed it (`flower continue <step>`). */
async function continueAsPrinted(stopped: Finished, step: string, root: string, extra: string[] = []) {
  // A stop prints it on stdout, a failure on stderr.
  const printed = (stopped.stdout + stopped.stderr).match(/flower continue \S+/)?.[0];
  expect(printed, stopped.stdout + stopped.stderr).toBe(`flower continue ${step}`);
  const from = model!.requests.length;
  const resumed = await runFlower([...printed!.split(" ").slice(1), ...extra], {
    env: cleanEnv(model!.env()),
    cwd: root,
    timeoutMs: 90_000,
  });
  expect(resumed.timedOut).toBe(false);
  return { resumed, requests: model!.requests.slice(from) };
}

describe("flower continue <step> with no flags runs the step as it was started", () => {
  it(
    "--window --model --review --lang: the started model, the handoff at the started line, the reviewer, zh",
    async () => {
      const root = workspace();
      const { policy, run } = startAndStop(
        [
          "--direct",
          "--window",
          "90000",
          "--model",
          SONNET,
          "--review",
          "--lang",
          "zh",
          "--step",
          "s",
          "Read it",
        ],
        root,
        4,
        (request) => {
          if (isReviewer(request)) return text(VERDICT);
          if (request.isHandoffTurn) return text(HANDOFF);
          if (request.firstUserText().includes("GEN-1")) return text("读完了。");
          // The continuation's first turn: 60K more tokens cross the 90K window's line (40K), not 1M's,
          // and pass window − inflightMargin (65K), so the switch cuts the Read there instead of letting
          // it finish and the turn end.
          if (request.lastUserText().includes("继续。")) return { ...READ, outputTokens: 60_000 };
          return text("读完了。");
        },
      );
      model = await startModel({ policy });
      const stopped = await run();
      const before = record(root, "s");
      expect(before.status).toBe("stopped");

      const { resumed, requests } = await continueAsPrinted(stopped, "s", root);
      expect(resumed.code, resumed.stdout).toBe(0);
      expect(resumed.stderr).toBe("");
      // The model as started, on every turn of the step's own sessions (the binary's title requests
      // use its small model and are not the step's).
      const turns = requests.filter((request) => request.kind === "main");
      expect(turns.length).toBeGreaterThan(2);
      expect(new Set(turns.map((request) => request.model))).toEqual(new Set([SONNET]));
      // zh as started: the continue prompt, the live view.
      expect(turns[0]!.lastUserText()).toContain("继续。");
      expect(resumed.stdout).toContain("=> 开始 s");
      // The handoff at the started line: the crossing turn's context is past 40K and far below 1M.
      expect(requests.some((request) => request.isHandoffTurn)).toBe(true);
      const after = record(root, "s");
      expect(after.generations).toBe(2);
      expect(after.history[0]!.context).toBeGreaterThanOrEqual(40_000);
      expect(after.history[0]!.context).toBeLessThan(90_000);
      expect(after.policy).toMatchObject({ window: 90_000, at: 40_000 });
      // The reviewer as started.
      expect(requests.some(isReviewer)).toBe(true);
      expect(after.guard?.reviews?.length ?? 0).toBeGreaterThan(0);
      // Nothing was overridden, so nothing says so; the small-window note came once, when it started.
      expect(resumed.stdout).not.toContain("启动时");
      expect(stopped.stdout).toContain("flower: 提示: --window 90000");
      expect(resumed.stdout).not.toContain("--window 90000");
      expect(after.status).toBe("done");
      expect(after.settings).toEqual({
        model: SONNET,
        handoff: { enabled: true, window: 90_000, headroom: 50_000, windowGuessed: false, rule: "line" },
        maxBudgetUsd: null,
        review: true,
        locale: "zh",
      });
      model.assertNoErrors();
    },
    TIMEOUT,
  );

  it(
    "--no-handoff: the continuation crosses the 1M default's line without a handoff",
    async () => {
      const root = workspace();
      const { policy, run } = startAndStop(
        ["--direct", "--no-handoff", "--step", "n", "Read it"],
        root,
        2,
        (request) => {
          if (request.isHandoffTurn) return text(HANDOFF);
          if (request.lastUserText().includes("Continue the task."))
            return { ...READ, outputTokens: 960_000 };
          return text("Read it.");
        },
      );
      model = await startModel({ policy });
      const stopped = await run();
      const { resumed, requests } = await continueAsPrinted(stopped, "n", root);
      expect(resumed.code, resumed.stdout).toBe(0);
      expect(resumed.stderr).toBe("");
      const after = record(root, "n");
      const contexts = after.history
        .flatMap((generation) => generation.turns ?? [])
        .map(([context]) => context);
      expect(Math.max(...contexts)).toBeGreaterThan(950_000);
      expect(requests.some((request) => request.isHandoffTurn)).toBe(false);
      expect(after.generations).toBe(1);
      expect(after.policy?.enabled).toBe(false);
      expect(after.status).toBe("done");
    },
    TIMEOUT,
  );

  it(
    "--max-budget-usd: a step its budget ended ends at the budget again",
    async () => {
      const root = workspace();
      // Every main turn reads: only the budget ends the step before the third read. A resumed turn reads
      // the cache and costs a few tenths of a cent: the budget is below that.
      model = await startModel({
        policy: (request) =>
          request.kind === "main" && request.countToolResults("Read") < 3
            ? READ
            : text("Read it three times."),
      });
      const started = await runFlower(["--direct", "--max-budget-usd", "0.001", "--step", "b", "Read it"], {
        env: cleanEnv(model.env()),
        cwd: root,
        timeoutMs: 60_000,
      });
      expect(started.code, started.stdout).toBe(1);
      const { resumed } = await continueAsPrinted(started, "b", root);
      expect(resumed.code, resumed.stdout).toBe(1);
      expect(resumed.stdout).toContain("error_max_budget_usd: Reached maximum budget ($0.001)");
      const after = record(root, "b");
      expect(after.status).toBe("failed");
      // Both ended by the budget: the start and the continuation.
      expect(after.failures.filter((failure) => /max_budget/.test(failure.reason))).toHaveLength(2);
      expect(resumed.stdout).not.toContain("Read it three times.");
      expect(after.settings?.maxBudgetUsd).toBe(0.001);
    },
    TIMEOUT,
  );

  it(
    "a workflow run: the steps `flower continue <run>` starts run with the run's model, window and reviewer",
    async () => {
      const root = workspace();
      model = await startModel({
        policy: (request) => {
          if (isReviewer(request)) return text(VERDICT);
          if (isGoalStep(request)) return text(goalAnswer(request));
          if (request.documentKind === "requirements") return text(requirementsAnswer());
          return text("The flaky test passes now.");
        },
      });
      const env = cleanEnv(model.env());
      const started = await runFlower(
        ["--window", "90000", "--model", SONNET, "--review", "--step", "wf", "Fix the flaky test"],
        { env, cwd: root, timeoutMs: 90_000 },
      );
      expect(started.code, started.stdout).toBe(0);
      const { resumed, requests } = await continueAsPrinted(started, "wf", root);
      expect(resumed.code, resumed.stdout).toBe(0);
      expect(resumed.stderr).toBe("");
      const turns = requests.filter((request) => request.kind === "main");
      expect(turns.some(isGoalStep)).toBe(true);
      expect(new Set(turns.map((request) => request.model))).toEqual(new Set([SONNET]));
      expect(requests.some(isReviewer)).toBe(true);
      const work = record(root, "wf/work");
      expect(work.status).toBe("done");
      expect(work.policy).toMatchObject({ window: 90_000, at: 40_000 });
      expect(work.settings).toMatchObject({ model: SONNET, review: true });
      expect(resumed.stdout).not.toContain("as started");
    },
    TIMEOUT,
  );
});

describe("a flag given to flower continue overrides one setting and says so", () => {
  it(
    "one line per override; the requests follow the flags",
    async () => {
      const root = workspace();
      const { policy, run } = startAndStop(
        ["--direct", "--window", "90000", "--model", SONNET, "--lang", "zh", "--step", "o", "Read it"],
        root,
        2,
        (request) => (isReviewer(request) ? text(VERDICT) : text("Done.")),
      );
      model = await startModel({ policy });
      const stopped = await run();
      const flags = [
        "--lang",
        "en",
        "--window",
        "200000",
        "--model",
        HAIKU,
        "--max-budget-usd",
        "5",
        "--review",
        "--no-handoff",
        "--handoff-rule",
        "cost",
      ];
      const { resumed, requests } = await continueAsPrinted(stopped, "o", root, flags);
      expect(resumed.code, resumed.stdout).toBe(0);
      expect(resumed.stderr).toBe("");
      const lines = resumed.stdout.split("\n").filter((line) => line.includes(" as started → "));
      expect(lines).toEqual([
        `model ${SONNET} as started → ${HAIKU} (--model)`,
        "handoff on as started → off (--no-handoff)",
        "handoff rule line as started → cost (--handoff-rule)",
        "window 90K as started → 200K (--window)",
        "session budget none as started → $5 (--max-budget-usd)",
        "review off as started → on (--review)",
        "language zh as started → en (--lang)",
      ]);
      const turns = requests.filter((request) => request.kind === "main");
      expect(new Set(turns.map((request) => request.model))).toEqual(new Set([HAIKU]));
      expect(turns[0]!.lastUserText()).toContain("Continue the task.");
      expect(requests.some(isReviewer)).toBe(true);
      // The step now runs with what the flags said: the next bare continue keeps it.
      expect(record(root, "o").settings).toEqual({
        model: HAIKU,
        handoff: { enabled: false, window: 200_000, headroom: 50_000, windowGuessed: false, rule: "cost" },
        maxBudgetUsd: 5,
        review: true,
        locale: "en",
      });
    },
    TIMEOUT,
  );
});
