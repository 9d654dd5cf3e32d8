/**
 * Reading the checks out of a frozen goal document (SPEC W3): each check is a shell command plus what
 * passing means. The goal step's model writes the section, and a person may edit it before the run
 * goes on, so the reader is tolerant: bullets or numbers, backticks or `$ `, "exit 0" / "exits 0" /
 * "退出码为 0", "output matches /re/" / "输出匹配 `re`" / "输出包含 xyz", tables, fenced blocks.
 *
 * It is also careful: a line it cannot read as a check is returned in `unparsed`, never guessed into a
 * command. A guessed command that can never pass would end the run `goal-not-met` for nothing; an
 * empty `checks` list is the caller's signal that the goal has no runnable check (W3: incomplete).
 */
import type { GoalCheck } from "./goal-check.js";
import { validateGoalCheck } from "./goal-check.js";
import { asciiPunctuation } from "./fullwidth.js";

export interface ParsedGoalChecks {
  checks: GoalCheck[];
  /** Non-empty lines of the section that are not a check (prose, a table header, an unreadable line). */
  unparsed: string[];
  /** False when a whole document was given and it has no checks section. */
  sectionFound: boolean;
}

/** Heading words of the checks section, both languages (lowercase, compared after stripping marks). */
const CHECK_HEADINGS = [
  "checks",
  "check",
  "goal checks",
  "acceptance checks",
  "verification",
  "how to verify",
  "检查",
  "检查项",
  "验收检查",
  "检查命令",
  "验证",
  "验证方式",
];

const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BOLD_HEADING = /^\s*(?:\*\*|__)(.+?)(?:\*\*|__)\s*[:]?\s*$/;

