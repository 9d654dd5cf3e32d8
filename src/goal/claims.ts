/**
 * Does a subagent's report claim success without evidence? (The goal guard's claim check.)
 *
 * Subagents have a systematic optimism bias: they write down what they achieved and forget what they
 * tried in vain, and "done" reads the same whether or not anything was checked. A report that claims
 * success but names no command it ran and no file it wrote is flagged, so the coordinator treats it as
 * a claim and not as evidence. The flag costs one line; a missed flag costs a guard round later.
 *
 * Heuristic and bilingual (en, zh), measured on a labelled corpus (test/unit/goal/claims-corpus.ts).
 * A claim is a success phrase not inside a negated or failing statement; a report that also states a
 * failure ("tests still fail", "未通过", "blocked") does not claim success as a whole. Evidence is a
 * path under `.flower/artifacts/`, a concrete file path, a named command (backticks, a fence,
 * `$ cmd`), an exit code, or test counts ("12 passed, 0 failed").
 */
import type { Locale } from "../locale/locale.js";
import { asciiPunctuation } from "./fullwidth.js";

export interface ClaimAssessment {
  /** The report says the work succeeded, and does not also say that it failed. */
  claimsSuccess: boolean;
  /** It names a command it ran, a result count or exit code, or a file it wrote. */
  hasEvidence: boolean;
  /** claimsSuccess && !hasEvidence: show the coordinator the claim-flag line. */
  flagged: boolean;
  /** The success phrases found (not negated), as written. */
  matched: string[];
  /** The evidence found, as written (at most a few, each short). */
  evidence: string[];
}

/** Success phrases. Each is tested on the whole report; negated spans are removed afterwards. */
const SUCCESS: readonly RegExp[] = [
  // en
  /\b(?:all|that's|it's|is|are|now|been|i'm|we're)\s+done\b/gi,
  /(?:^|\n|[.!]\s+)#*\s*done\b/gi,
  /\bdone[ \t]*(?:[.!—–-]|$)/gim,
  /\b(?:fixed|resolved|completed?|finished|implemented)\b/gi,
  /\b(?:all\s+)?(?:the\s+)?tests?\s+(?:are\s+)?(?:now\s+)?pass(?:es|ed|ing)?\b/gi,
  /\ball\s+(?:green|good|set)\b/gi,
  /\bworks?\s+(?:now|correctly|fine|perfectly|as\s+(?:expected|intended))\b/gi,
  /\b(?:got\s+it|it's|is|are|now)\s+working\b/gi,
  /\bworking\s+(?:fine|correctly|now|as\s+expected)\b/gi,
  /\bsuccess(?:fully|ful)?\b/gi,
  /\bsucceeded\b/gi,
  /\bverified\b/gi,
  /\b(?:ready\s+(?:for\s+review|to\s+merge)|good\s+to\s+go)\b/gi,
  /\b(?:renders|runs|compiles|behaves|loads)\s+(?:correctly|fine|cleanly|as\s+expected)\b/gi,
  /\bno\s+more\s+(?:errors|failures|crashes)\b/gi,
  /\b(?:is|are|should\s+be)\s+gone(?:\s+now)?\b/gi,
  /\baddressed\s+(?:all|every|the)\b/gi,
  /✅/g,
  // zh
  // A zh success word counts with a completion mark (已…, …了, or ending its clause): "修复方案" is a noun.
  /(?:已|已经|都|均|全部|基本)(?:完成|搞定|修复|解决|处理完毕|修好|改好|改完|做完|跑通|补全|补齐)了?/g,
  /(?:完成|搞定|修复|解决|处理完毕|修好|改好|改完|做完|跑通|补全|补齐|弄完)(?:了|完毕|(?=[。!,;:\s)*✅]|$))/g,
  /(?:测试|用例|CI)?(?:都|全)绿了?/g,
  /(?:测试|检查|单测|用例|验证|都|均|已|全部|已经)通过了?|通过(?:了|(?=[。!,;\s)*]|$))/g,
  /(?:一切|功能|都|完全)正常/g,
  /(?:没|没有)问题/g,
  /(?:成功|有效|可以合并|请查收)/g,
];

