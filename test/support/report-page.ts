/**
 * A run report (`flower report <run>`) opened in the system's headless Chromium, for the browser tests of
 * the demo's run (test/e2e/cli/demo.test.ts) and of a goal-not-met run (test/e2e/cli/goal-not-met.test.ts):
 * one browser per test file, a page per report, and the checks every report page must pass (no two SVG
 * labels overlap, nothing wider than the window, nothing fetched, nothing logged).
 *
 * FLOWER_REPORT_SCREENSHOTS=<dir> also saves pages as PNGs there (scripts/report-screenshots.sh).
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "./chromium.js";

/** The DOM as far as these tests use it (the project's TypeScript has no DOM lib). */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface ElementLike {
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  querySelectorAll(selector: string): ArrayLike<ElementLike>;
  textContent: string | null;
}

/** The widths every report is drawn at: a desktop window and a narrow one. */
export const WIDTHS = [1400, 800];

/** One Chromium for the file, started on the first page; `close()` in the file's afterAll. */
export function useReportBrowser(): {
  open(file: string, width: number): Promise<{ page: Page; problems: string[] }>;
  close(): Promise<void>;
} {
  let browser: Browser | undefined;
  return {
    async open(file, width) {
      browser ??= await chromium.launch({
        executablePath: chromiumPath(),
        args: CHROMIUM_ARGS,
        headless: true,
      });
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
      // Self-contained: the page is the only thing loaded.
      expect(requests).toEqual([url]);
      return { page, problems };
    },
    async close() {
      await browser?.close();
      browser = undefined;
    },
  };
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

/** What every report page must pass: no overlapping labels, no sideways scrolling at `width`. */
export async function expectReadablePage(page: Page, width: number): Promise<void> {
  expect(await overlappingLabels(page)).toEqual([]);
  const scrollWidth = await page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
        .documentElement.scrollWidth,
  );
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

/** Saves the page as `name` under FLOWER_REPORT_SCREENSHOTS when it is set. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const directory = process.env.FLOWER_REPORT_SCREENSHOTS;
  if (!directory) return;
  mkdirSync(resolve(directory), { recursive: true });
  await page.screenshot({ path: join(resolve(directory), name), fullPage: true });
}
