/**
 * `flower serve` in headless Chromium (issue 25, the live page), all through the built CLI: the demo's
 * run and a run in progress (`flower --direct` against the offline kit and the real `claude` binary, its
 * model held turn by turn by this test) in one run directory. The demo is the test run's shared one
 * (test/support/shared-demo.ts: a demo costs eight real `claude` sessions, and this file only reads it),
 * its run directory copied here, since the live run writes beside it. The page lists both; the running
 * run's context gauge moves without a reload as the test lets its turns through; an action without the
 * token is refused (403) and changes nothing; a run opens to its report; no request leaves the server's
 * host; Ctrl-C stops the server with exit 0.
 *
 * FLOWER_SERVE_SCREENSHOTS=<dir> also saves the page (scripts/serve-screenshots.sh writes docs/serve.png).
 */
import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel, text, toolUse, type FakeModel } from "../../../src/testing/index.js";
import { CHROMIUM_ARGS, chromiumPath } from "../../support/chromium.js";
import type { RecordedRun } from "../../support/run-reports.js";
import { copyRunDir, sharedDemo, SHARED_DEMO_WAIT_MS } from "../../support/shared-demo.js";
import { useTempDirs } from "../../support/temp-dir.js";
import { cleanEnv, killAll, killGroup, spawnFlower, writeNotes, type Spawned } from "./helpers.js";

const temp = useTempDirs();
const SCREENSHOTS = process.env.FLOWER_SERVE_SCREENSHOTS;

/** The live run's model: each main-thread turn reads one more note, once the test lets it through. */
class HeldModel {
  served = 0;
  #allowed = 2;
  #finish = false;
  #waiting: Array<() => void> = [];
  model!: FakeModel;

