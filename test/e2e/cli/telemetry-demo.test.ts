/**
 * Issue 27, done-when: `flower demo` (the real binary and the offline kit, the default workflow with its
 * pause, two handoffs and a guard round) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP
 * receiver on 127.0.0.1 that decodes what the real exporters send (test/support/otlp-receiver.ts); the
 * demo is the test run's shared one (test/support/shared-demo.ts), recorded with the receiver on. The
 * trace is read as a person would in Tempo or Honeycomb: its shape, the handoffs between the
 * generations, the tokens against the record, and no credential anywhere. Then the trace is drawn as a
 * waterfall in headless Chromium; FLOWER_TELEMETRY_SCREENSHOT=<file.png> saves it
 * (scripts/telemetry-screenshot.sh writes docs/telemetry-trace.png this way).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "../../support/chromium.js";
import type { ReceivedSpan } from "../../support/otlp-receiver.js";
import {
  sharedDemo,
  SHARED_DEMO_PLANTED_SECRET,
  SHARED_DEMO_WAIT_MS,
  type SharedDemo,
} from "../../support/shared-demo.js";
import { waterfallHtml } from "../../support/trace-waterfall.js";
import { useTempDirs } from "../../support/temp-dir.js";
import type { Finished } from "./helpers.js";
import { noSecretOf } from "./secrets.js";

const temp = useTempDirs();
/** The kit's key, which the `claude` child is given. */
const KIT_KEY = "sk-fake-offline-kit";

interface GenerationRow {
  generation: number;
  costUsd: number;
  turns: Array<[number, number, number]>;
}
interface WorkRecord {
  costUsd: number;
  generations: number;
  retired: string[];
  history: GenerationRow[];
}

// The run's shared demo (test/support/shared-demo-global-setup.ts) is recorded as this file needs it:
// the endpoint at an OTLP receiver, SHARED_DEMO_PLANTED_SECRET in its environment. demo.test.ts and
// serve-browser.test.ts read the same run; a demo costs eight real `claude` sessions.
let received: SharedDemo;
let demo: Finished;
let record: WorkRecord;
let flower: ReceivedSpan[];

beforeAll(async () => {
  received = await sharedDemo();
  demo = received.finished;
  const manifest = JSON.parse(readFileSync(join(received.runDir, "manifest.json"), "utf8"));
  record = manifest.steps["demo/work"] as WorkRecord;
  flower = received.spans.filter((span) => span.resource["service.name"] === "flower");
}, SHARED_DEMO_WAIT_MS + 30_000);

const named = (prefix: string) => flower.filter((span) => span.name.startsWith(prefix));
const byId = () => new Map(flower.map((span) => [span.spanId, span]));
const parentOf = (span: ReceivedSpan) => (span.parentSpanId ? byId().get(span.parentSpanId) : undefined);
const ancestors = (span: ReceivedSpan) => {
  const chain: ReceivedSpan[] = [];
  for (let at = parentOf(span); at; at = parentOf(at)) chain.push(at);
  return chain;
};
const workSpan = () => named("step work")[0]!;
const generationsOfWork = () =>
  named("generation ")
    .filter((span) => parentOf(span) === workSpan())
    .sort((a, b) => Number(a.attributes["flower.generation"]) - Number(b.attributes["flower.generation"]));

