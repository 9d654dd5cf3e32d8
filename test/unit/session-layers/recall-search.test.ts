/**
 * The search behind recall (session-layers/recall-search.ts), over transcripts in the CLI's layout: what ranks
 * first, where a passage came from (generation, turn, subagent), the size bound, what later work did to a
 * passage, redaction, and the plain answers (no earlier generation, an empty query, nothing found).
 */
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../../src/defaults.js";
import { handoffPrompt } from "../../../src/handoff/prompt.js";
import {
  queryTerms,
  RECALL_TOOL,
  searchTranscripts,
  subagentReport,
  type RecallOptions,
  type RecallTranscript,
} from "../../../src/session-layers/recall-search.js";
import { SecretRedactor } from "../../../src/secret-redactor.js";
import { TranscriptBuilder, type Entry } from "./transcript-fixtures.js";

const OPTIONS: RecallOptions = {
  locale: "en",
  maxChars: DEFAULTS.recallMaxChars,
  passageChars: DEFAULTS.recallPassageChars,
  maxPassages: DEFAULTS.recallMaxPassages,
  redact: (text) => text,
};

const ok = (name: string, input: Record<string, unknown>, output: string) => ({
  name,
  input,
  result: "ok" as const,
  output,
});

/** A subagent's transcript as the binary stores it: its metadata (type, the Agent call) first. */
function subagentTranscript(type: string, call: string, build: (t: TranscriptBuilder) => void): Entry[] {
  const transcript = new TranscriptBuilder({ prefix: `w${type}`, agentId: `a-${type}` });
  transcript.entries.push({ type: "agent_metadata", agentType: type, toolUseId: call });
  build(transcript);
  return transcript.entries;
}

/**
 * Generation 1: the task; turn 1 sends the analyst, who finds the vault path with Bash; turn 2 reads the
 * README (which mentions deploys, not the path); then the writing turn. Generation 2: its first prompt,
 * one turn that edits deploy.md.
 */
function twoGenerations(): RecallTranscript[] {
  const first = new TranscriptBuilder({ prefix: "g1" });
  first.prompt("Set up the deploy for the service.");
  const [agentCall] = first.response(null, [
    ok(
      "Agent",
      { subagent_type: "analyst", description: "Find token", prompt: "Find the deploy token." },
      "Found it.",
    ),
  ]);
  first.response("Reading the README.", [
    ok(
      "Read",
      { file_path: "/repo/README.md" },
      "The deploy runs from CI. Deploy docs are in deploy.md. Every deploy needs a token.",
    ),
  ]);
  first.prompt(handoffPrompt("en", { used: 60_000, window: 100_000 }));
  first.response("## What I am doing\nSetting up the deploy token.\n\n## Next step\n- Use the token.");
  const analyst = subagentTranscript("analyst", agentCall!, (t) => {
    t.prompt("Find the deploy token.");
    t.response(null, [
      ok(
        "Bash",
        { command: "vault kv list secret/ci" },
        "DEPLOY-7731\nthe deploy token lives in vault path secret/ci/DEPLOY-7731",
      ),
    ]);
    t.response("Found it.");
  });
  const second = new TranscriptBuilder({ prefix: "g2" });
  second.prompt("You are taking over the step. Use the token.");
  second.response(null, [
    ok(
      "Edit",
      { file_path: "/repo/deploy.md", old_string: "TODO", new_string: "vault path below" },
      "The file /repo/deploy.md has been updated.",
    ),
  ]);
  return [
    { generation: 1, main: [first.entries], subagents: [analyst] },
    { generation: 2, main: [second.entries], subagents: [] },
  ];
}