/** Statements of failure or of work not finished; success phrases inside them do not count. */
const FAILURE: readonly RegExp[] = [
  // en: a negated success word ("not done", "isn't fixed", "not marking this as done")
  /\b(?:not|n't|never|no\s+longer)\s+(?:\w+\s+){0,3}?(?:yet\s+)?(?:done|fixed|complete|completed|finished|resolved|working|work|pass|passing|verified|gone|tested|changed|able)\b/gi,
  /\bnot\s+(?:done|complete|finished|fixed)\s+yet\b/gi,
  /\bstill\s+(?:fail|fails|failing|broken|times?\s+out|timing\s+out|returns|doesn't|does\s+not|an?\s+issue|there)\b/gi,
  /\btests?\s+(?:still\s+)?fail(?:s|ed|ing)?\b/gi,
  /\b(?:blocked|unable\s+to|could\s+not|couldn't|cannot|can't)\b/gi,
  /\b(?:halfway|partial\s+result|still\s+working|in\s+progress|work\s+in\s+progress|will\s+report\s+back)\b/gi,
  /\b(?:haven't|have\s+not|has\s+not|hasn't)\s+(?:\w+\s+){0,2}?(?:changed|started|written|run|found|fixed|touched|implemented)\b/gi,
  /\b[1-9]\d*\s+(?:failed|failing|failures?)\b/gi,
  /\b(?:didn't|did\s+not|couldn't|could\s+not)\s+(?:\w+\s+){0,2}?(?:finish|complete|fix|get|solve|resolve)\b/gi,
  /\b(?:ci|build|pipeline|job|check|deploy(?:ment)?)\s+(?:still\s+)?fails?\b/gi,
  /\bwith\s+errors\b/gi,
  /\bbefore\s+i\s+(?:mark|call|consider)\b/gi,
  /\b(?:no|without)\s+code\s+changes\b/gi,
  // zh: 未/没/还没/尚未 + a success word, and outright failure
  /(?:未|没有?|还没有?|尚未|并未|并没有?)(?:能)?(?:完成|通过|修复|修好|解决|搞定|成功|做完|跑通|改好|生效)/g,
  /(?:还没有?|尚未|暂时没有|暂未)[\u4e00-\u9fff]/g,
  /部分完成/g,
  /(?:仍然?|还是|依然|依旧)(?:失败|报错|不行|未|没|有问题|挂)/g,
  /失败(?!的)/g,
  /(?:不行|卡在|正在处理|处理中|还在查|还在确认|进度)/g,
  /[1-9]\d*\s*(?:failed|个?失败)/g,
];

const TOOLS =
  "npm|npx|pnpm|yarn|bun|node|deno|tsc|eslint|prettier|jest|vitest|mocha|playwright|cypress|python3?|pip|pytest|ruff|mypy|go|cargo|rustc|make|cmake|gradle|mvn|dotnet|docker|kubectl|helm|git|curl|wget|jq|grep|rg|find|wc|ls|cat|tar|bash|sh|zsh|psql|mysql|sqlite3|redis-cli|promtool|amtool|terraform|ansible|hey|ab|autocannon|k6|stripe|gh|bundle|rake|rspec|php|composer|phpunit|swift|xcodebuild|flutter|dart|mix|elixir|stack|cabal|sbt|golangci-lint|tox|nox|poetry|uv|hatch|deno|bazel|nx|turbo|lerna|pg_restore|pg_dump|openssl|ssh|scp|rsync|sed|awk|diff|echo|test|true|for";

const EVIDENCE: readonly RegExp[] = [
  /\.flower\/artifacts\/[^\s`'")\],,。;;]*/g,
  // A command in backticks or a fence line, led by a known tool or by "$ " / "./".
  new RegExp(`\`(?:\\$\\s*)?(?:${TOOLS})(?:\\s[^\`\\n]*)?\``, "g"),
  new RegExp(`(?:^|\\n)\\s*\\$\\s+(?:${TOOLS}|\\./|[a-z][\\w.-]*\\s)[^\\n]*`, "g"),
  /`\.{0,2}\/[\w./-]+(?:\s[^`\n]*)?`/g,
  // Results: exit codes and counts.
  /\bexit(?:s|ed)?\s*(?:code|status)?\s*(?:[:=]\s*)?\d+\b/gi,
  /退出码(?:为|是)?\s*\d+/g,
  /\b\d+\s+(?:passed|passing|failed|succeeded|tests?\s+passed)\b/gi,
  /\bTests?:\s+\d+/g,
  /\btest\s+result:\s+ok\b/gi,
  /\b(?:passed|ok)\s*\(\d+\)/gi,
  /\d+\s*(?:个)(?:测试|用例)|(?:通过|passed)[(]\d+\s*个?[)]/g,
  /\b\d+\s+(?:errors?|warnings?|dead|missing\s+keys)\b/gi,
  // A concrete file path: a folder/file.ext, or file.ext in backticks.
  /(?<![\w/.:-])(?:[\w.-]+\/)+[\w.-]+\.[A-Za-z][\w]{0,9}\b/g,
  /`[\w.-]+\.(?:ts|tsx|js|jsx|mjs|cjs|json|ya?ml|toml|md|py|go|rs|rb|java|kt|swift|c|h|cpp|cs|php|sql|sh|css|scss|html|vue|svelte|txt|log|csv|lock|conf|ini|env|xml|gradle|tf)`/g,
];

/** "Node.js" and friends look like file names and are not. */
const NOT_A_FILE = /^(?:node|vue|next|nuxt|express|three|d3|chart|moment|react|ember|backbone)\.js$/i;

function spans(text: string, patterns: readonly RegExp[]): { start: number; end: number; text: string }[] {
  const found: { start: number; end: number; text: string }[] = [];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      if (match[0].trim() === "") continue;
      found.push({ start: match.index, end: match.index + match[0].length, text: match[0].trim() });
    }
  }
  return found;
}

/**
 * A report longer than this is read as its first and last half of it: the verdict and the evidence sit
 * at the start and the end, and the cost of the patterns stays bounded on a 1 MB tool result.
 */
const MAX_CHARS = 64_000;

/** Assesses one report (the Agent tool's result text). Pure; safe on any string. */
export function assessClaim(report: string): ClaimAssessment {
  const whole = typeof report === "string" ? asciiPunctuation(report) : "";
  const text =
    whole.length > MAX_CHARS
      ? `${whole.slice(0, MAX_CHARS / 2)}\n…\n${whole.slice(whole.length - MAX_CHARS / 2)}`
      : whole;
  const failures = spans(text, FAILURE);
  const matched = spans(text, SUCCESS)
    .filter(
      (success) => !failures.some((failure) => success.start < failure.end && failure.start < success.end),
    )
    .map((success) => success.text);
  const evidence = [...spans(text, EVIDENCE).map((span) => span.text), ...commandsWithFlags(text)].filter(
    (span) => !NOT_A_FILE.test(span),
  );
  const claimsSuccess = matched.length > 0 && failures.length === 0;
  const hasEvidence = evidence.length > 0;
  return {
    claimsSuccess,
    hasEvidence,
    flagged: claimsSuccess && !hasEvidence,
    matched: unique(matched),
    evidence: unique(evidence)
      .slice(0, 8)
      .map((item) => (item.length > 120 ? `${item.slice(0, 119)}…` : item)),
  };
}

/**
 * Any backticked command line with flags (`journalctl -u backup --since today`), for tools the list
 * does not know. Two steps instead of one pattern: a single regex with nested repetition here went
 * quadratic on a long unclosed backtick.
 */
function commandsWithFlags(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/`([^`\n]{3,300})`/g)) {
    if (/^[a-z][\w.-]*\s(?:.*\s)?--?[a-zA-Z]/.test(match[1]!)) found.push(match[0]);
  }
  return found;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

const CLAIM_FLAG_LINE: Readonly<Record<Locale, string>> = {
  en: "[flower] This report claims success but names no command it ran and no file it wrote: treat it as a claim, not evidence.",
  zh: "[flower] 这份汇报声称已成功,却没有写出跑过的命令或写下的文件:把它当作声称,不当作证据。",
};

/** The one line added to the coordinator's view of a flagged report. */
export function claimFlagLine(locale: Locale): string {
  return CLAIM_FLAG_LINE[locale];
}
