/**
 * `Runtime.requestHandoff` (what `flower handoff` does, from code) through the runtime's seam: asked
 * while the step runs, the driver hands off at its next boundary with the words first in `next`; an
 * unknown step and a step nobody drives are answered as such, and nothing is left for a later driver.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { Runtime, type HandoffAsked } from "../../../src/index.js";
import { init, response, result, scriptedQuery } from "../../support/scripted-query.js";
import { HANDOFF_ANSWER } from "../../support/step-harness.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("asks the live driver, which hands off at its next boundary with the person's words first", async () => {
  const root = mkdtempSync(join(tmpdir(), "flower-request-"));
  dirs.push(root);
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  let asked: HandoffAsked | undefined;
  let rt: Runtime | undefined = undefined;
  const scripted = scriptedQuery([
    async () => {
      // The step holds its lease now: the request is addressed to it.
      asked = await rt!.requestHandoff("seam", { next: "Start with data/b", by: "bob@box" });
      return [
        init("s1"),
        ...response("s1", 7_000, "tool_use"),
        ...response("s1", 8_000, "tool_use"),
        ...response("s1", 9_000),
        result("s1", { text: "never" }),
      ];
    },
    () => [init("s1"), result("s1", { text: HANDOFF_ANSWER })],
    () => [init("s2"), ...response("s2", 5_000), result("s2", { text: "ok" })],
  ]);
  rt = new Runtime({
    workspace,
    runDir: join(root, "runs"),
    workbench: true,
    locale: "en",
    _internal: { query: scripted.query },
  });
  try {
    expect(await rt.requestHandoff("seam")).toEqual({ kind: "unknown", known: [] });
    const step = await rt.run("seam", { name: "lead", instructions: "", tools: ["Bash"] }, "Count.");
    expect(asked).toMatchObject({ kind: "asked", holder: { pid: process.pid } });
    expect(step.generations).toBe(2);
    expect(scripted.calls[2]!.prompt).toContain("- From bob@box via flower handoff: Start with data/b");
    expect(rt.records.get("seam")?.handoffRequests).toMatchObject([
      { by: "bob@box", next: "Start with data/b" },
    ]);
    expect(await rt.requestHandoff("seam")).toEqual({ kind: "no-driver", status: "done" });
    scripted.assertComplete();
  } finally {
    rt.close();
  }
});
