/**
 * The README's and docs/' code blocks, run as they are written: only the package names are pointed at
 * this checkout, and the environment at the offline model kit. A complete example (a block with an
 * import) that no test here runs fails the suite, so a new one cannot be added untested; the library
 * and testing-kit examples count as run: test/package/installed-package.test.ts runs them in the
 * installed package (test/support/installed-examples.ts).
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeModel, text, type FakeModel } from "../../src/testing/index.js";
import { goalAnswer, requirementsAnswer } from "../e2e/cli/workflow-answers.js";
import { INSTALLED_EXAMPLES } from "../support/installed-examples.js";
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

/** The complete examples run here and the marker each test finds its block by. */
const RUN_HERE = ["defineWorkflow(", "defaultWorkflow({"];
/** The ones the installed-package test runs. */
const RUN_INSTALLED = Object.values(INSTALLED_EXAMPLES);

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
    .replaceAll(/"flower-agent\/(stores|documents|hooks)"/g, (_, subpath: string) =>
      JSON.stringify(pathToFileURL(join(root, `dist/public/${subpath}.js`)).href),
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

  it("runs every complete example (a block with an import) in this file or in the installed package", () => {
    const complete = blocks.filter((block) => /^import /m.test(block.code));
    const markers = [...RUN_HERE, ...RUN_INSTALLED.map((installed) => installed.marker)];
    for (const block of complete)
      expect(
        markers.some((marker) => block.code.includes(marker)),
        `${block.file}: an example no test runs:\n${block.code.slice(0, 200)}`,
      ).toBe(true);
    expect(complete).toHaveLength(markers.length);
    // The installed-package test finds each of its examples in its file, and there is only that one.
    for (const { file, marker } of RUN_INSTALLED) {
      expect(/^import /m.test(example(marker)), `${marker} is a complete example`).toBe(true);
      expect(blocks.filter((block) => block.code.includes(marker)).map((block) => block.file)).toEqual([
        file,
      ]);
    }
  });

  it("has the two front-door commands near the top", () => {
    const top = readme.split("\n").slice(0, 15).join("\n");
    expect(top).toContain("npm ci && npx flower demo");
    expect(top).toContain("npm ci && npm test");
    expect(readFileSync(join(root, ".ci/run"), "utf8")).toContain("npm ci && npm test");
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
    writeFileSync(join(dir, "workflow.mjs"), runnable(example(RUN_HERE[0]!)));
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

  it("the default-workflow example in docs/library.md runs flower's workflow with its team and the added subagent", async () => {
    model = await startFakeModel({
      policy: (request) => {
        if (request.documentKind === "requirements") return text(requirementsAnswer());
        if (request.documentKind === "goal") return text(goalAnswer(request));
        return text("Added the CSV export; `true` exits 0.");
      },
    });
    const dir = temp.make("flower-readme-");
    writeFileSync(join(dir, "default.mjs"), runnable(example(RUN_HERE[1]!)));
    const run = await runNode(["default.mjs"], {
      cwd: dir,
      env: { ...process.env, ...model.env() },
      timeoutMs: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("done requirements → goal → work");
    // The work step's coordinator was offered flower's two subagents and the one the example added.
    const work = model.requests.find((request) => request.isMainThread && request.documentKind === undefined);
    const offered = JSON.stringify(work?.body);
    for (const name of ["engineer", "analyst", "writer"]) expect(offered).toContain(name);
    expect(offered).toContain("Writer: brings README and docs/ in line with a change.");
  }, 150_000);
});
