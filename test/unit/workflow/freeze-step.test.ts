/**
 * A step that declares a document, through Runtime with a scripted query(): the answer is frozen (also
 * without a workbench: the next step reads a file), and a plain `rt.continue()` of a workflow's
 * document step cut off mid-way still ends in its document.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REQUIREMENTS, Runtime, type FlowerEvent } from "../../../src/index.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";
import { init, response, result, scriptedQuery, type ScriptedSession } from "../../support/scripted-query.js";
import { useTempDirs } from "../../support/temp-dir.js";
import { documentAgent } from "../../../src/workflow/document-agent.js";

const temp = useTempDirs();
const ANSWER = "## Task\nAdd a flag.\n## Acceptance\n- `tool --flag` exits 0\n## Open questions\n- none";

let runtime: Runtime | undefined;
afterEach(() => {
  runtime?.close();
  runtime = undefined;
});

function setUp(sessions: ScriptedSession[], workbench: boolean) {
  const root = temp.make("flower-freeze-");
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  const scripted = scriptedQuery(sessions);
  const events: FlowerEvent[] = [];
  runtime = new Runtime({
    workspace,
    runDir: join(root, "runs"),
    workbench,
    locale: "en",
    onEvent: (event) => events.push(event),
    _internal: { query: scripted.query, now: () => new Date("2026-11-30T12:00:00.000Z") },
  });
  return { rt: runtime, workspace, scripted, events };
}

/** Run r1's requirements step as an interrupted driver left it: one open generation of session s0. */
function interruptedRequirements(left: {
  prompt: string;
  status: "stopped" | "running";
  numTurns: number;
  pid?: number;
}): StepRecord {
  return {
    ...newStepRecord("r1/requirements", "requirements", left.prompt),
    status: left.status,
    ...(left.pid === undefined ? {} : { pid: left.pid }),
    sessionId: "s0",
    generations: 1,
    history: [
      {
        generation: 1,
        sessionId: "s0",
        startedAt: "x",
        endedAt: null,
        costUsd: 0,
        numTurns: left.numTurns,
        context: 0,
        handoff: null,
      },
    ],
    run: "r1",
    workflow: { run: "r1", name: "requirements", task: "Add a flag.", document: "requirements" },
  };
}

describe("a step with freeze", () => {
  it("freezes its answer under the step's name, without a workbench too, and emits document-frozen before step-end", async () => {
    const { rt, workspace, events } = setUp(
      [() => [init("s1"), ...response("s1", 5_000), result("s1", { text: ANSWER })]],
      false,
    );
    const step = await rt.run("clarify", documentAgent(REQUIREMENTS, "en"), "Add a flag.", {
      freeze: REQUIREMENTS,
    });
    const path = join(workspace, ".flower", "notes", "requirements-clarify.md");
    expect(step.frozen).toMatchObject({
      kind: "requirements",
      path,
      degraded: false,
      why: null,
      archived: null,
    });
    expect(step.run).toBeUndefined();
    expect(readFileSync(path, "utf8")).toContain("## Acceptance\n- `tool --flag` exits 0");
    const order = events
      .map((event) => event.type)
      .filter((type) => type === "document-frozen" || type === "step-end");
    expect(order).toEqual(["document-frozen", "step-end"]);
  });

  it("a record without freeze keeps the shape it had: no run, no frozen, no workflow", async () => {
    const { rt } = setUp(
      [() => [init("s1"), ...response("s1", 5_000), result("s1", { text: "done" })]],
      true,
    );
    await rt.run("plain", documentAgent(REQUIREMENTS, "en"), "Do it.");
    const record = rt.records.get("plain")!;
    expect("run" in record || "frozen" in record || "workflow" in record).toBe(false);
  });

  it("a plain continue of a cut-off requirements step of a workflow still freezes the requirements", async () => {
    const { rt, workspace, scripted } = setUp(
      [() => [init("s1"), ...response("s1", 5_000), result("s1", { text: ANSWER })]],
      true,
    );
    // The record a killed driver left: running, with a session, part of run r1, a requirements step.
    rt.records.put(interruptedRequirements({ prompt: "Add a flag.", status: "stopped", numTurns: 1 }));
    const step = await rt.continue("r1/requirements", documentAgent(REQUIREMENTS, "en"));
    expect(scripted.calls[0]!.options!.resume).toBe("s0");
    const path = join(workspace, ".flower", "notes", "requirements-r1.md");
    expect(step.frozen).toMatchObject({ kind: "requirements", path, degraded: false });
    expect(existsSync(path)).toBe(true);
    expect(rt.records.get("r1/requirements")).toMatchObject({ run: "r1", status: "done" });
  });
});

describe("continue of a step whose session never reached the store", () => {
  it("starts the session afresh from the step's prompt, in the same generation, and still freezes", async () => {
    const missing = {
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      num_turns: 0,
      total_cost_usd: 0,
      session_id: "s0",
      errors: ["No conversation found with session ID: s0"],
    } as unknown as ReturnType<typeof result>;
    const { rt, scripted } = setUp(
      [
        () => [init("s0"), missing],
        () => [init("s1"), ...response("s1", 5_000), result("s1", { text: ANSWER })],
      ],
      true,
    );
    rt.records.put(
      interruptedRequirements({
        prompt: "THE-STEP-PROMPT",
        status: "running",
        numTurns: 0,
        pid: 999_999_999,
      }),
    );
    const step = await rt.continue("r1/requirements", documentAgent(REQUIREMENTS, "en"));
    expect(scripted.calls[0]!.options!.resume).toBe("s0");
    expect(scripted.calls[1]!.options!.resume).toBeUndefined();
    expect(scripted.calls[1]!.prompt).toBe("THE-STEP-PROMPT");
    expect(step).toMatchObject({ attempts: 0, generations: 1, sessionId: "s1" });
    expect(step.frozen).toMatchObject({ kind: "requirements", degraded: false });
    const record = rt.records.get("r1/requirements")!;
    expect(record.history.map((generation) => generation.sessionId)).toEqual(["s1"]);
    expect(record.errors.join("\n")).toContain("never stored; started afresh");
  });
});
