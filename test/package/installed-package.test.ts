/**
 * The package as a user gets it: installed from a local path into a scratch project, imported by its
 * public names (`flower-agent`, `flower-agent/testing`), and used to run one offline step.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../support/temp-dir.js";

const root = resolve(import.meta.dirname, "../..");
const scratch = useTempDirs().make("flower-scratch-");

describe("flower-agent installed into a scratch project", () => {
  it("imports both entry points and runs a step against the offline kit", () => {
    writeFileSync(
      join(scratch, "package.json"),
      JSON.stringify({ name: "scratch", private: true, type: "module" }),
    );
    execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", root], {
      cwd: scratch,
      stdio: "pipe",
    });
    writeFileSync(
      join(scratch, "use.mjs"),
      `
import { Runtime, coordinator, worker, HandoffPolicy } from "flower-agent";
import { startFakeModel, text } from "flower-agent/testing";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
const model = await startFakeModel({ policy: () => text("installed and working") });
// Inside the scratch project, so it goes when the test's temporary directory does.
const workspace = join(process.cwd(), "ws");
mkdirSync(workspace);
const rt = new Runtime({ workspace, runDir: join(workspace, "runs"), env: model.env(), handoff: new HandoffPolicy({ window: 200_000 }) });
const lead = coordinator("lead", "Say it.", { helper: worker("Helps.", "Help.") });
const result = await rt.run("hello", lead, "Say the words.");
rt.close();
await model.close();
console.log(JSON.stringify({ result: result.result, requests: model.requests.length }));
`,
    );
    const out = execFileSync(process.execPath, ["use.mjs"], {
      cwd: scratch,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(JSON.parse(out.trim())).toEqual({ result: "installed and working", requests: 1 });
  });

  it("exports exactly the documented surface", async () => {
    const main = await import(join(root, "dist/index.js"));
    const testing = await import(join(root, "dist/testing/index.js"));
    expect(Object.keys(main).sort()).toMatchSnapshot();
    expect(Object.keys(testing).sort()).toMatchSnapshot();
  });
});