function headingWords(title: string): string {
  return asciiPunctuation(title)
    .replace(/[*_`]/g, "")
    .replace(/^\s*(?:\d+[.)、]|[一二三四五六七八九十]+[、.])\s*/, "")
    .replace(/[(].*?[)]/g, "")
    .replace(/[:]\s*$/, "")
    .trim()
    .toLowerCase();
}

/**
 * The body of the document's checks section (heading `检查` / `checks` and friends, `#` or bold), up
 * to the next heading of the same or a higher level; null when there is none.
 */
export function findChecksSection(document: string): string | null {
  const lines = document.split(/\r?\n/);
  let inFence = false;
  for (const [position, line] of lines.entries()) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = HEADING.exec(line);
    const bold = heading ? null : BOLD_HEADING.exec(line);
    const title = heading?.[2] ?? bold?.[1];
    if (title === undefined || !CHECK_HEADINGS.includes(headingWords(title))) continue;
    const level = heading ? heading[1]!.length : 7;
    const body: string[] = [];
    let innerFence = false;
    for (const next of lines.slice(position + 1)) {
      if (/^\s*(```|~~~)/.test(next)) innerFence = !innerFence;
      if (!innerFence) {
        const nextHeading = HEADING.exec(next);
        if (nextHeading && nextHeading[1]!.length <= level) break;
        if (!nextHeading && level === 7 && BOLD_HEADING.test(next)) break;
      }
      body.push(next);
    }
    return body.join("\n");
  }
  return null;
}

/**
 * Parses a goal document's checks. Given a whole document (it has headings), reads its checks section;
 * given a section body (no headings), reads that.
 */
export function parseGoalChecks(text: string): ParsedGoalChecks {
  if (typeof text !== "string") return { checks: [], unparsed: [], sectionFound: false };
  const hasHeadings = text.split(/\r?\n/).some((line) => HEADING.test(line));
  if (!hasHeadings) return { ...parseChecksSection(text), sectionFound: true };
  const section = findChecksSection(text);
  if (section === null) return { checks: [], unparsed: [], sectionFound: false };
  return { ...parseChecksSection(section), sectionFound: true };
}

/** Parses the body of a checks section into checks and the lines that are not checks. */
export function parseChecksSection(body: string): { checks: GoalCheck[]; unparsed: string[] } {
  const checks: GoalCheck[] = [];
  const unparsed: string[] = [];
  const lines = body.split(/\r?\n/);
  let pendingIntro: { description: string | null; expectation: Expectation } | null = null;
  for (let position = 0; position < lines.length; position += 1) {
    const line = lines[position]!;
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+-]*)\s*$/.exec(line);
    if (fence) {
      const close = lines.findIndex(
        (candidate, at) => at > position && candidate.trim().startsWith(fence[1]!),
      );
      const end = close === -1 ? lines.length : close;
      const block = lines.slice(position + 1, end);
      // An expectation on the line after the fence ("→ exit 0") applies to the block as well.
      const after = close === -1 ? undefined : lines[close + 1];
      const afterExpectation = after !== undefined && !hasCommand(after) ? readExpectation(after) : null;
      const expectation = mergeExpectations(pendingIntro?.expectation ?? null, afterExpectation);
      const fromBlock = commandsOfBlock(block);
      if (fromBlock.length === 0 && block.some((entry) => entry.trim() !== ""))
        unparsed.push(block.join("\n"));
      for (const command of fromBlock)
        pushCheck(checks, unparsed, command, expectation, pendingIntro?.description ?? null, command);
      pendingIntro = null;
      position = afterExpectation && !afterExpectation.empty ? close + 1 : end;
      continue;
    }
    const content = stripListMarker(line);
    if (content === "" || /^\|?\s*:?-{3,}/.test(content) || HEADING.test(line)) continue;
    const parsed = readCheckLine(content);
    if (parsed === null) {
      // A line without a command that introduces a fenced block ("Run these, each must exit 0:").
      if (
        lines
          .slice(position + 1)
          .find((next) => next.trim() !== "")
          ?.trim()
          .match(/^(```|~~~)/)
      ) {
        pendingIntro = { description: descriptionOf(content), expectation: readExpectation(content) };
        continue;
      }
      unparsed.push(line.trim());
      continue;
    }
    pendingIntro = null;
    if (parsed.problem) {
      unparsed.push(line.trim());
      continue;
    }
    pushCheck(checks, unparsed, parsed.command, parsed.expectation, parsed.description, line.trim());
  }
  return { checks, unparsed };
}

interface Expectation {
  exitCode?: number;
  pattern?: string;
  timeoutMs?: number;
  /** Says something about passing that a check cannot express ("exits non-zero"). */
  problem?: boolean;
  empty: boolean;
}

function pushCheck(
  checks: GoalCheck[],
  unparsed: string[],
  command: string,
  expectation: Expectation | null,
  description: string | null,
  source: string,
): void {
  const check: GoalCheck = { command };
  const expect: GoalCheck["expect"] = {};
  if (expectation?.exitCode !== undefined) expect.exitCode = expectation.exitCode;
  if (expectation?.pattern !== undefined) expect.pattern = expectation.pattern;
  if (Object.keys(expect).length > 0) check.expect = expect;
  if (expectation?.timeoutMs !== undefined) check.timeoutMs = expectation.timeoutMs;
  if (description) check.description = description;
  try {
    validateGoalCheck(check, "check");
  } catch {
    unparsed.push(source); // e.g. a pattern that is not a valid regular expression
    return;
  }
  checks.push(check);
}

function stripListMarker(line: string): string {
  return line
    .trim()
    .replace(/^(?:[-*+•·]|\d+[.)、]|[(]\d+[)]|\[[ xX]\])\s+/, "")
    .replace(/^\[[ xX]\]\s+/, "")
    .trim();
}