describe("searchTranscripts", () => {
  it("ranks the passage with the rare words first and names where it came from", () => {
    const answer = searchTranscripts(twoGenerations(), "deploy token vault path", OPTIONS);
    const best = answer.passages[0]!;
    expect(best).toMatchObject({
      generation: 1,
      turn: 1,
      subagent: "analyst",
      kind: "result",
      tool: "Bash",
      label: "vault kv list secret/ci",
    });
    expect(best.text).toContain("secret/ci/DEPLOY-7731");
    expect(answer.text).toContain(
      '[1] generation 1, turn 1, worker "analyst", result of Bash (vault kv list secret/ci):\n',
    );
    expect(
      answer.text.startsWith(
        'Searched generations 1–2 of this step (the sessions before yours) for "deploy token vault path"',
      ),
    ).toBe(true);
    // The README says "deploy" three times but nothing of the vault: it ranks below.
    const readme = answer.passages.findIndex((passage) => passage.tool === "Read");
    expect(readme).toBeGreaterThan(0);
    // Scores never rise down the list.
    const scores = answer.passages.map((passage) => passage.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("leaves out the writing turn (the successor has that handoff) and counts turns as flower show does", () => {
    const answer = searchTranscripts(twoGenerations(), "setting up", OPTIONS);
    expect(answer.text).not.toContain("Setting up the deploy token");
    const readme = searchTranscripts(twoGenerations(), "README", OPTIONS).passages;
    // The README was read in the main thread's second response.
    expect(readme.find((passage) => passage.kind === "result")).toMatchObject({ generation: 1, turn: 2 });
  });

  it("says when later work revised a passage: a newer match, a file it names changed later", () => {
    const answer = searchTranscripts(twoGenerations(), "deploy.md", OPTIONS);
    const readme = answer.passages.find((passage) => passage.tool === "Read")!;
    expect(readme.later).toContain("`/repo/deploy.md` was changed later (generation 2, turn 1)");
    expect(readme.later).toContain("generation 2, turn 1 also matches (newer)");
    expect(answer.text).toContain(
      "Later: generation 2, turn 1 also matches (newer); `/repo/deploy.md` was changed later",
    );
    // The newest passage has nothing later.
    const edit = answer.passages.find((passage) => passage.generation === 2)!;
    expect(edit.later).toEqual([]);
  });

  it("puts equal matches newer first", () => {
    const one = new TranscriptBuilder({ prefix: "a" });
    one.prompt("start");
    one.response("The build flag is --fast.");
    const two = new TranscriptBuilder({ prefix: "b" });
    two.prompt("go on");
    two.response("The build flag is --safe.");
    const answer = searchTranscripts(
      [
        { generation: 1, main: [one.entries], subagents: [] },
        { generation: 2, main: [two.entries], subagents: [] },
      ],
      "build flag",
      OPTIONS,
    );
    expect(answer.passages.map((passage) => passage.text)).toEqual([
      "The build flag is --safe.",
      "The build flag is --fast.",
    ]);
    expect(answer.passages[1]!.later).toEqual(["generation 2, turn 1 also matches (newer)"]);
  });

  it("keeps the answer within its bound, each passage within its own, and says how many were left out", () => {
    const long = new TranscriptBuilder({ prefix: "l" });
    long.prompt("Collect the logs.");
    for (let index = 0; index < 30; index += 1) {
      const log = Array.from({ length: 40 }, (_, line) => `line ${line}: timeout in worker ${index}`).join(
        "\n",
      );
      long.response(null, [ok("Bash", { command: `cat log-${index}.txt` }, log)]);
    }
    const answer = searchTranscripts(
      [{ generation: 1, main: [long.entries], subagents: [] }],
      "timeout",
      OPTIONS,
    );
    expect(answer.matched).toBe(30);
    expect(answer.text.length).toBeLessThanOrEqual(DEFAULTS.recallMaxChars);
    expect(answer.passages.length).toBeGreaterThan(0);
    expect(answer.passages.length).toBeLessThanOrEqual(DEFAULTS.recallMaxPassages);
    for (const passage of answer.passages)
      expect(passage.text.length).toBeLessThanOrEqual(DEFAULTS.recallPassageChars + 2);
    const left = 30 - answer.passages.length;
    expect(answer.text).toContain(
      `${left} more passages match, left out to keep this answer under ${DEFAULTS.recallMaxChars} characters`,
    );
    // A smaller bound shows fewer passages, never more characters than it allows.
    const small = searchTranscripts([{ generation: 1, main: [long.entries], subagents: [] }], "timeout", {
      ...OPTIONS,
      maxChars: 1_200,
    });
    expect(small.text.length).toBeLessThanOrEqual(1_200);
    expect(small.passages.length).toBeGreaterThan(0);
    expect(small.passages.length).toBeLessThan(answer.passages.length);
  });

  it("shows the part of a long result around the match, cut with …", () => {
    const transcript = new TranscriptBuilder({ prefix: "c" });
    transcript.prompt("Find the port.");
    const filler = Array.from({ length: 60 }, (_, line) => `filler line ${line}`).join("\n");
    transcript.response(null, [
      ok("Bash", { command: "cat config" }, `${filler}\nlisten_port = 8443\n${filler}`),
    ]);
    const [passage] = searchTranscripts(
      [{ generation: 1, main: [transcript.entries], subagents: [] }],
      "listen_port",
      OPTIONS,
    ).passages;
    expect(passage!.text).toContain("listen_port = 8443");
    expect(passage!.text.startsWith("…")).toBe(true);
    expect(passage!.text.endsWith("…")).toBe(true);
  });

  it("redacts every passage before matching: a secret never comes back, not even when asked for", () => {
    const secret = "sk-ant-api03-RECALLSECRET-Qw12Er34";
    const redactor = new SecretRedactor([{ name: "ANTHROPIC_API_KEY", value: secret }]);
    const transcript = new TranscriptBuilder({ prefix: "s" });
    transcript.prompt("Check the environment.");
    transcript.response(null, [
      ok("Bash", { command: "env | grep KEY" }, `ANTHROPIC_API_KEY=${secret}\nDEPLOY_REGION=eu-west-1`),
    ]);
    const transcripts = [{ generation: 1, main: [transcript.entries], subagents: [] }];
    const options = { ...OPTIONS, redact: (text: string) => redactor.text(text) };
    const answer = searchTranscripts(transcripts, "ANTHROPIC_API_KEY region", options);
    expect(answer.passages[0]!.text).toBe(
      "ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\nDEPLOY_REGION=eu-west-1",
    );
    expect(answer.text).not.toContain(secret);
    // Asked for by its value, the search looks for its marker: the value is never shown.
    const asked = searchTranscripts(transcripts, secret, options);
    expect(asked.text).not.toContain(secret);
    expect(asked.text).toContain('for "[redacted ANTHROPIC_API_KEY]"');
    expect(asked.passages[0]!.text).toContain("ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]");
  });

  it("answers plainly with no earlier generation, an empty query, or nothing found", () => {
    expect(searchTranscripts([], "deploy token", OPTIONS)).toEqual({
      text: "This step has no earlier generation: yours is its first session, so there is nothing to recall; what it did so far is in your own context.",
      searched: 0,
      matched: 0,
      passages: [],
    });
    expect(searchTranscripts(twoGenerations(), "  the  ", OPTIONS).text).toBe(
      "Give the words to look for: a file name, an identifier, an error message, a command.",
    );
    const nothing = searchTranscripts(twoGenerations(), "kubernetes", OPTIONS);
    expect(nothing.matched).toBe(0);
    expect(nothing.searched).toBeGreaterThan(5);
    expect(nothing.text).toBe(
      `Nothing in generations 1–2 of this step matches "kubernetes" (searched ${nothing.searched} passages). ` +
        "Ask again with other words: a file name, an identifier, an error message, a command.",
    );
    // A generation the store no longer has is named, whatever else was found.
    const missing = searchTranscripts(twoGenerations().slice(1), "vault", { ...OPTIONS, missing: [1] });
    expect(missing.text).toContain(
      "The transcripts of generation 1 are not in the store (deleted with flower forget?); they were not searched.",
    );
    expect(searchTranscripts([], "vault", { ...OPTIONS, missing: [1] }).text).toContain(
      "Nothing in generation 1 of this step matches",
    );
  });

  it("leaves out recall's own calls and the recall subagent's transcripts: they only repeat older passages", () => {
    const main = new TranscriptBuilder({ prefix: "r" });
    main.prompt("Go on.");
    const [call] = main.response(null, [
      ok(
        "Agent",
        { subagent_type: "recall", description: "Recall", prompt: "Find the vault path." },
        "From generation 1: vault path secret/ci/X",
      ),
    ]);
    main.response(null, [ok(RECALL_TOOL, { query: "vault" }, "[1] generation 1 … vault path secret/ci/X")]);
    const subagent = subagentTranscript("recall", call!, (t) => {
      t.prompt("Find the vault path.");
      t.response(null, [ok(RECALL_TOOL, { query: "vault" }, "vault path secret/ci/X")]);
    });
    const answer = searchTranscripts(
      [{ generation: 2, main: [main.entries], subagents: [subagent] }],
      "vault path",
      OPTIONS,
    );
    expect(answer.matched).toBe(0);
  });

  it("answers in Chinese, and finds Chinese words without spaces", () => {
    const transcript = new TranscriptBuilder({ prefix: "z" });
    transcript.prompt("部署");
    transcript.response("部署令牌放在 vault 路径 secret/ci/DEPLOY-7731 下。");
    const answer = searchTranscripts(
      [{ generation: 1, main: [transcript.entries], subagents: [] }],
      "令牌路径",
      {
        ...OPTIONS,
        locale: "zh",
      },
    );
    expect(answer.passages[0]!.text).toContain("secret/ci/DEPLOY-7731");
    expect(answer.text).toContain('在这一步第 1 代(你之前的会话)的记录里找 "令牌路径":1 段相符');
    expect(answer.text).toContain("[1] 第 1 代第 1 轮,文字:");
  });
});

describe("queryTerms", () => {
  it("keeps words and whole identifiers, drops stop words, pairs Chinese characters", () => {
    expect(queryTerms("Where is the deploy token? secret/ci/DEPLOY-7731")).toEqual([
      "deploy",
      "token",
      "secret/ci/deploy-7731",
      "secret",
      "ci",
      "7731",
    ]);
    expect(queryTerms("部署令牌")).toEqual(["部署", "署令", "令牌"]);
  });
});

describe("subagentReport", () => {
  it("takes the report out of the binary's hand-back frame", () => {
    const framed =
      "  <tools-used-before-summary>Bash</tools-used-before-summary>\n  \n[Subagent hand-back] The text below is the final report. The report follows:\n  Found it.\n  Second line.\nagentId: a1 (internal)\n<usage>subagent_tokens: 3</usage>";
    expect(subagentReport(framed)).toBe("Found it.\nSecond line.");
    expect(subagentReport("plain report")).toBe("plain report");
  });
});
