import type { HookJSONOutput, PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../../src/defaults.js";
import { expireEphemeral } from "../../../src/session-layers/passes/expire-ephemeral.js";
import { TranscriptBuilder, bash, resultBlockById } from "../session-layers/transcript-fixtures.js";
import { delegateGuard } from "../../../src/guards/delegate-guard.js";
import { isEphemeral, MAX_GLANCE_CHARS } from "../../../src/glance/is-ephemeral.js";
import { ephemeralExpiredHint, ephemeralLabel } from "../../../src/session-layers/store-notice-text.js";
import { GLANCE_CORPUS } from "./glance-corpus.js";
import { properties } from "../../support/properties.js";

function bashInput(command: string, agentId?: string): PreToolUseHookInput {
  return {
    session_id: "s",
    transcript_path: "/tmp/s.jsonl",
    cwd: "/repo",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "glance" },
    tool_use_id: "toolu_1",
    ...(agentId === undefined ? {} : { agent_id: agentId, agent_type: "general-purpose" }),
  };
}

const matcher = delegateGuard({ glance: true, locale: "zh" });
const guard = matcher.hooks[0]!;

async function guardAllows(command: string): Promise<boolean> {
  const output: HookJSONOutput = await guard(bashInput(command), "toolu_1", {
    signal: new AbortController().signal,
  });
  const specific = "hookSpecificOutput" in output ? output.hookSpecificOutput : undefined;
  return !(specific?.hookEventName === "PreToolUse" && specific.permissionDecision === "deny");
}

/** A result longer than any expiry hint: a shorter one is never replaced, whatever the command. */
const RESULT_UNDER_TEST = `RESULT-UNDER-TEST ${"line of output\n".repeat(20)}`;

/**
 * The store's decision, taken from the store itself: the command's result is the oldest of seven
 * glance-like results in a transcript loaded through the expiry pass with its defaults (the last 6
 * kept), so it is replaced by the hint exactly when the store treats the command as ephemeral.
 */
function storeExpires(command: string): boolean {
  const transcript = new TranscriptBuilder().prompt("go");
  const [target] = transcript.response(null, [bash(command, RESULT_UNDER_TEST)]);
  for (let i = 0; i < DEFAULTS.keepEphemeral; i++)
    transcript.response(null, [bash("git status", `clean ${i}`)]);
  transcript.response("done");
  const { entries } = expireEphemeral(transcript.entries, {
    keepEphemeral: DEFAULTS.keepEphemeral,
    isEphemeral,
    locale: "en",
  });
  const content = resultBlockById(entries, target!)?.block["content"];
  return content !== RESULT_UNDER_TEST;
}

describe("glance corpus", () => {
  it("is big enough and has enough adversarial cases", () => {
    expect(GLANCE_CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(GLANCE_CORPUS.filter((entry) => entry.adversarial).length).toBeGreaterThanOrEqual(40);
    expect(GLANCE_CORPUS.filter((entry) => entry.allow).length).toBeGreaterThanOrEqual(60);
    expect(new Set(GLANCE_CORPUS.map((entry) => entry.command)).size).toBe(GLANCE_CORPUS.length);
  });

  it("has no adversarial case labelled allow", () => {
    expect(GLANCE_CORPUS.filter((entry) => entry.adversarial && entry.allow)).toEqual([]);
  });

  // The invariant of the seed's tests/glance.py: what the guard lets the coordinator run is exactly what
  // the store's expiry pass expires, and both match the label.
  it.each(GLANCE_CORPUS.map((entry) => [JSON.stringify(entry.command).slice(0, 90), entry] as const))(
    "guard == expiry == label: %s",
    async (_name, entry) => {
      const expires = storeExpires(entry.command);
      const allowed = await guardAllows(entry.command);
      expect({ allowed, expires }).toEqual({ allowed: entry.allow, expires: entry.allow });
    },
  );
});

describe("isEphemeral edges", () => {
  it("caps the input length", () => {
    const padded = `ls ${"a".repeat(MAX_GLANCE_CHARS - 3)}`;
    expect(padded.length).toBe(MAX_GLANCE_CHARS);
    expect(isEphemeral(padded)).toBe(true);
    expect(isEphemeral(`${padded}a`)).toBe(false);
  });

  it("refuses non-strings defensively", () => {
    expect(isEphemeral(undefined as unknown as string)).toBe(false);
    expect(isEphemeral(42 as unknown as string)).toBe(false);
  });
});

describe("ephemeralLabel and the expiry hint", () => {
  it("renders the seed's hint byte-exact", () => {
    expect(ephemeralExpiredHint("git status -s", 7, "zh")).toBe(
      "[`git status -s` 的结果已过期(第 7 轮前),当前状态可能已变。需要请重新执行]",
    );
    expect(ephemeralExpiredHint("git status -s", 7, "en")).toBe(
      "[The result of `git status -s` has expired (7 turns ago); the state may have changed. Run it again if needed]",
    );
  });

  it("flattens, neutralises backticks and shortens", () => {
    expect(ephemeralLabel("git status -s &&\n   git log")).toBe("git status -s && git log");
    expect(ephemeralLabel("echo `x`")).toBe("echo 'x'");
    const long = ephemeralLabel(`ls ${"x".repeat(200)}`);
    expect(long.length).toBe(60);
    expect(long.endsWith("…")).toBe(true);
  });
});

// Random compositions of segments with random operators: allowed iff every segment is allowed. Pins the
// segment-wise rule from both sides (one bad segment anywhere spoils the command; all-good passes).
describe("composition property", () => {
  const allowedSegments = [
    "git status -s",
    'echo "--- LOG ---"',
    "git log --oneline -10",
    "ls -la",
    "cat package.json",
    "grep -rn 'a && b' src",
    "wc -l src/*.ts",
    "git diff --stat 2>&1",
    "find . -type f",
    "head -n 5 x 2>/dev/null",
  ];
  const forbiddenSegments = [
    "rm -rf x",
    "curl http://x",
    "git branch -D main",
    "find . -delete",
    "FOO=1 git status",
    "cat $(echo x)",
    "git status > out.txt",
    "sh -c ls",
    "sort -o out x",
    "tee out",
  ];
  const operators = [" && ", " || ", "; ", " | ", "\n", " & ", ";", "&&", " |\n ", " &&\n"];
  const segment = fc.oneof(
    fc.constantFrom(...allowedSegments).map((text) => ({ text, allowed: true })),
    fc.constantFrom(...forbiddenSegments).map((text) => ({ text, allowed: false })),
  );

  it("allows a composition iff every segment is allowed", () => {
    for (const text of allowedSegments) expect(isEphemeral(text)).toBe(true);
    for (const text of forbiddenSegments) expect(isEphemeral(text)).toBe(false);
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom(...operators), { minLength: 5, maxLength: 5 }),
        (segments, ops) => {
          const command = segments
            .map((part, index) => (index === 0 ? part.text : `${ops[index - 1]}${part.text}`))
            .join("");
          expect(isEphemeral(command)).toBe(segments.every((part) => part.allowed));
        },
      ),
      properties(500),
    );
  });
});
