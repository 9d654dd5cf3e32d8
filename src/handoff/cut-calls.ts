/**
 * Tool calls the handoff switch cut. A handoff starts when a main-thread response that ends in
 * `tool_use` pushes the context over the line: the session is stopped at that message boundary, so the
 * calls in that response (typically an `Agent` call delegating the next piece of work) never run. The
 * successor sees only the handoff, and a model that issued a delegation believes it happened: the
 * delegated step was lost across the handoff (bench/README.md, "a finding for `src/`").
 *
 * So the cut calls are named twice: in the writing turn's prompt (the model can say what to do about
 * them), and — whatever the model writes, degraded or not — as one line per call at the end of `next`
 * in the frozen file, where a person who knows better can delete the line.
 */
import type { Locale } from "../locale/locale.js";
import { Handoff } from "./handoff-document.js";

/** One tool call that was issued in the response that triggered the handoff and did not run. */
export interface CutCall {
  /** The tool's name (`Agent`, `Bash`, `Read`, ...). */
  tool: string;
  /** For `Agent`: the subagent it was addressed to. */
  subagentType?: string;
  /** For `Agent`: its short description. */
  description?: string;
  /** For `Agent`: the beginning of its prompt; for other tools: the one argument that says what it does. */
  summary: string;
}

/** How much of an `Agent` prompt a cut call keeps: enough to recognise the delegation, not to redo it. */
export const CUT_CALL_PROMPT_CHARS = 200;

const TEXT: Record<
  Locale,
  {
    line: (call: string) => string;
    agent: (type: string, description: string) => string;
    /** Between the call and what it does. */
    dash: string;
    prompt: (lines: string) => string;
  }
> = {
  zh: {
    line: (call) => `- 被交接切断(已发出,未执行):${call}`,
    agent: (type, description) => `${type ? `(${type})` : ""}${description ? `「${description}」` : ""}`,
    dash: " —— ",
    prompt: (lines) =>
      `注意:你上一条回复发出了下面这些工具调用,切换到新会话时它们被切断了,没有执行,结果永远不会回来:\n${lines}\n如果工作还需要它们,在"下一步"里写明,让接手的人重新发出。`,
  },
  en: {
    line: (call) => `- Cut by the handoff (issued, did not run): ${call}`,
    agent: (type, description) => `${type ? ` (${type})` : ""}${description ? ` "${description}"` : ""}`,
    dash: " — ",
    prompt: (lines) =>
      `Note: your last response issued these tool calls; the switch to a new session cut them, they did not run, and their results will never come back:\n${lines}\nIf the work still needs them, say so under "Next step", so the successor issues them again.`,
  },
};

/**
 * A cut call as flower keeps it: `Agent` with its subagent, description and the start of its prompt;
 * any other tool with the one-line summary the caller made of its input.
 */
export function cutCall(tool: string, input: Record<string, unknown>, summary: string): CutCall {
  if (tool !== "Agent" && tool !== "Task") return { tool, summary: oneLine(summary) };
  const text = (value: unknown) => (typeof value === "string" ? oneLine(value) : "");
  const subagentType = text(input.subagent_type);
  const description = text(input.description);
  return {
    tool,
    ...(subagentType ? { subagentType } : {}),
    ...(description ? { description } : {}),
    summary: cut(text(input.prompt), CUT_CALL_PROMPT_CHARS),
  };
}

/** One line per call, as it goes into `next`: `- Cut by the handoff (issued, did not run): Agent (reader) "x" — ...`. */
export function cutCallLines(calls: readonly CutCall[], locale: Locale): string[] {
  const text = TEXT[locale];
  return calls.map((call) => {
    const agent =
      call.subagentType || call.description
        ? text.agent(call.subagentType ?? "", call.description ?? "")
        : "";
    const summary = call.summary ? `${text.dash}${call.summary}` : "";
    return text.line(`${call.tool}${agent}${summary}`);
  });
}

/** The writing turn's note naming the cut calls; "" when there are none. */
export function cutCallsNote(calls: readonly CutCall[], locale: Locale): string {
  if (calls.length === 0) return "";
  return TEXT[locale].prompt(cutCallLines(calls, locale).join("\n"));
}

/**
 * The handoff with one line per cut call appended to `next`. A line already there (the model copied it
 * from the prompt) is not added twice; the handoff itself when there is nothing to add.
 */
export function withCutCalls(handoff: Handoff, calls: readonly CutCall[], locale: Locale): Handoff {
  const present = new Set(handoff.next.split("\n").map((line) => line.trim()));
  const lines = cutCallLines(calls, locale).filter((line) => !present.has(line));
  if (lines.length === 0) return handoff;
  const next = handoff.next ? `${handoff.next}\n\n${lines.join("\n")}` : lines.join("\n");
  return new Handoff({ ...handoff.sections(), step: handoff.step, notes: handoff.notes, next });
}

/** One line: a prompt's line breaks and runs of spaces would break the list item apart. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The first `chars` code points (a cut through a surrogate pair would leave a broken character). */
function cut(text: string, chars: number): string {
  const points = Array.from(text);
  return points.length > chars ? `${points.slice(0, chars).join("")}...` : text;
}
