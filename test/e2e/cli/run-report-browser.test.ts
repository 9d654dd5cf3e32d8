/**
 * `flower report <run>` in headless Chromium (issue 23, item 9), at 1400 and 800 px, in English and
 * Chinese: the demo's run and a goal-not-met run, both recorded by the built CLI. The page starts with the
 * task as typed and the steps in order with their status; the goal-not-met run shows the failing check and
 * its reason with a link to a log that exists; no two SVG labels overlap (at the CLI's 1M default the
 * handoff and warning labels used to); a small run's scale zooms to the data; nothing is wider than the
 * window; nothing is fetched and nothing is logged.
 *
 * FLOWER_REPORT_SCREENSHOTS=<dir> also saves the English pages as PNGs there
 * (scripts/report-screenshots.sh writes docs/report-*.png this way).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoTask } from "../../../src/testing/scenarios/demo/index.js";
import { CHROMIUM_ARGS, chromiumPath } from "../../support/chromium.js";
import {
  GNM_CHECK,
  GNM_TASK,
  recordDemo,
  recordGoalNotMet,
  reportOf,
  type RecordedRun,
} from "../../support/run-reports.js";
import { useTempDirs } from "../../support/temp-dir.js";
import { killAll } from "./helpers.js";

/** The DOM as far as these tests use it (the project's TypeScript has no DOM lib). */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface ElementLike {
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  querySelectorAll(selector: string): ArrayLike<ElementLike>;
  textContent: string | null;
}

const temp = useTempDirs();
const SCREENSHOTS = process.env.FLOWER_REPORT_SCREENSHOTS;
let browser: Browser | undefined;
let demo: RecordedRun;
let gnm: RecordedRun;

beforeAll(async () => {
  const root = temp.make("flower-run-report-");
  demo = await recordDemo(root);
  gnm = await recordGoalNotMet(join(root, "gnm"));
}, 600_000);

afterAll(async () => {
  killAll();
  await browser?.close();
});

async function open(file: string, width: number): Promise<{ page: Page; problems: string[] }> {
  browser ??= await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => requests.push(request.url()));
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: "load" });
  expect(requests).toEqual([url]);
  return { page, problems };
}

/** Pairs of text boxes that intersect, per SVG chart (rotated labels by their screen boxes). */
async function overlappingLabels(page: Page): Promise<string[]> {
  return page.locator("svg").evaluateAll((svgs: ElementLike[]) => {
    const found: string[] = [];
    svgs.forEach((svg, index) => {
      const boxes = Array.from(svg.querySelectorAll("text"))
        .map((text) => ({ text: text.textContent ?? "", box: text.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && box.height > 0);
      for (let a = 0; a < boxes.length; a++)
        for (let b = a + 1; b < boxes.length; b++) {
          const p = boxes[a]!.box;
          const q = boxes[b]!.box;
          const overlapX = Math.min(p.x + p.width, q.x + q.width) - Math.max(p.x, q.x);
          const overlapY = Math.min(p.y + p.height, q.y + q.height) - Math.max(p.y, q.y);
          if (overlapX > 0.5 && overlapY > 0.5)
            found.push(`chart ${index + 1}: "${boxes[a]!.text}" × "${boxes[b]!.text}"`);
        }
    });
    return found;
  });
}

async function common(page: Page, width: number): Promise<void> {
  expect(await overlappingLabels(page)).toEqual([]);
  // Nothing wider than the window: no sideways scrolling at 800 px either.
  const scrollWidth = await page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
        .documentElement.scrollWidth,
  );
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const directory = resolve(SCREENSHOTS);
  mkdirSync(directory, { recursive: true });
  await page.screenshot({ path: join(directory, name), fullPage: true });
}

const WIDTHS = [1400, 800];

describe.each([
  ["en", "Task", "done", "Goal not met", "exit code 1, expected 0"],
  ["zh", "任务", "done", "目标未达成", "退出码 1"],
])("flower report <run> in Chromium (%s)", (lang, taskLabel, done, notMet, reason) => {
  it.each(WIDTHS)(
    "the demo's run at %i px: task as typed, steps in order, documents, checks",
    async (width) => {
      const { page, problems } = await open(await reportOf(demo, lang), width);
      try {
        await expect(page.locator("section.run .task .label").textContent()).resolves.toBe(taskLabel);
        expect(await page.locator("section.run .task .typed").textContent()).toBe(
          // The demo ran in English: the task is as it was typed, whatever language the page speaks.
          demoTask("en"),
        );
        const steps = await page
          .locator("ol.run-steps li")
          .evaluateAll((items: ElementLike[]) =>
            items.map((item) => `${item.getAttribute("data-step")}:${item.getAttribute("data-status")}`),
          );
        expect(steps).toEqual([`demo/requirements:${done}`, `demo/goal:${done}`, `demo/work:${done}`]);
        // Both documents, each with its sections; the demo's person edited the requirements file.
        expect(await page.locator("section.document").count()).toBe(2);
        expect(await page.locator("section.document").first().locator("dt").count()).toBeGreaterThan(2);
        expect(await page.locator("section.document").first().locator("p.note").count()).toBe(1);
        // The goal's checks, run by run: the demo's first run fails one check, the last passes all.
        const cells = page.locator("table.goal-checks td[data-passed]");
        expect(await cells.count()).toBeGreaterThan(3);
        expect(await page.locator("table.goal-checks td.failed").count()).toBeGreaterThan(0);
        for (const href of await page
          .locator("table.goal-checks td a")
          .evaluateAll((links: ElementLike[]) => links.map((link) => link.getAttribute("href")!))) {
          const file = fileURLToPath(new URL(href, page.url()));
          expect(existsSync(file), file).toBe(true);
        }
        // Then each step's chart: the work step's turns are the main thread's, as in `flower show`.
        expect(await page.locator("section.step").count()).toBe(3);
        await common(page, width);
        if (lang === "en") await screenshot(page, `report-demo-${width}.png`);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    120_000,
  );

  it.each(WIDTHS)(
    "a goal-not-met run at %i px: the failing check, its reason and its log",
    async (width) => {
      const { page, problems } = await open(await reportOf(gnm, lang), width);
      try {
        expect(await page.locator("section.run .task .typed").textContent()).toBe(GNM_TASK);
        const box = page.locator(".verdict-box");
        expect(await box.count()).toBe(1);
        expect(await box.isVisible()).toBe(true);
        expect(await box.locator("strong").textContent()).toBe(notMet);
        const failing = box.locator("li.failed");
        expect(await failing.count()).toBe(1);
        expect(await failing.locator("code").textContent()).toBe(GNM_CHECK);
        expect(await failing.locator(".reason").textContent()).toContain(reason);
        expect(await failing.locator(".reason").isVisible()).toBe(true);
        const href = (await failing.locator("a.log").getAttribute("href"))!;
        expect(href).toMatch(/goal-check-1\.run-\d+\.log$/);
        expect(existsSync(fileURLToPath(new URL(href, page.url())))).toBe(true);
        // At the CLI's default window the small run is drawn zoomed, the lines named above it, apart.
        const work = page.locator('section.step[data-step="gnm/work"] svg.context-chart');
        expect(await work.getAttribute("data-zoomed")).toBe("true");
        expect(await work.locator("text[data-above]").count()).toBe(2);
        expect(await work.locator("line.threshold").count()).toBe(0);
        await common(page, width);
        if (lang === "en") await screenshot(page, `report-goal-not-met-${width}.png`);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    120_000,
  );
});
