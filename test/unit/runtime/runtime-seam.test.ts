/** The runtime's `_internal` seam: a whole step through Runtime with a scripted query() and a fixed clock. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { coordinator, Runtime, subagent } from "../../../src/index.js";
import { init, response, result, scriptedQuery } from "../../support/scripted-query.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("runs a step through Runtime without the binary, with the clock it is given", async () => {
  const root = mkdtempSync(join(tmpdir(), "flower-seam-"));
  dirs.push(root);
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  const scripted = scriptedQuery([
    () => [init("s1"), ...response("s1", 7_000), result("s1", { text: "ok" })],
  ]);
  const rt = new Runtime({
    workspace,
    runDir: join(root, "runs"),
    workbench: true,
    locale: "en",
    _internal: { query: scripted.query, now: () => new Date("2026-01-02T03:04:05.000Z") },
  });
  try {
    const lead = coordinator("lead", "Goal: answer.", { analyst: subagent("Analyses.", "Use the shell.") });
    const step = await rt.run("seam", lead, "Answer.");
    expect(step).toMatchObject({ result: "ok", sessionId: "s1", generations: 1 });
    // The session got the real options the runtime builds: the preset prompt with the workbench block.
    const options = scripted.calls[0]!.options!;
    expect(options.cwd).toBe(workspace);
    expect(JSON.stringify(options.systemPrompt)).toContain(".flower");
    const manifest = JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8"));
    expect(manifest.steps.seam).toMatchObject({ status: "done", startedAt: "2026-01-02T03:04:05.000Z" });
    scripted.assertComplete();
  } finally {
    rt.close();
  }
});

it("turns the CLI's auto-compact off only with handoff on: with handoff off the session compacts as it would", async () => {
  const root = mkdtempSync(join(tmpdir(), "flower-seam-"));
  dirs.push(root);
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  const envOf = async (handoff: boolean) => {
    const scripted = scriptedQuery([() => [init("s1"), ...response("s1", 7_000), result("s1")]]);
    const rt = new Runtime({
      workspace,
      runDir: join(root, `runs-${handoff}`),
      locale: "en",
      env: {},
      handoff,
      _internal: { query: scripted.query },
    });
    try {
      await rt.run("probe", { name: "probe", instructions: "", tools: ["Bash"] }, "Probe.");
      return scripted.calls[0]!.options!.env!;
    } finally {
      rt.close();
    }
  };
  expect((await envOf(false)).DISABLE_AUTO_COMPACT).toBeUndefined();
  expect((await envOf(true)).DISABLE_AUTO_COMPACT).toBe("1");
});