/** Commands worth running, from a line: first backtick span, or `$ command`. */
function hasCommand(line: string): boolean {
  return /`[^`]+`/.test(line) || /^\s*(?:[-*+]\s+)?\$\s+\S/.test(line);
}

function readCheckLine(
  content: string,
): { command: string; expectation: Expectation; description: string | null; problem: boolean } | null {
  const cleaned = content.replace(/\*\*|__/g, "");
  const dollar = /^\$\s+(.+?)(?:\s+(?:——|—|–|->|→|=>|#)\s+(.*))?$/.exec(cleaned);
  if (dollar) return withExpectation(dollar[1]!.trim(), dollar[2] ?? "", null);
  const span = /(`+)([^`](?:.*?[^`])?)\1/.exec(cleaned);
  if (span) {
    const command = span[2]!.trim().replace(/^\$\s+/, "");
    const rest = cleaned.slice(span.index + span[0].length);
    return withExpectation(command, rest, descriptionOf(cleaned.slice(0, span.index)));
  }
  // No backticks: only "command — exit 0" with an explicit expectation counts as a command.
  const separator = /^([a-z0-9./_~][^\u3000-\u9fff]*?)\s+(?:——|—|–|->|→|=>)\s+(.+)$/.exec(cleaned);
  if (!separator) return null;
  const expectation = readExpectation(separator[2]!);
  if (expectation.empty) return null;
  return {
    command: separator[1]!.trim(),
    expectation,
    description: null,
    problem: expectation.problem === true,
  };
}

function withExpectation(
  command: string,
  rest: string,
  description: string | null,
): { command: string; expectation: Expectation; description: string | null; problem: boolean } | null {
  if (command === "") return null;
  const expectation = readExpectation(rest);
  return { command, expectation, description, problem: expectation.problem === true };
}

function descriptionOf(text: string): string | null {
  const trimmed = asciiPunctuation(text)
    .replace(/\*\*|__/g, "")
    .replace(/^\|/, "")
    .replace(/\s*(?:——|—|–|->|→|=>|:|\||\()\s*$/, "")
    .replace(/^(?:run|运行|执行)\s*$/i, "")
    .trim();
  return trimmed === "" || /^(?:run|运行|执行)$/i.test(trimmed) ? null : trimmed;
}

const NUMBER = "(\\d{1,3})";

/** What passing means, read from the text after the command. */
function readExpectation(text: string): Expectation {
  const expectation: Expectation = { empty: true };
  const plain = asciiPunctuation(text).replace(/\*\*|__/g, "");
  const exit =
    new RegExp(
      // "returns 200" or "status 200" is usually HTTP, so only exit/return code/rc count.
      `\\b(?:exit(?:s|ed)?(?:\\s+with)?(?:\\s+(?:code|status))?|return\\s+code|rc)\\s*(?:is|of|=|==|:)?\\s*${NUMBER}\\b`,
      "i",
    ).exec(plain) ??
    new RegExp(
      `(?:退出码|退出状态|返回码|返回值|退出值)\\s*(?:为|是|=|:|应为|应该是|必须是)?\\s*${NUMBER}`,
    ).exec(plain);
  if (exit) {
    expectation.exitCode = Number(exit[1]);
    expectation.empty = false;
  }
  if (/\b(?:non-?zero|not\s+0|!=\s*0)\b|非零|非 0|不为 ?0/i.test(plain)) {
    expectation.problem = true;
    expectation.empty = false;
  }
  const match =
    /(?:output|stdout|prints?|out)\s+(?:that\s+)?(?:must\s+)?(?:matches|match|matching|is\s+matched\s+by|~)\s*(?:the\s+)?(?:regex|pattern|regexp)?\s*[:]?\s*(.+)$/i.exec(
      plain,
    ) ?? /输出(?:需|须|必须|应)?(?:匹配|符合|满足)(?:正则|模式)?(?:表达式)?\s*[:]?\s*(.+)$/.exec(plain);
  if (match) {
    const pattern = regexOf(match[1]!);
    if (pattern !== null) {
      expectation.pattern = pattern;
      expectation.empty = false;
    }
  }
  const contains =
    /(?:output|stdout)\s+(?:must\s+)?(?:contains?|includes?|has)\s*[:]?\s*(.+)$/i.exec(plain) ??
    /(?:prints|shows)\s+(.+)$/i.exec(plain) ??
    /输出(?:需|须|必须|应)?(?:包含|含有|中有|里有|有)\s*[:]?\s*(.+)$/.exec(plain);
  if (!match && contains) {
    const literal = literalOf(contains[1]!);
    if (literal !== null) {
      expectation.pattern = escapeRegExp(literal);
      expectation.empty = false;
    }
  }
  const timeout =
    /(?:timeout|time\s*limit|within|超时|限时|时限)\s*(?:of|is|为|:)?\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|毫秒|秒|分钟|分)(?![a-z])/i.exec(
      plain,
    );
  if (timeout) {
    const value = Number(timeout[1]);
    const unit = timeout[2]!.toLowerCase();
    const factor =
      unit === "ms" || unit === "毫秒" ? 1 : /^(m|min|mins|minutes?|分钟|分)$/.test(unit) ? 60_000 : 1_000;
    expectation.timeoutMs = Math.round(value * factor);
  }
  if (
    expectation.exitCode === undefined &&
    !expectation.problem &&
    /\b(?:passes|pass|succeeds|success(?:ful)?|ok)\b|通过|成功/i.test(plain)
  )
    expectation.empty = false;
  return expectation;
}

