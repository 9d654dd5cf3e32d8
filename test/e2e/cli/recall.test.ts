/**
 * Recall (issue 35) through the built `flower`, the real `claude` binary and the offline kit: the first
 * generation's analyst finds where the deploy token lives (its Bash output also prints the API key);
 * the handoff leaves the path out; the successor is told it can recall, sends the `recall` subagent, whose
 * one tool searches generation 1's transcript in the step's store and answers with the passage, its
 * generation and turn, the key redacted; the successor then has the engineer write the path to a file.
 * The first generation has no recall: nothing earlier to search. On the local SQLite store and on a shared
 * PostgreSQL store alike.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile } from "../../../src/public/stores.js";
import { text, toolUse, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { cleanEnv, runFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

const RECALL_TOOL = "mcp__flower__recall";
const KEY = "sk-ant-api03-RECALLE2E-Hy67Gt54Fr";
const VAULT_PATH = "secret/ci/DEPLOY-7731";
const PATH_PATTERN = /secret\/ci\/DEPLOY-\d+/;

/** The handoff as the first generation writes it: the task and the next step, not the path. */
const HANDOFF = handoffMarkdown({
  doing: "GEN-1: setting up the deploy; the analyst found where the deploy token is kept.",
  decided: ["The token is read from vault, because CI has no other secret store."],
  next: ["Write the deploy token's vault path into deploy.txt."],
  scene: ["`deploy.txt` — where the path goes"],
});

interface Seen {
  firstGenerationTools: string[][];
  successorPrompt: string | null;
  successorTools: string[];
  recallWorkerTools: string[];
  otherWorkerTools: string[][];
  recallAnswer: string | null;
  /** The whole request (the binary lists the subagents in it), first generation and successor. */
  body: { first: string; successor: string };
}

function policy(seen: Seen, workspace: string) {
  return (request: ModelRequest) => {
    if (request.isSubagent) {
      if (request.toolNames.includes(RECALL_TOOL)) {
        // The recall subagent: one search, then the passage it found, quoted.
        seen.recallWorkerTools = request.toolNames;
        if (request.countToolResults(RECALL_TOOL) === 0)
          return toolUse(RECALL_TOOL, { query: "deploy token vault path" });
        seen.recallAnswer = request.lastToolResult()!.text;
        const line = seen.recallAnswer.split("\n").find((candidate) => PATH_PATTERN.test(candidate));
        return text(`From generation 1: ${line ?? "nothing found"}`);
      }
      seen.otherWorkerTools.push(request.toolNames);
      const brief = request.firstUserText();
      if (brief.includes("deploy.txt")) {
        // The engineer writes what the successor learned.
        if (request.countToolResults("Bash") === 0) {
          const path = PATH_PATTERN.exec(brief)?.[0] ?? "unknown";
          return toolUse("Bash", { command: `printf '%s\\n' '${path}' > deploy.txt` });
        }
        return text("Wrote deploy.txt.");
      }
      // The analyst: the path and, beside it, the key (a credential in a tool result).
      if (request.countToolResults("Bash") === 0)
        return toolUse("Bash", { command: 'cat ci/vault.txt; echo "vault login key: $ANTHROPIC_API_KEY"' });
      // Its report names no path: only the transcript has it.
      return text("Found where the deploy token is kept (vault).");
    }
    if (request.isHandoffTurn) return text(HANDOFF);
    if (request.firstUserText().includes("GEN-1")) {
      seen.successorPrompt ??= request.firstUserText();
      seen.successorTools = request.toolNames;
      seen.body.successor = JSON.stringify(request.body);
      const done = request.countToolResults();
      if (done === 0)
        return toolUse("Agent", {
          subagent_type: "recall",
          description: "Recall the vault path",
          prompt: "Find the vault path of the deploy token that generation 1's analyst found.",
        });
      if (done === 1) {
        const path = PATH_PATTERN.exec(request.lastToolResult()!.text)?.[0] ?? "not recalled";
        return toolUse("Agent", {
          subagent_type: "engineer",
          description: "Write deploy.txt",
          prompt: `Write the vault path ${path} into deploy.txt (one line).`,
        });
      }
      return text("Done: deploy.txt holds the deploy token's vault path.");
    }
    seen.firstGenerationTools.push(request.toolNames);
    seen.body.first = JSON.stringify(request.body);
    if (request.countToolResults() === 0)
      return toolUse("Agent", {
        subagent_type: "analyst",
        description: "Find the deploy token",
        prompt: "Find where the deploy token is kept.",
      });
    // Crosses the handoff line (window 100K, handoff at 50K).
    return { ...toolUse("Read", { file_path: join(workspace, "small.txt") }), outputTokens: 70_000 };
  };
}