  async start(): Promise<void> {
    this.model = await startFakeModel({
      policy: async (request) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.isSubagent) return text("unused");
        while (!this.#finish && this.served >= this.#allowed)
          await new Promise<void>((go) => this.#waiting.push(go));
        if (this.#finish) return text("Counted the notes: done.");
        this.served += 1;
        return toolUse("Read", { file_path: `note-${this.served}.md` });
      },
    });
  }

  /** Lets `turns` more turns through (or every turn, to the end, with `finish`). */
  release(turns: number, finish = false): void {
    this.#allowed += turns;
    this.#finish ||= finish;
    for (const go of this.#waiting.splice(0)) go();
  }
}

let demo: RecordedRun;
let root: string;
let held: HeldModel | undefined;
let server: Spawned;
let url: URL;
let browser: Browser;
let page: Page;
const requests: string[] = [];
const problems: string[] = [];

async function until(condition: () => boolean, what: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((go) => setTimeout(go, 100));
  }
}

/** Starts `flower serve` and reads its address off the line it prints. */
async function startServer(args: string[]): Promise<{ spawned: Spawned; printed: () => string }> {
  const spawned = spawnFlower(["serve", "--run-dir", demo.runDir, "--port", "0", ...args], {
    env: cleanEnv(),
    timeoutMs: 300_000,
  });
  let printed = "";
  spawned.child.stdout!.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  await until(() => /Ctrl-C|Ctrl-C 关/.test(printed), "flower serve's start lines", 30_000);
  return { spawned, printed: () => printed };
}

beforeAll(async () => {
  root = temp.make("flower-serve-");
  const shared = await sharedDemo();
  expect(shared.finished.code, shared.finished.stderr).toBe(0);
  demo = { run: shared.run, runDir: copyRunDir(shared, root), workspace: shared.workspace };
  const started = await startServer(["--allow-actions"]);
  server = started.spawned;
  const printed = started.printed();
  expect(printed).toContain(`flower serve: the runs in ${join(demo.runDir, "records.db")}`);
  const address = /Open (http:\/\/127\.0\.0\.1:\d+\/)#token=([\w-]+)/.exec(printed);
  expect(address, printed).not.toBeNull();
  expect(printed).toContain(`Token: ${address![2]}`);
  url = new URL(address![1]!);
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  // No token in the address: this page may look, not act.
  page = await browser.newPage({ viewport: { width: 1400, height: 640 } });
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    // The refused action's 403 is logged by the browser; it is the point of one test.
    if (message.type() === "error" && !message.text().includes("403")) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(url.href, { waitUntil: "load" });
}, SHARED_DEMO_WAIT_MS + 120_000);

afterAll(async () => {
  await browser?.close();
  killAll();
  await held?.model.close();
});

const row = (name: string) => page.locator(`tr[data-run="${name}"]`);

/** `flower --direct` on the notes, its model held by the test; resolves after its first two turns. */
async function startLiveRun(model: HeldModel): Promise<Spawned> {
  await model.start();
  const workspace = join(root, "live");
  mkdirSync(workspace);
  writeNotes(workspace);
  const live = spawnFlower(
    [
      "--direct",
      "--step",
      "live",
      "--window",
      "100000",
      "--run-dir",
      demo.runDir,
      "Read the notes one by one",
    ],
    { env: cleanEnv(model.model.env()), cwd: workspace, timeoutMs: 300_000 },
  );
  // A run that ended before its first turns says why, instead of a timeout.
  let early: string | null = null;
  void live.done.then((ended) => {
    if (model.served < 2) early = `the live run ended early (${ended.code}): ${ended.stderr}`;
  });
  await until(() => model.served >= 2 || early !== null, "the live run's first turns");
  expect(early).toBeNull();
  return live;
}

describe("flower serve in Chromium", () => {
  it("lists a finished run (status, step, gauge, generations, cost, the goal's checks) and opens its report", async () => {
    await expect.poll(() => row("demo").count(), { timeout: 30_000 }).toBe(1);
    expect(await page.locator("#state").textContent()).toBe("live");
    expect(await row("demo").getAttribute("data-status")).toBe("done");
    expect(await row("demo").locator("td.step").textContent()).toBe("work");
    expect(await row("demo").locator("td.machine").textContent()).toBe("-");
    expect(await row("demo").locator("ul.checks li.passed").count()).toBe(3);
    expect(await row("demo").locator("ul.checks li .mark").first().textContent()).toBe("✓");
    // The count, then under it where the run stood at each handoff (the goal's checks ran there).
    const generations = row("demo").locator("td.generations");
    const count = await generations.evaluate(
      (cell) =>
        (cell as unknown as { firstChild: { textContent: string | null } | null }).firstChild?.textContent,
    );
    // The run's 2 handoffs: its work step's 3 generations (a sum over its steps said 5).
    expect(count).toBe("3");
    expect(await generations.locator("li").first().textContent()).toMatch(/^work gen 1: .* · checks \d\/3/);
    // Each generation's line whole on the page, none cut ("checks 1/…" was).
    const lines = await generations.locator("li").evaluateAll((items) =>
      items.map((item) => {
        const box = item as unknown as {
          scrollWidth: number;
          clientWidth: number;
          textContent: string | null;
        };
        return { text: box.textContent ?? "", cut: box.scrollWidth > box.clientWidth };
      }),
    );
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line.text).toMatch(/checks \d\/3/);
      expect(line.cut, line.text).toBe(false);
    }
    expect(await row("demo").locator("td.cost").textContent()).toMatch(/^\$\d+\.\d+$/);
    expect(await row("demo").locator("td.run").textContent()).toContain("requirements · goal");
    expect(await row("demo").locator(".gauge").getAttribute("data-window")).toBe("60000");
    // A finished run has nothing to approve or cancel.
    expect(await row("demo").locator("button").count()).toBe(0);

    await row("demo").locator("td.run a").click();
    await page.waitForURL(new URL("/runs/demo/report", url).href);
    expect(await page.locator("section.run").count()).toBe(1);
    expect(await page.locator("section.document").count()).toBe(2);
    expect(await page.locator("section.step").count()).toBe(3);
    // A check's log opens from the report, served by the page (only files the records name).
    const logLink = page.locator("table.goal-checks td a").first();
    expect(await logLink.getAttribute("href")).toMatch(/^\/runs\/demo\/log\?path=/);
    await logLink.click();
    await page.waitForURL(/\/runs\/demo\/log\?path=/);
    expect((await page.locator("body").textContent())!.length).toBeGreaterThan(0);
    await page.goBack();
    await page.goBack();
    await expect.poll(() => row("demo").count(), { timeout: 30_000 }).toBe(1);
  });

