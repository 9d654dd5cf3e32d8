/**
 * `rt.continue()` runs a step as it was started (issue 22, item 1), through the library: a Runtime in a
 * later process knows nothing of the first one's options, and the recorded settings decide. An option
 * named explicitly on the continuing Runtime overrides one and is a `setting-override` event.
 */
import { expect, it } from "vitest";
import { HandoffPolicy, coordinator, subagent, type Runtime } from "../../src/index.js";
import type { FlowerEvent } from "../../src/runtime/events.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { rig, type Rig } from "./runtime-helpers.js";

const SONNET = "claude-sonnet-4-5-20250929";
const HAIKU = "claude-haiku-4-5";

let r: Rig | undefined;

const lead = () =>
  coordinator(
    "lead",
    "Goal: read the notes.",
    { analyst: subagent("Reads files.", "Read what you are asked.", { tools: ["Read"] }) },
    { glance: false },
  );

const READ = toolUse("Read", { file_path: "README" });
const HANDOFF = handoffMarkdown({ doing: "GEN-1: reading.", next: ["Say it is finished."] });

it("rt.continue() with no options keeps the started model, handoff line, budget and language; a given option overrides", async () => {
  const first: { rt?: Runtime } = {};
  let mainTurns = 0;
  r = await rig({
    policy: (request: ModelRequest) => {
      if (request.isHandoffTurn) return text(HANDOFF);
      if (request.firstUserText().includes("GEN-1")) return text("读完了。");
      // Past the line (40K) and past window − inflightMargin (65K): the switch cuts the Read at once.
      if (request.lastUserText().includes("继续。")) return { ...READ, outputTokens: 60_000 };
      if (request.kind === "main" && ++mainTurns === 2) first.rt?.stop();
      return mainTurns > 3 ? text("读完了。") : READ;
    },
  });
  first.rt = r.runtime({
    locale: "zh",
    model: SONNET,
    handoff: new HandoffPolicy({ window: 90_000 }),
    maxBudgetUsd: 5,
  });
  const stopped = await first.rt.run("notes", lead(), "Read the notes.");
  expect(stopped.status).toBe("stopped");
  first.rt.close();

  // Another process: no model, no window, no budget, no language named (the rig's default is en).
  const from = r.model.requests.length;
  const events: FlowerEvent[] = [];
  const later = r.runtime({ locale: undefined, onEvent: (event) => events.push(event) });
  expect(later.settingsOf("notes")).toMatchObject({ model: SONNET, maxBudgetUsd: 5, locale: "zh" });
  const done = await later.continue("notes", lead());
  expect(done.status).toBe("done");
  const requests = r.model.requests.slice(from).filter((request) => request.kind === "main");
  expect(new Set(requests.map((request) => request.model))).toEqual(new Set([SONNET]));
  expect(requests[0]!.lastUserText()).toContain("继续。");
  expect(requests.some((request) => request.isHandoffTurn)).toBe(true);
  expect(done.generations).toBe(2);
  const record = later.records.get("notes")!;
  expect(record.policy).toMatchObject({ window: 90_000, at: 40_000 });
  expect(record.history[0]!.context).toBeGreaterThanOrEqual(40_000);
  expect(events.filter((event) => event.type === "setting-override")).toEqual([]);
  later.close();

  // Named explicitly, the model overrides: an event, and the requests follow it.
  const overridden: FlowerEvent[] = [];
  const third = r.runtime({ locale: undefined, model: HAIKU, onEvent: (event) => overridden.push(event) });
  const fromThird = r.model.requests.length;
  await third.continue("notes", lead(), { prompt: "Say it is finished." });
  expect(overridden.filter((event) => event.type === "setting-override")).toEqual([
    { type: "setting-override", step: "notes", setting: "model", recorded: SONNET, now: HAIKU, by: "model" },
  ]);
  const thirdRequests = r.model.requests.slice(fromThird).filter((request) => request.kind === "main");
  expect(thirdRequests.length).toBeGreaterThan(0);
  expect(new Set(thirdRequests.map((request) => request.model))).toEqual(new Set([HAIKU]));
  expect(third.settingsOf("notes")?.model).toBe(HAIKU);
}, 120_000);
