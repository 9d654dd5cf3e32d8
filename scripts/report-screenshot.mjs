#!/usr/bin/env node
/**
 * Regenerates docs/report.png, the README's picture of a run: plays `flower demo` (the offline model kit
 * against the real `claude` binary, no key), maps what it recorded to the report's input, renders the
 * HTML report and has the system's headless Chromium take a screenshot of it.
 *
 *   npm run build && node scripts/report-screenshot.mjs [out.png] [--html out.html] [--lang zh]
 *                                                        [--save-input run.json | --input run.json]
 *
 * `--input` renders a saved input instead of playing the demo again (for work on the report's looks).
 *
 * Needs Debian's `chromium` (apt-get install -y chromium) or FLOWER_CHROMIUM=/path/to/chromium.
 * Until the run record keeps the per-turn context series, the turns come from the demo's events.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = (path) => pathToFileURL(join(root, "dist", path)).href;
if (!existsSync(join(root, "dist", "index.js"))) {
  console.error("report-screenshot: dist/ is missing; run `npm run build` first.");
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    html: { type: "string" },
    lang: { type: "string", default: "en" },
    input: { type: "string" },
    "save-input": { type: "string" },
  },
});
const locale = values.lang === "zh" ? "zh" : "en";
const out = resolve(positionals[0] ?? join(root, "docs", "report.png"));

const { Runtime } = await import(dist("index.js"));
const { startFakeModel } = await import(dist("testing/index.js"));
const demo = await import(dist("testing/scenarios/demo/index.js"));
const { defaultTeam } = await import(dist("index.js"));
const { renderHtmlReport } = await import(dist("report/html-report.js"));

function chromiumPath() {
  const candidates = [process.env.FLOWER_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) {
    console.error(
      "report-screenshot: Chromium is not installed: apt-get install -y --no-install-recommends chromium",
    );
    process.exit(2);
  }
  return found;
}

/** Plays the demo and returns its report input. */
async function playDemo() {
  const workspace = mkdtempSync(join(tmpdir(), "flower-report-demo-"));
  const runDir = join(workspace, "runs");
  const policy = demo.demoHandoffPolicy();
  const turns = [];
  let pendingSpills = 0;
  let pendingDenials = 0;
  // The binary runs a tool as soon as its block is streamed, before the response ends and the runtime
  // emits that response's context: a denial belongs to the next context event. A spill happens when
  // the tool's output is back (a worker's, while the Agent call runs): it belongs to the last one.
  const attachSpill = () => {
    const turn = turns.at(-1);
    if (turn) turn.spills = (turn.spills ?? 0) + 1;
    else pendingSpills += 1;
  };
  const model = await startFakeModel({
    policy: demo.demoPolicy({ workspace, locale, git: demo.prepareDemoWorkspace(workspace) }),
    contextWindow: demo.DEMO_CONTEXT_WINDOW,
  });
  const rt = new Runtime({
    workspace,
    runDir,
    workbench: true,
    handoff: policy,
    locale,
    env: model.env(),
    onEvent: (event) => {
      if (event.type === "context") {
        turns.push({ generation: event.generation, context: event.context, time: new Date().toISOString() });
        if (pendingSpills) turns.at(-1).spills = pendingSpills;
        if (pendingDenials) turns.at(-1).denials = pendingDenials;
        pendingSpills = pendingDenials = 0;
      } else if (event.type === "spill") attachSpill();
      else if (event.type === "tool-denied") pendingDenials += 1;
    },
  });
  try {
    await rt.run(demo.DEMO_STEP, defaultTeam(locale), demo.demoTask(locale));
    model.assertNoErrors();
    const record = JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")).steps[demo.DEMO_STEP];
    return {
      title: locale === "zh" ? "flower demo(离线演示)" : "flower demo (offline)",
      generatedAt: new Date().toISOString(),
      steps: [
        {
          step: demo.DEMO_STEP,
          task: demo.demoTask(locale),
          status: record.status,
          window: policy.window,
          at: policy.at,
          warnAt: policy.warnAt,
          turns,
          generations: record.history.map((generation) => ({
            generation: generation.generation,
            costUsd: generation.costUsd,
            // The report's turns are main-thread requests, one point each; the record's numTurns
            // counts the SDK's turns, which in the demo is several times more than the points drawn.
            numTurns: turns.filter((turn) => turn.generation === generation.generation).length,
            ...(generation.handoff
              ? {
                  handoff: {
                    degraded: generation.handoff.degraded,
                    ...(generation.handoff.path
                      ? { path: relative(workspace, generation.handoff.path) }
                      : {}),
                  },
                }
              : {}),
          })),
        },
      ],
    };
  } finally {
    rt.close();
    await model.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

const started = Date.now();
const input = values.input ? JSON.parse(readFileSync(resolve(values.input), "utf8")) : await playDemo();
if (values["save-input"]) writeFileSync(resolve(values["save-input"]), `${JSON.stringify(input, null, 2)}\n`);
const html = renderHtmlReport(input, { locale });
const directory = mkdtempSync(join(tmpdir(), "flower-report-shot-"));
const file = join(directory, "report.html");
writeFileSync(file, html);
if (values.html) writeFileSync(resolve(values.html), html);

const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  headless: true,
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 }, deviceScaleFactor: 1 });
  const errors = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  if (errors.length > 0) throw new Error(`the report logged errors: ${errors.join("; ")}`);
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out, fullPage: true });
} finally {
  await browser.close();
  rmSync(directory, { recursive: true, force: true });
}
const step = input.steps[0];
console.log(
  `report-screenshot: ${relative(process.cwd(), out) || out} — ${step.turns.length} turns, ` +
    `${step.generations.length} generations, ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