const server = usePostgresServer();

describe("recall", () => {
  it.each(["sqlite", "postgres"] as const)(
    "%s store: the successor sends the recall worker, gets the passage with its generation and turn, redacted, and acts on it",
    async (store) => {
      const root = temp.make("flower-recall-");
      const runDir = join(root, "runs");
      writeFileSync(join(root, "small.txt"), "small\n");
      mkdirSync(join(root, "ci"));
      writeFileSync(join(root, "ci", "vault.txt"), `the deploy token lives in vault path ${VAULT_PATH}\n`);
      const seen: Seen = {
        firstGenerationTools: [],
        successorPrompt: null,
        successorTools: [],
        recallWorkerTools: [],
        otherWorkerTools: [],
        recallAnswer: null,
        body: { first: "", successor: "" },
      };
      const model = await startModel({ policy: policy(seen, root) });
      const run = await runFlower(
        [
          "--direct",
          "--window",
          "100000",
          "--workspace",
          root,
          "--run-dir",
          runDir,
          ...(store === "postgres" ? ["--store", `${server().url}?schema=${freshSchema("recall")}`] : []),
          "--step",
          "deploy",
          "Set up the deploy",
        ],
        { env: cleanEnv(model.env({ ANTHROPIC_API_KEY: KEY })), cwd: root, timeoutMs: 150_000 },
      );
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      model.assertNoErrors();

      // The successor acted on what it recalled.
      expect(readFileSync(join(root, "deploy.txt"), "utf8")).toBe(`${VAULT_PATH}\n`);

      // The handoff left the path out; the successor was told it can recall, and how.
      const record = (JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile).steps[
        "deploy"
      ]!;
      expect(record.generations).toBe(2);
      const handoff = readFileSync(record.handoffs[0]!, "utf8");
      expect(handoff).not.toContain(VAULT_PATH);
      expect(seen.successorPrompt).not.toContain(VAULT_PATH);
      expect(seen.successorPrompt).toContain(
        "Recall: the transcripts of the generations before you are kept. When you need a detail this handoff does not have",
      );
      expect(seen.successorPrompt).toContain('send the "recall" worker with what you are looking for');

      // The answer: the passage, from generation 1, its turn and subagent, the key redacted.
      const answer = seen.recallAnswer!;
      expect(answer).toMatch(
        /^Searched generation 1 of this step \(the sessions before yours\) for "deploy token vault path"/,
      );
      expect(answer).toContain(
        `[1] generation 1, turn 1, worker "analyst", result of Bash (cat ci/vault.txt; echo "vault login key: $ANTHROPIC_API_KEY"):\n` +
          `the deploy token lives in vault path ${VAULT_PATH}\nvault login key: [redacted ANTHROPIC_API_KEY]`,
      );
      expect(answer).not.toContain(KEY);
      expect(answer.length).toBeLessThanOrEqual(4_000);
      // Read from the step's own store: with a shared one, there is no local sessions.db at all.
      expect(existsSync(join(runDir, "sessions.db"))).toBe(store === "sqlite");

      // Read-only: the recall subagent's tools are the search (and Read); the other subagents never see it.
      expect(seen.recallWorkerTools.filter((name) => name !== "DeferredToolPlaceholder").sort()).toEqual([
        "Read",
        RECALL_TOOL,
      ]);
      expect(seen.otherWorkerTools.length).toBeGreaterThan(0);
      for (const tools of seen.otherWorkerTools) expect(tools).not.toContain(RECALL_TOOL);
      // Only a successor has it: the first generation had nothing earlier to search.
      expect(seen.successorTools).toContain(RECALL_TOOL);
      expect(seen.firstGenerationTools.length).toBeGreaterThan(0);
      for (const tools of seen.firstGenerationTools) expect(tools).not.toContain(RECALL_TOOL);
      const listed = "Recall: searches this step's earlier generations' transcripts";
      expect(seen.body.first).toContain("Analyst: reads, searches");
      expect(seen.body.first).not.toContain(listed);
      expect(seen.body.successor).toContain(listed);
    },
    180_000,
  );
});
