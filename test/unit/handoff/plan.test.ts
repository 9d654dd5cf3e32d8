/**
 * The plan across a handoff (handoff/plan.ts), the rule that lets calls in flight finish
 * (handoff/trigger.ts `letCallsFinish`), and the session options that carry both: the plan tool's
 * variables for the child, and the eager flush on a shared store.
 */
import { describe, expect, it } from "vitest";
import { buildOptions } from "../../../src/agents/build-options.js";
import { coordinator } from "../../../src/agents/coordinator.js";
import { subagent } from "../../../src/agents/subagent.js";
import { DEFAULTS } from "../../../src/defaults.js";
import { Handoff } from "../../../src/handoff/handoff-document.js";
import { planFromTodoWrite, planLines, withPlan } from "../../../src/handoff/plan.js";
import { letCallsFinish } from "../../../src/handoff/trigger.js";

const todo = (content: unknown, status: unknown) => ({ content, status, activeForm: "x" });

describe("planFromTodoWrite", () => {
  it("keeps content and status of each item, one line each", () => {
    expect(
      planFromTodoWrite({ todos: [todo("Read\n  the  notes", "completed"), todo("Sum", "pending")] }),
    ).toEqual([
      { content: "Read the notes", status: "completed" },
      { content: "Sum", status: "pending" },
    ]);
    expect(planFromTodoWrite({ todos: [] })).toEqual([]);
  });

  it("refuses an input that is not a plan, so the last good plan stays", () => {
    expect(planFromTodoWrite({})).toBeNull();
    expect(planFromTodoWrite({ todos: "x" })).toBeNull();
    expect(planFromTodoWrite({ todos: [todo("a", "doing")] })).toBeNull();
    expect(planFromTodoWrite({ todos: [todo(3, "pending")] })).toBeNull();
  });

  it("cuts a runaway item and a runaway list", () => {
    const [item] = planFromTodoWrite({ todos: [todo("é".repeat(400), "pending")] })!;
    expect(Array.from(item!.content)).toHaveLength(303);
    expect(
      planFromTodoWrite({ todos: Array.from({ length: 80 }, (_, i) => todo(`t${i}`, "pending")) }),
    ).toHaveLength(50);
  });
});

describe("withPlan", () => {
  const handoff = new Handoff({ step: "s", doing: "d", next: "Do X." });
  const plan = [
    { content: "A", status: "completed" as const },
    { content: "B", status: "in_progress" as const },
  ];

  it("appends the plan to next, once, in the locale's words", () => {
    const en = withPlan(handoff, plan, "en");
    expect(en.next).toBe(`Do X.\n\n${planLines(plan, "en").join("\n")}`);
    expect(en.next).toContain("- [~] (in progress) B");
    expect(withPlan(en, plan, "en").next).toBe(en.next);
    expect(withPlan(handoff, plan, "zh").next).toContain("交接时的计划");
  });

  it("leaves the handoff alone without a plan", () => {
    expect(withPlan(handoff, null, "en")).toBe(handoff);
    expect(withPlan(handoff, [], "en")).toBe(handoff);
  });
});

describe("letCallsFinish", () => {
  const window = 200_000;
  const margin = DEFAULTS.inflightMargin;

  it("waits for open calls while the context is below window − margin", () => {
    expect(letCallsFinish({ openCalls: 1, context: window - margin - 1, window, margin })).toBe(true);
    expect(letCallsFinish({ openCalls: 1, context: window - margin, window, margin })).toBe(false);
    expect(letCallsFinish({ openCalls: 0, context: 10, window, margin })).toBe(false);
  });

  it("never waits when the headroom is no larger than the margin", () => {
    const at = window - margin;
    expect(letCallsFinish({ openCalls: 3, context: at, window, margin })).toBe(false);
  });
});

describe("session options for the plan tool", () => {
  const context = { workspace: "/tmp/ws", locale: "en" as const, handoffEnabled: true };
  const lead = coordinator("lead", "g", { a: subagent("A.", "Do.", { tools: ["Read"] }) });

  it("turns TodoWrite on for the child, unless the runtime's env says otherwise", () => {
    const env = buildOptions(lead, context).env!;
    expect(env.CLAUDE_CODE_ENABLE_TODO_TOOLS).toBe("1");
    expect(env.CLAUDE_CODE_ENABLE_TASKS).toBe("0");
    const own = buildOptions(lead, { ...context, env: { CLAUDE_CODE_ENABLE_TASKS: "1" } }).env!;
    expect(own.CLAUDE_CODE_ENABLE_TASKS).toBe("1");
  });
});