/** `re`, /re/flags, "re", or a bare word, up to the end of the clause. */
function regexOf(text: string): string | null {
  const value = text.trim();
  const backticks = /^(`+)(.+?)\1/.exec(value);
  if (backticks) return stripSlashes(backticks[2]!);
  const slashes = /^\/((?:[^/\\\n]|\\.)+)\/[a-z]*/.exec(value);
  if (slashes) return slashes[1]!;
  const quoted = /^["“「'‘]([^"”」'’]+)["”」'’]/.exec(value);
  if (quoted) return quoted[1]!;
  const word = /^(\S+?)[,。;)]?(?:\s|$)/.exec(value);
  return word ? word[1]! : null;
}

function stripSlashes(value: string): string {
  const slashes = /^\/((?:[^/\\]|\\.)+)\/[a-z]*$/.exec(value);
  return slashes ? slashes[1]! : value;
}

function literalOf(text: string): string | null {
  const value = text.trim();
  const backticks = /^(`+)(.+?)\1/.exec(value);
  if (backticks) return backticks[2]!;
  const quoted = /^["“「'‘]([^"”」'’]+)["”」'’]/.exec(value);
  if (quoted) return quoted[1]!;
  const word = /^(\S+?)[,。;)]?(?:\s|$)/.exec(value);
  return word ? word[1]! : null;
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function mergeExpectations(first: Expectation | null, second: Expectation | null): Expectation | null {
  if (!first || first.empty) return second;
  if (!second || second.empty) return first;
  return { ...first, ...second, empty: false };
}

/**
 * The commands in a fenced block: each line its own check, unless the block is one script (control
 * flow, continuation lines, a heredoc), which then runs as a whole. `$ ` prompts and comments go.
 */
function commandsOfBlock(block: readonly string[]): string[] {
  const lines = block.map((line) => line.replace(/\s+$/, "")).filter((line) => line.trim() !== "");
  const script = lines.some((line) =>
    /\\$|<<-?\s*['"]?\w|^\s*(?:if|then|else|elif|fi|for|while|until|do|done|case|esac|function)\b|[{}]\s*$/.test(
      line,
    ),
  );
  const commands = lines
    .filter((line) => !/^\s*#/.test(line))
    .map((line) => line.replace(/^\s*\$\s+/, ""))
    .filter((line) => !/^\s*>\s/.test(line));
  if (commands.length === 0) return [];
  return script
    ? [
        lines
          .filter((line) => !/^\s*#/.test(line))
          .map((line) => line.replace(/^\s*\$\s+/, ""))
          .join("\n"),
      ]
    : commands;
}
