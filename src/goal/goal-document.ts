/**
 * Reading the checks out of a frozen goal document: each check is a shell command plus what
 * passing means. The goal step's model writes the section, and a person may edit it before the run
 * goes on, so the reader is tolerant: bullets or numbers, backticks or `$ `, "exit 0" / "exits 0" /
 * "退出码为 0", "output matches /re/" / "输出匹配 `re`" / "输出包含 xyz", tables, fenced blocks.
 *
 * It is also careful: a line it cannot read as a check is returned in `unparsed`, never guessed into a
 * command. A guessed command that can never pass would end the run `goal-not-met` for nothing; an
 * empty `checks` list is the caller's signal that the goal has no runnable check, which makes the goal
 * document incomplete (the guard would have nothing to hold on to).
 */
import type { GoalCheck } from "./goal-check.js";
import { validateGoalCheck } from "./goal-check.js";
import { mergeExpectations, readExpectation, type Expectation } from "./check-expectation.js";
import { commandsOfBlock, descriptionOf, hasCommand, readCheckLine, stripListMarker } from "./check-line.js";
import { HEADING, findChecksSection } from "./checks-section.js";

// findChecksSection is part of this module's public face (index.ts, the tests import it from here).
export { findChecksSection } from "./checks-section.js";

export interface ParsedGoalChecks {
  checks: GoalCheck[];
  /** Non-empty lines of the section that are not a check (prose, a table header, an unreadable line). */
  unparsed: string[];
  /** False when a whole document was given and it has no checks section. */
  sectionFound: boolean;
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