describe("flower demo with OTEL_EXPORTER_OTLP_ENDPOINT set", () => {
  it("runs as without telemetry: exit 0, and flower's spans reached the receiver", () => {
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stderr).toBe("");
    expect(flower.length).toBeGreaterThan(20);
  });

  it("is one trace: run → step → generation → turn, the resumed half under the same root", () => {
    expect(new Set(flower.map((span) => span.traceId)).size).toBe(1);
    const roots = flower.filter((span) => span.parentSpanId === null);
    expect(roots.map((span) => span.name)).toEqual(["run demo"]);
    // The pause ended the first process; the second took the run up under the same root.
    const continued = named("run demo (continued)");
    expect(continued).toHaveLength(1);
    expect(parentOf(continued[0]!)).toBe(roots[0]);
    const steps = named("step ");
    expect(steps.map((span) => span.name).sort()).toEqual(["step goal", "step requirements", "step work"]);
    for (const step of steps) expect(parentOf(step)!.name).toMatch(/^run demo/);
    for (const generation of named("generation ")) expect(parentOf(generation)!.name).toMatch(/^step /);
    const turns = named("turn ");
    expect(turns.length).toBeGreaterThan(10);
    for (const turn of turns) {
      const chain = ancestors(turn).map((span) => span.name);
      expect(chain.find((name) => !name.startsWith("guard round"))).toMatch(/^generation /);
      expect(chain.at(-1)).toBe("run demo");
    }
  });

  it("has the handoffs between the generations, and each subagent under the turn that sent it", () => {
    const generations = generationsOfWork();
    expect(generations).toHaveLength(record.generations);
    const handoffs = named("handoff ").sort((a, b) => a.startMs - b.startMs);
    expect(handoffs.map((span) => span.name)).toEqual(["handoff 1→2", "handoff 2→3"]);
    expect(handoffs).toHaveLength(record.retired.length);
    for (const [index, handoff] of handoffs.entries()) {
      expect(parentOf(handoff)).toBe(workSpan());
      expect(handoff.attributes["flower.handoff.degraded"]).toBe(false);
      expect(handoff.startMs).toBeGreaterThanOrEqual(generations[index]!.endMs - 1);
      expect(handoff.endMs).toBeLessThanOrEqual(generations[index + 1]!.startMs + 1);
    }
    const workers = named("worker ");
    expect(workers.length).toBeGreaterThan(0);
    for (const worker of workers) expect(parentOf(worker)!.name).toMatch(/^turn /);
    const guard = named("guard round ");
    expect(guard.map((span) => span.attributes["flower.guard.outcome"])).toEqual(["passed"]);
    expect(
      named("goal check ").every((span) => typeof span.attributes["flower.goal.check"] === "string"),
    ).toBe(true);
  });

  it("has token attributes that add up to the record: per turn, per generation, and the cost", () => {
    const generations = generationsOfWork();
    for (const [index, generation] of generations.entries()) {
      const answered = flower
        .filter((span) => span.name.startsWith("turn ") && ancestors(span).includes(generation))
        .filter((span) => span.attributes["flower.context.tokens"] !== undefined)
        .sort((a, b) => a.endMs - b.endMs);
      const row = record.history[index]!;
      // The record's series is one [context, spills, denials] per main-thread turn.
      expect(answered.map((span) => span.attributes["flower.context.tokens"])).toEqual(
        row.turns.map(([context]) => context),
      );
      for (const turn of answered) {
        const a = turn.attributes as Record<string, number>;
        const parts =
          a["gen_ai.usage.input_tokens"]! +
          a["gen_ai.usage.cache_read.input_tokens"]! +
          a["gen_ai.usage.cache_creation.input_tokens"]! +
          a["gen_ai.usage.output_tokens"]!;
        expect(parts).toBe(a["flower.context.tokens"]);
      }
      expect(generation.attributes["flower.turns"]).toBe(row.turns.length);
      expect(generation.attributes["flower.cost.usd"]).toBeCloseTo(row.costUsd, 9);
    }
    expect(workSpan().attributes["flower.cost.usd"]).toBeCloseTo(record.costUsd, 9);
    const generationCost = generations.reduce(
      (sum, span) => sum + Number(span.attributes["flower.cost.usd"]),
      0,
    );
    expect(generationCost).toBeCloseTo(record.costUsd, 9);
    expect(workSpan().attributes["gen_ai.system"]).toBe("anthropic");
    expect(workSpan().status.code).toBe(1);
  });

  it("puts spills and denials on the turns as events, and counts them as metrics", () => {
    const events = flower.flatMap((span) => span.events.map((event) => event.name));
    expect(events).toEqual(expect.arrayContaining(["spill", "tool-denied", "handoff-near"]));
    const total = (name: string) =>
      Math.max(
        0,
        ...received.metrics
          .filter((metric) => metric.name === name)
          .map((metric) =>
            metric.points
              .filter((point) => point.attributes["flower.step"] === "demo/work")
              .reduce((sum, point) => sum + point.value, 0),
          ),
      );
    expect(total("flower.handoffs")).toBe(2);
    expect(total("flower.spills")).toBeGreaterThan(0);
    expect(total("flower.denials")).toBeGreaterThan(0);
    expect(total("flower.guard.rounds")).toBe(1);
    expect(total("flower.cost")).toBeCloseTo(record.costUsd, 9);
  });

  it("ties the binary's own metrics and logs to the run, step and generation", () => {
    const claude = received.requests.filter((request) =>
      JSON.stringify(request.json).includes('"claude-code"'),
    );
    expect(claude.length).toBeGreaterThan(0);
    const work = received.metrics.filter(
      (metric) =>
        metric.resource["service.name"] === "claude-code" && metric.resource["flower.step"] === "demo/work",
    );
    expect(new Set(work.map((metric) => metric.resource["flower.generation"]))).toEqual(
      new Set(["1", "2", "3"]),
    );
    expect(work.every((metric) => metric.resource["flower.run"] === "demo")).toBe(true);
  });

  it("exports no prompt or tool output (FLOWER_OTEL_CONTENT unset) and no credential anywhere", () => {
    const attributes = flower.flatMap((span) => [
      ...Object.keys(span.attributes),
      ...span.events.flatMap((event) => Object.keys(event.attributes)),
    ]);
    expect(attributes.filter((key) => key === "flower.content" || key === "flower.prompt")).toEqual([]);
    const expectNoSecret = noSecretOf([SHARED_DEMO_PLANTED_SECRET, KIT_KEY]);
    for (const [index, request] of received.requests.entries())
      expectNoSecret(`request ${index} to ${request.path}`, JSON.stringify(request.json));
  });

  it("draws as a waterfall: a row per span, each handoff's bar between its two generations' bars", async () => {
    const page = join(temp.make("flower-waterfall-"), "trace.html");
    writeFileSync(
      page,
      waterfallHtml(flower, "flower demo — one run's trace (run → step → generation → turn)"),
    );
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
      headless: true,
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await tab.goto(`file://${page}`, { waitUntil: "load" });
      expect(await tab.locator(".row").count()).toBe(flower.length);
      // The work step's (the last in tree order: every step has a generation 1).
      const box = async (name: string) =>
        (await tab.locator(`.row[data-span="${name}"] .bar`).last().boundingBox())!;
      const [first, handoff, second] = [
        await box("generation 1"),
        await box("handoff 1→2"),
        await box("generation 2"),
      ];
      expect(handoff.x).toBeGreaterThanOrEqual(first.x + first.width - 1);
      expect(second.x).toBeGreaterThanOrEqual(handoff.x + handoff.width - 1);
      const file = process.env.FLOWER_TELEMETRY_SCREENSHOT;
      if (file) await tab.screenshot({ path: file, fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
