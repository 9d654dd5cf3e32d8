/**
 * The run report in a real browser: headless Chromium (the system's, driven by playwright-core) opens
 * the file from disk, and the test reads the chart back from the rendered page: one point per turn at
 * the right height, the `at` and `warnAt` lines and their labels, the handoff markers, no console error
 * and no request beyond the file itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../../src/report/html-report.js";
import { CHROMIUM_ARGS, chromiumPath } from "../../support/chromium.js";
import { demoLikeRun } from "../../support/report-fixture.js";

/** The DOM as far as these tests use it (the project's TypeScript has no DOM lib). */
interface ElementLike {
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  querySelector(selector: string): ElementLike | null;
  querySelectorAll(selector: string): ArrayLike<ElementLike>;
  textContent: string | null;
}

let browser: Browser | undefined;
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "flower-report-"));
});

/**
 * Launched by the first test rather than in beforeAll: a missing Chromium then fails each test with
 * the install command, where a failing beforeAll would report the tests as skipped.
 */
async function launched(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  return browser;
}

afterAll(async () => {
  await browser?.close();
  rmSync(directory, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  problems: string[];
  requests: string[];
}

async function open(html: string, name: string): Promise<Opened> {
  const file = join(directory, name);
  writeFileSync(file, html);
  const url = pathToFileURL(file).href;
  const page = await (await launched()).newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("request", (request) => requests.push(request.url()));
  await page.goto(url, { waitUntil: "load" });
  expect(requests).toEqual([url]);
  return { page, problems, requests };
}

describe("the run report in headless Chromium", () => {
  it("shows every turn, the thresholds and the handoffs, with no error and no fetch", async () => {
    const input = demoLikeRun();
    const { page, problems, requests } = await open(renderHtmlReport(input), "report.html");
    try {
      expect(await page.title()).toBe("flower demo · flower");
      const sections = page.locator("section.step");
      expect(await sections.count()).toBe(input.steps.length);

      for (const [index, step] of input.steps.entries()) {
        const section = sections.nth(index);
        expect(await section.getAttribute("data-step")).toBe(step.step);

        // One point per turn, in order, carrying its numbers, drawn and visible.
        const points = await section
          .locator("svg.context-chart circle.turn")
          .evaluateAll((circles: ElementLike[]) =>
            circles.map((circle) => {
              const box = circle.getBoundingClientRect();
              return {
                turn: Number(circle.getAttribute("data-turn")),
                generation: Number(circle.getAttribute("data-generation")),
                context: Number(circle.getAttribute("data-context")),
                x: box.x + box.width / 2,
                y: box.y + box.height / 2,
                width: box.width,
              };
            }),
          );
        expect(points).toHaveLength(step.turns.length);
        expect(points.map((point) => point.context)).toEqual(step.turns.map((turn) => turn.context));
        expect(points.map((point) => point.generation)).toEqual(step.turns.map((turn) => turn.generation));
        expect(points.map((point) => point.turn)).toEqual(step.turns.map((_, turn) => turn + 1));
        for (const point of points) expect(point.width).toBeGreaterThan(0);
        // Left to right in turn order; a higher context sits higher on the screen.
        for (let i = 1; i < points.length; i++) expect(points[i]!.x).toBeGreaterThan(points[i - 1]!.x);
        const byContext = [...points].sort((a, b) => a.context - b.context);
        for (let i = 1; i < byContext.length; i++) {
          if (byContext[i]!.context > byContext[i - 1]!.context) {
            expect(byContext[i]!.y).toBeLessThan(byContext[i - 1]!.y);
          }
        }

        // The two lines, labelled, and every point past `at` drawn above the `at` line.
        const lines = await section
          .locator("svg.context-chart line.threshold")
          .evaluateAll((elements: ElementLike[]) =>
            elements.map((line) => ({
              name: line.getAttribute("data-line"),
              value: Number(line.getAttribute("data-value")),
              y: line.getBoundingClientRect().y,
            })),
          );
        expect(lines.map(({ name, value }) => ({ name, value }))).toEqual([
          { name: "warnAt", value: step.warnAt },
          { name: "at", value: step.at },
        ]);
        const atY = lines.find((line) => line.name === "at")!.y;
        const warnY = lines.find((line) => line.name === "warnAt")!.y;
        expect(atY).toBeLessThan(warnY);
        for (const point of points) {
          if (point.context > step.at) expect(point.y).toBeLessThan(atY);
          if (point.context < step.warnAt) expect(point.y).toBeGreaterThan(warnY);
        }
        expect(await section.locator('text[data-label="at"]').textContent()).toBe("handoff at 35K");
        expect(await section.locator('text[data-label="warnAt"]').textContent()).toBe("warn at 15K");
        expect(await section.locator('text[data-label="at"]').isVisible()).toBe(true);

        // One marker per handoff, between the generations' points.
        const handoffs = step.generations.filter((generation) => generation.handoff);
        const markers = await section
          .locator("svg.context-chart g.handoff")
          .evaluateAll((groups: ElementLike[]) =>
            groups.map((group) => ({
              generation: Number(group.getAttribute("data-handoff")),
              degraded: group.getAttribute("data-degraded") === "true",
              x: group.querySelector("line")!.getBoundingClientRect().x,
              label: group.querySelector("text")!.textContent,
            })),
          );
        expect(markers.map(({ generation, degraded }) => ({ generation, degraded }))).toEqual(
          handoffs.map((generation) => ({
            generation: generation.generation,
            degraded: generation.handoff!.degraded,
          })),
        );
        for (const marker of markers) {
          const before = points.filter((point) => point.generation <= marker.generation);
          const after = points.filter((point) => point.generation > marker.generation);
          expect(marker.x).toBeGreaterThan(before.at(-1)!.x);
          if (after.length > 0) expect(marker.x).toBeLessThan(after[0]!.x);
        }
        if (index === 0) {
          expect(markers.map((marker) => marker.label)).toEqual(["handoff 1", "handoff 2 (degraded)"]);
        }

        // Cost and turns per generation, as rendered text.
        const rows = await section
          .locator("table.generations tbody tr")
          .evaluateAll((trs: ElementLike[]) =>
            trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent)),
          );
        expect(rows.map((cells) => [cells[0], cells[1]])).toEqual(
          step.generations.map((generation) => [String(generation.generation), String(generation.numTurns)]),
        );
      }

      // Spills and denials of the first step, per turn.
      const bars = await sections
        .nth(0)
        .locator("svg.activity-chart rect[data-kind]")
        .evaluateAll((rects: ElementLike[]) =>
          rects.map(
            (rect) =>
              `${rect.getAttribute("data-kind")}@${rect.getAttribute("data-turn")}x${rect.getAttribute("data-count")}`,
          ),
        );
      expect(bars.sort()).toEqual(["denial@14x1", "denial@2x1", "spill@13x2", "spill@3x1"]);
      // Guard rounds.
      expect(await sections.nth(0).locator("table.guard tbody tr").count()).toBe(2);

      expect(problems).toEqual([]);
      expect(requests).toHaveLength(1);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("draws goal-not-met in a colour of its own, apart from done and failed", async () => {
    const input = demoLikeRun();
    input.steps = ["done", "failed", "goal-not-met"].map((status) => ({
      ...input.steps[0]!,
      step: status,
      status,
    }));
    const { page, problems } = await open(renderHtmlReport(input), "statuses.html");
    try {
      const styles = await page.locator("span.status").evaluateAll((spans: ElementLike[]) =>
        spans.map((span) => {
          const style = (
            globalThis as unknown as {
              getComputedStyle(element: ElementLike): { color: string; borderTopStyle: string };
            }
          ).getComputedStyle(span);
          return { status: span.textContent, colour: style.color, border: style.borderTopStyle };
        }),
      );
      expect(styles.map((style) => style.status)).toEqual(["done", "failed", "goal-not-met"]);
      // Computed colours: each status its own, and goal-not-met not the page's ink.
      const colours = styles.map((style) => style.colour);
      expect(new Set(colours).size).toBe(3);
      expect(colours[2]).not.toBe("rgb(31, 35, 40)");
      expect(styles[2]!.border).toBe("dashed");
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("keeps hostile text as text: nothing runs, nothing is fetched", async () => {
    const input = demoLikeRun();
    input.title = `<img src="http://127.0.0.1:9/x.png" onerror="console.error('ran')">`;
    input.steps[0]!.task = `<script>console.error("ran")</script>`;
    const { page, problems, requests } = await open(renderHtmlReport(input), "hostile.html");
    try {
      expect(await page.locator("h1").textContent()).toBe(input.title);
      expect(await page.locator(".task").textContent()).toContain(input.steps[0]!.task);
      expect(await page.locator("img").count()).toBe(0);
      expect(await page.locator("body script").count()).toBe(0);
      expect(problems).toEqual([]);
      expect(requests).toHaveLength(1);
    } finally {
      await page.close();
    }
  }, 120_000);
});
