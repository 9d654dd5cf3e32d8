/**
 * Recognising a command in one line of a checks section (a backtick span, `$ command`, `command —
 * exit 0`) or in a fenced block, plus the description written before it. Line patterns only: what the
 * words after the command mean is read in check-expectation.ts, and the section loop is in
 * goal-document.ts.
 */
import { readExpectation, type Expectation } from "./check-expectation.js";
import { asciiPunctuation } from "./fullwidth.js";

export function stripListMarker(line: string): string {
  return line
    .trim()
    .replace(/^(?:[-*+•·]|\d+[.)、]|[(]\d+[)]|\[[ xX]\])\s+/, "")
    .replace(/^\[[ xX]\]\s+/, "")
    .trim();
}

/** Does the line hold a command worth running: a backtick span, or `$ command`? */
export function hasCommand(line: string): boolean {
  return /`[^`]+`/.test(line) || /^\s*(?:[-*+]\s+)?\$\s+\S/.test(line);
}

export function readCheckLine(
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

export function descriptionOf(text: string): string | null {
  const trimmed = asciiPunctuation(text)
    .replace(/\*\*|__/g, "")
    .replace(/^\|/, "")
    .replace(/\s*(?:——|—|–|->|→|=>|:|\||\()\s*$/, "")
    .replace(/^(?:run|运行|执行)\s*$/i, "")
    .trim();
  return trimmed === "" || /^(?:run|运行|执行)$/i.test(trimmed) ? null : trimmed;
}

/**
 * The commands in a fenced block: each line its own check, unless the block is one script (control
 * flow, continuation lines, a heredoc), which then runs as a whole. `$ ` prompts and comments go.
 */
export function commandsOfBlock(block: readonly string[]): string[] {
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
