/**
 * `flower serve --store postgres://… --allow-actions` over a fleet (issue 25), in headless Chromium:
 * runs put in the queue with `flower submit` (the built CLI, a real PostgreSQL; no worker, so they
 * stay queued) are listed with the fleet's status; a cancel clicked on a page opened without the token
 * is refused (403) and the run stays queued in the store; the same click on the page opened from the
 * printed address (token in its fragment) cancels it, and the page shows it without a reload. Nothing is
 * fetched from another host; Ctrl-C stops the server with exit 0.
 */
import { join, resolve } from "node:path";
import { mkdirSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { afterAll, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "../../support/chromium.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { cleanEnv, killAll, spawnFlower } from "../../e2e/cli/helpers.js";
import { fleetRows, submitRun, until } from "../../e2e/cli/fleet-helpers.js";

const server = usePostgresServer();
const SCREENSHOTS = process.env.FLOWER_SERVE_SCREENSHOTS;
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
  killAll();
});

it("lists the fleet's queued runs; cancel is refused without the token and works with it", async () => {
  const schema = freshSchema("serve");
  const url = `${server().url}?schema=${schema}`;
  const first = await submitRun(url, "Fix the flaky test in the clock module");
  const second = await submitRun(url, "Write the changelog", ["--direct"]);
  const serve = spawnFlower(["serve", "--store", url, "--port", "0", "--allow-actions"], {
    env: cleanEnv(),
    timeoutMs: 120_000,
  });
  let printed = "";
  serve.child.stdout!.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  await until(() => printed.includes("Ctrl-C"), "flower serve's start lines", 30_000);
  const address = /Open (http:\/\/127\.0\.0\.1:\d+\/)#token=([\w-]+)/.exec(printed)!;
  expect(address, printed).not.toBeNull();
  // The store is named without its password.
  expect(printed).not.toContain(new URL(url).password || "no password");

  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  const requests: string[] = [];
  const open = async (href: string) => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 360 } });
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(href);
    return page;
  };
  const status = async (run: string) =>
    (await fleetRows(server().url, schema)).find((row) => row.run === run)?.status;

  // Opened without the token: it can look, and its cancel is refused.
  const looking = await open(address[1]!);
  const row = (name: string) => looking.locator(`tr[data-run="${name}"]`);
  await expect.poll(() => row(first).getAttribute("data-status"), { timeout: 30_000 }).toBe("queued");
  expect(await row(second).getAttribute("data-status")).toBe("queued");
  expect(await row(first).locator(".gauge").count()).toBe(0);
  await row(first).locator('button[data-action="cancel"]').click();
  await expect.poll(() => looking.locator("#message").getAttribute("data-status")).toBe("403");
  expect(await status(first)).toBe("queued");

  // Opened from the printed address: the same click cancels the run, and both pages show it.
  const acting = await open(`${address[1]}#token=${address[2]}`);
  const actingRow = acting.locator(`tr[data-run="${first}"]`);
  await expect.poll(() => actingRow.locator('button[data-action="cancel"]').count()).toBe(1);
  await actingRow.locator('button[data-action="cancel"]').click();
  await expect.poll(() => acting.locator("#message").getAttribute("data-status")).toBe("200");
  expect(await status(first)).toBe("cancelled");
  expect(await status(second)).toBe("queued");
  await expect.poll(() => row(first).getAttribute("data-status"), { timeout: 30_000 }).toBe("cancelled");
  expect(await row(first).locator("button").count()).toBe(0);
  if (SCREENSHOTS) {
    mkdirSync(resolve(SCREENSHOTS), { recursive: true });
    await acting.screenshot({ path: join(resolve(SCREENSHOTS), "serve-fleet.png"), fullPage: true });
  }

  const host = new URL(address[1]!).host;
  for (const request of requests) expect(new URL(request).host).toBe(host);
  process.kill(serve.child.pid!, "SIGINT");
  const stopped = await serve.done;
  expect(stopped.code, stopped.stderr).toBe(0);
}, 180_000);
