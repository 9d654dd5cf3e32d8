/**
 * What passing means, read from the words after a command: "exit 0" / "退出码为 0", "output matches
 * /re/" / "输出匹配 `re`", "输出包含 xyz", a timeout. The phrase table grows with every way a model is
 * seen writing an expectation, so it lives apart from finding the commands (check-line.ts).
 */
import { asciiPunctuation } from "./fullwidth.js";

/** What a check line says about passing; `empty` when it says nothing. */
export interface Expectation {
  exitCode?: number;
  pattern?: string;
  timeoutMs?: number;
  /** Says something about passing that a check cannot express ("exits non-zero"). */
  problem?: boolean;
  empty: boolean;
}

const NUMBER = "(\\d{1,3})";

/** What passing means, read from the text after the command. */
export function readExpectation(text: string): Expectation {
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

export function mergeExpectations(first: Expectation | null, second: Expectation | null): Expectation | null {
  if (!first || first.empty) return second;
  if (!second || second.empty) return first;
  return { ...first, ...second, empty: false };
}
