/**
 * The README's code blocks, run as they are written: only the package names are pointed at this
 * checkout, and the environment at the offline model kit.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeModel, text, toolUse, type FakeModel } from "../../src/testing/index.js";
import { runNode } from "../support/run-node.js";
import { useTempDirs } from "../support/temp-dir.js";

const root = resolve(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);

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

describe("README examples", () => {
  it("has the two front-door commands near the top", () => {
    const top = readme.split("\n").slice(0, 15).join("\n");
    expect(top).toContain("npm ci && npx flower demo");
    expect(top).toContain("npm ci && npm test");
    expect(readFileSync(join(root, ".ci/run"), "utf8")).toContain("npm ci && npm test");
  });

  it("'Use it from code' runs and delegates through the real binary", async () => {
    const example = blocks.find((block) => block.includes("new Runtime("))!;
    model = await startFakeModel({
      policy: (request) => {
        if (request.isSubagent) return text("data/ holds 3 files, 42 lines.");
        return request.countToolResults("Agent") === 0
          ? toolUse("Agent", { description: "count", prompt: "Count data/.", subagent_type: "analyst" })
          : text("3 files, 42 lines");
      },
    });
    const dir = temp.make("flower-readme-");
    writeFileSync(join(dir, "example.mjs"), runnable(example));
    const run = await runNode(["example.mjs"], { cwd: dir, env: { ...process.env, ...model.env() } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain("step-start");
    expect(out).toContain("3 files, 42 lines 1");
    expect(model.exchanges.some((e) => e.kind === "subagent")).toBe(true);
  });

  it("the testing-kit example runs as written", async () => {
    const example = blocks.find((block) => block.includes("startFakeModel"))!;
    const dir = temp.make("flower-readme-");
    writeFileSync(join(dir, "kit.mjs"), runnable(example));
    const run = await runNode(["kit.mjs"], { cwd: dir });
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain("success");
    expect(out).toMatch(/^2 \{/m);
  });
});
