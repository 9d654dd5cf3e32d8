/**
 * The README's and docs/' code blocks, run as they are written: only the package names are pointed at
 * this checkout, and the environment at the offline model kit. A complete example (a block with an
 * import) that no test here runs fails the suite, so a new one cannot be added untested.
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeModel, text, toolUse, type FakeModel } from "../../src/testing/index.js";
import { goalAnswer, requirementsAnswer } from "../e2e/cli/workflow-answers.js";
import { runNode } from "../support/run-node.js";
import { useTempDirs } from "../support/temp-dir.js";

const root = resolve(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const docs = readdirSync(join(root, "docs"))
  .filter((name) => name.endsWith(".md"))
  .sort()
  .map((name) => ({ file: `docs/${name}`, text: readFileSync(join(root, "docs", name), "utf8") }));
const pages = [{ file: "README.md", text: readme }, ...docs];
const blocks = pages.flatMap((page) =>
  [...page.text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => ({ file: page.file, code: match[1]! })),
);

/** The complete examples and the marker each test finds its block by. */
const RUN_HERE = ['rt.run("survey"', "startFakeModel", "defineWorkflow(", "defaultWorkflow({"];

function example(marker: string): string {
  const found = blocks.filter((block) => block.code.includes(marker));
  expect(found, `exactly one example contains ${marker}`).toHaveLength(1);
  return found[0]!.code;
}

function runnable(code: string): string {
  const sdk = createRequire(join(root, "package.json")).resolve("@anthropic-ai/claude-agent-sdk");
  return code
    .replaceAll(
      '"flower-agent/testing"',
      JSON.stringify(pathToFileURL(join(root, "dist/testing/index.js")).href),
    )
    .replaceAll('"flower-agent"', JSON.stringify(pathToFileURL(join(root, "dist/index.js")).href))
    .replaceAll('"@anthropic-ai/claude-agent-sdk"', JSON.stringify(pathToFileURL(sdk).href));
}

const temp = useTempDirs();
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
});

describe("README and docs examples", () => {
  it("links every docs page from the README, and every link from the README resolves", () => {
    for (const page of docs) expect(readme).toContain(`](${page.file})`);
    for (const page of pages) {
      const base = page.file === "README.md" ? root : join(root, "docs");
      for (const match of page.text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        expect(existsSync(join(base, target)), `${page.file} links to ${target}`).toBe(true);
      }
    }
  });

  it("runs every complete example (a block with an import) somewhere in this file", () => {
    const complete = blocks.filter((block) => /^import /m.test(block.code));
    for (const block of complete)
      expect(
        RUN_HERE.some((marker) => block.code.includes(marker)),
        `${block.file}: an example no test runs:\n${block.code.slice(0, 200)}`,
      ).toBe(true);
    expect(complete).toHaveLength(RUN_HERE.length);
  });

  it("has the two front-door commands near the top", () => {
    const top = readme.split("\n").slice(0, 15).join("\n");
    expect(top).toContain("npm ci && npx flower demo");
    expect(top).toContain("npm ci && npm test");
    expect(readFileSync(join(root, ".ci/run"), "utf8")).toContain("npm ci && npm test");
  });

  it("'Use it from code' runs and delegates through the real binary", async () => {
    const code = example(RUN_HERE[0]!);
    model = await startFakeModel({
      policy: (request) => {
        if (request.isSubagent) return text("data/ holds 3 files, 42 lines.");
        return request.countToolResults("Agent") === 0
          ? toolUse("Agent", { description: "count", prompt: "Count data/.", subagent_type: "analyst" })
          : text("3 files, 42 lines");
      },
    });
    const dir = temp.make("flower-readme-");
    writeFileSync(join(dir, "example.mjs"), runnable(code));
    const run = await runNode(["example.mjs"], { cwd: dir, env: { ...process.env, ...model.env() } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain("step-start");
    expect(out).toContain("3 files, 42 lines 1");
    expect(model.exchanges.some((e) => e.kind === "subagent")).toBe(true);
  });

  it("the testing-kit example runs as written", async () => {
    const dir = temp.make("flower-readme-");
    writeFileSync(join(dir, "kit.mjs"), runnable(example(RUN_HERE[1]!)));
    const run = await runNode(["kit.mjs"], { cwd: dir });
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain("success");
    expect(out).toMatch(/^2 \{/m);
  });

  it("the workflow example in docs/workflows.md pauses, continues and builds", async () => {
    model = await startFakeModel({
      policy: (request) => {
        if (request.documentKind === "requirements") return text(requirementsAnswer());
        if (request.documentKind === "design")
          return text("## Approach\nA CSV writer beside the report.\n\n## Risks\n- Commas in names.");
        return text("Built the CSV export.");
      },
    });
    const dir = temp.make("flower-readme-");
    writeFileSync(join(dir, "workflow.mjs"), runnable(example(RUN_HERE[2]!)));
    const run = await runNode(["workflow.mjs"], {
      cwd: dir,
      env: { ...process.env, ...model.env() },
      timeoutMs: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("requirements-csv-export.md");
    expect(run.stdout).toMatch(/^done /m);
    expect(existsSync(join(dir, ".flower/notes/design-csv-export.md"))).toBe(true);
  }, 150_000);

  it("the default-workflow example in docs/library.md runs flower's workflow with its team and the added worker", async () => {
    model = await startFakeModel({
      policy: (request) => {
        if (request.documentKind === "requirements") return text(requirementsAnswer());
        if (request.documentKind === "goal") return text(goalAnswer(request));
        return text("Added the CSV export; `true` exits 0.");
      },
    });
    const dir = temp.make("flower-readme-");
    writeFileSync(join(dir, "default.mjs"), runnable(example(RUN_HERE[3]!)));
    const run = await runNode(["default.mjs"], {
      cwd: dir,
      env: { ...process.env, ...model.env() },
      timeoutMs: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("done requirements → goal → work");
    // The work step's coordinator was offered flower's two workers and the one the example added.
    const work = model.requests.find((request) => request.isMainThread && request.documentKind === undefined);
    const offered = JSON.stringify(work?.body);
    for (const name of ["engineer", "analyst", "writer"]) expect(offered).toContain(name);
    expect(offered).toContain("Writer: brings README and docs/ in line with a change.");
  }, 150_000);
});