  it("shows a running run and moves its gauge without a reload; an action without the token is refused", async () => {
    held = new HeldModel();
    const live = await startLiveRun(held);
    try {
      await expect.poll(() => row("live").getAttribute("data-status"), { timeout: 30_000 }).toBe("running");
      expect(await row("live").locator("td.machine").textContent()).toBe(
        `pid ${live.child.pid}@${hostname()}`,
      );
      const gauge = row("live").locator(".gauge");
      expect(await gauge.getAttribute("data-window")).toBe("100000");
      expect(await gauge.getAttribute("data-at")).toBe("50000");

      // The gauge moves as the test lets turns through, in the same document: no reload.
      const context = async () => Number(await gauge.getAttribute("data-context"));
      await expect.poll(context, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await row("live").locator(".gauge-text").textContent()).toMatch(
        /^[\d.]+K \/ 100K, handoff at 50K$/,
      );
      const before = await context();
      await page.evaluate(() => ((globalThis as unknown as { flowerMarker: number }).flowerMarker = 1));
      const loads = () => requests.filter((request) => new URL(request).pathname === "/").length;
      const loaded = loads();
      held.release(3);
      await expect.poll(context, { timeout: 60_000 }).toBeGreaterThan(before);
      expect(
        await page.evaluate(() => (globalThis as unknown as { flowerMarker: number }).flowerMarker),
      ).toBe(1);
      expect(loads()).toBe(loaded);
      if (SCREENSHOTS) {
        mkdirSync(resolve(SCREENSHOTS), { recursive: true });
        await page.screenshot({ path: join(resolve(SCREENSHOTS), "serve.png"), fullPage: true });
      }

      // A run directory has no fleet: nothing to approve or cancel, only the field that tells the run
      // something (flower say). An action posted by hand without the token, or with a wrong one, is
      // refused before anything else is looked at, and the run goes on.
      expect(
        await row("live").locator('button[data-action="approve"], button[data-action="cancel"]').count(),
      ).toBe(0);
      expect(await row("live").locator('input[data-say="live"]').count()).toBe(1);
      const statuses = await page.evaluate(async (target) => {
        const without = await fetch(target, { method: "POST" });
        const wrong = await fetch(target, {
          method: "POST",
          headers: { "x-flower-token": "not-the-token-at-all" },
        });
        return [without.status, wrong.status, (await wrong.text()).trim()];
      }, new URL("/runs/live/cancel", url).href);
      expect(statuses).toEqual([403, 403, "missing or wrong token"]);
      const served = held.served;
      held.release(1);
      await until(() => held!.served > served, "the live run's next turn after the refusals");
      expect(live.child.exitCode).toBeNull();
      expect(await row("live").getAttribute("data-status")).toBe("running");

      // Let it finish: the page shows it done, still without a reload.
      held.release(0, true);
      const finished = await live.done;
      expect(finished.code, finished.stderr).toBe(0);
      await expect.poll(() => row("live").getAttribute("data-status"), { timeout: 30_000 }).toBe("done");
      expect(loads()).toBe(loaded);
      held.model.assertNoErrors();
    } finally {
      // A failure above must not leave the run (and its `claude`) going into the next test.
      killGroup(live.child);
    }
  });

  it("made no request to another host, and logged no error", () => {
    expect(requests.length).toBeGreaterThan(3);
    for (const request of requests) expect(new URL(request).host).toBe(url.host);
    expect(problems).toEqual([]);
  });

  it("stops on Ctrl-C with exit 0; --lang zh speaks Chinese, read-only", async () => {
    process.kill(server.child.pid!, "SIGINT");
    const stopped = await server.done;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain("flower serve: stopped.");
    const zh = await startServer(["--lang", "zh"]);
    expect(zh.printed()).toContain("只读");
    const address = /打开 (http:\/\/127\.0\.0\.1:\d+\/)/.exec(zh.printed())![1]!;
    const zhPage = await browser.newPage();
    await zhPage.goto(address);
    expect(await zhPage.locator("h1").textContent()).toBe("flower 运行");
    await expect.poll(() => zhPage.locator('tr[data-run="demo"] .status').textContent()).toBe("完成");
    expect(await zhPage.locator("button").count()).toBe(0);
    process.kill(zh.spawned.child.pid!, "SIGINT");
    expect((await zh.spawned.done).code).toBe(0);
  });
});
