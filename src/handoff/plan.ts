/**
 * The coordinator's plan across a handoff. The coordinator keeps its plan in TodoWrite (COORDINATOR_RULES
 * tell it to; build-options.ts turns the tool on), whose input is the whole list every time. A
 * new session starts with an empty todo list: a plan kept only in the burned session is exactly what a
 * handoff loses. So flower keeps the latest TodoWrite input of the main thread (session-translator.ts,
 * in the step record) and appends it to `next` of the handoff — written or degraded — where the
 * successor reads it and a person editing the frozen file sees it.
 */
import type { Locale } from "../locale/locale.js";
import { Handoff } from "./handoff-document.js";

export type PlanStatus = "pending" | "in_progress" | "completed";

/** One item of the plan, as TodoWrite takes it (`activeForm` left out: it says the same thing). */
export interface PlanItem {
  content: string;
  status: PlanStatus;
}

const STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed"]);

/** Longest item kept: a plan line, not a document. */
const ITEM_CHARS = 300;
/** Most items kept: a runaway list must not fill the successor's prompt. */
const MAX_ITEMS = 50;

/**
 * The plan in a TodoWrite call's input, or null when the input is not a plan (the model's call is
 * refused by the tool then, and the last good plan stays). An empty list is a plan: everything is done.
 */
export function planFromTodoWrite(input: Record<string, unknown>): PlanItem[] | null {
  const todos = input.todos;
  if (!Array.isArray(todos)) return null;
  const plan: PlanItem[] = [];
  for (const todo of todos.slice(0, MAX_ITEMS)) {
    if (typeof todo !== "object" || todo === null) return null;
    const { content, status } = todo as { content?: unknown; status?: unknown };
    if (typeof content !== "string" || typeof status !== "string" || !STATUSES.has(status)) return null;
    const line = content.replace(/\s+/g, " ").trim();
    if (line === "") continue;
    const points = Array.from(line);
    plan.push({
      content: points.length > ITEM_CHARS ? `${points.slice(0, ITEM_CHARS).join("")}...` : line,
      status: status as PlanStatus,
    });
  }
  return plan;
}

const TEXT: Record<Locale, { heading: string; mark: Record<PlanStatus, string> }> = {
  en: {
    heading: "Plan at the handoff (TodoWrite; restore it with TodoWrite and go on from the first open item):",
    mark: { completed: "[x]", in_progress: "[~] (in progress)", pending: "[ ]" },
  },
  zh: {
    heading: "交接时的计划(TodoWrite;用 TodoWrite 恢复它,从第一个未完成的项接着做):",
    mark: { completed: "[x]", in_progress: "[~](进行中)", pending: "[ ]" },
  },
};

/** The plan as lines for `next`: a heading, then `- [x] item` per item; [] for no plan or an empty one. */
export function planLines(plan: readonly PlanItem[] | null | undefined, locale: Locale): string[] {
  if (!plan || plan.length === 0) return [];
  const text = TEXT[locale];
  return [text.heading, ...plan.map((item) => `- ${text.mark[item.status]} ${item.content}`)];
}

/**
 * The handoff with the plan appended to `next`. Not added twice when the heading is already there (a
 * model that copied it, or a file written before); the handoff itself when there is no plan.
 */
export function withPlan(
  handoff: Handoff,
  plan: readonly PlanItem[] | null | undefined,
  locale: Locale,
): Handoff {
  const lines = planLines(plan, locale);
  if (lines.length === 0 || handoff.next.includes(lines[0]!)) return handoff;
  const block = lines.join("\n");
  const next = handoff.next ? `${handoff.next}\n\n${block}` : block;
  return new Handoff({ ...handoff.sections(), step: handoff.step, notes: handoff.notes, next });
}
