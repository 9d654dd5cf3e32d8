/**
 * Recall over the real stores (issue 35): the step's earlier generations, named by its record, are read
 * from SQLite and from PostgreSQL through the runtime's own stack (the rewrite layers over the redacting
 * layer over the backend), searched and answered with where each passage came from. The rows are read as
 * written, below the passes a resume gets (an expired glance result is still its output); a secret that
 * reached a row without the redacting layer (a user's adapter, an older store) is still redacted in the
 * answer; a generation the store no longer has is named.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { earlierGenerations } from "../../../src/records/earlier-generations.js";
import type { StepRecord } from "../../../src/records/step-record.js";
import { recallSearch } from "../../../src/runtime/session/recall-access.js";
import { PruningSessionStore } from "../../../src/session-layers/pruning-store.js";
import { RedactingSessionStore } from "../../../src/session-layers/redacting-store.js";
import { SecretRedactor } from "../../../src/secret-redactor.js";
import { TranscriptBuilder } from "../../unit/session-layers/transcript-fixtures.js";
import { BACKEND_NAMES, useStoreBackends } from "../storage/store-backends.js";

const backends = useStoreBackends();
const workspace = mkdtempSync(join(tmpdir(), "flower-recall-"));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const KEY = "sk-ant-api03-RECALLINTEG-Lp09Ok87";
const redactor = new SecretRedactor([{ name: "ANTHROPIC_API_KEY", value: KEY }]);
const PROJECT = "-repo";

/** The parts of a step record recall reads: three generations, the first with a failed fresh start. */
function record(): Pick<StepRecord, "history" | "failures"> {
  const generation = (number: number, sessionId: string) =>
    ({ generation: number, sessionId }) as StepRecord["history"][number];
  return {
    history: [generation(1, "s-1b"), generation(2, "s-2"), generation(3, "s-3")],
    failures: [
      { attempt: 1, generation: 1, sessionId: "s-1a", reason: "never answered", at: "2026-01-01T00:00:00Z" },
    ],
  };
}

/** A listing longer than the notice that replaces it (an expiry never puts in more than was there). */
const LS_DEPLOY = ["deploy.sh", "vault.hcl", ...Array.from({ length: 20 }, (_, i) => `stage-${i}.sh`)].join(
  "\n",
);

describe.each(BACKEND_NAMES)("recall over the %s store", (name) => {
  it("answers with the earlier generations' passages, where they came from, redacted, below the passes", async () => {
    const backend = await backends[name].open();
    const store = new PruningSessionStore({
      inner: new RedactingSessionStore(backend.store, redactor),
      workspace,
      keepEphemeral: 0,
    });

    // Generation 1, the session of its retry: `ls` (a glance) and a subagent that finds the vault path.
    const first = new TranscriptBuilder({ prefix: "g1" });
    first.prompt("Set up the deploy.");
    first.response(null, [
      { name: "Bash", input: { command: "ls deploy" }, result: "ok", output: LS_DEPLOY },
    ]);
    const [call] = first.response(null, [
      {
        name: "Agent",
        input: { subagent_type: "analyst", description: "Find token", prompt: "Find the deploy token." },
        result: "ok",
        output: "Found it.",
      },
    ]);
    await store.append({ projectKey: PROJECT, sessionId: "s-1b" }, first.entries);
    const worker = new TranscriptBuilder({ prefix: "w1", agentId: "a-1" });
    worker.entries.push({ type: "agent_metadata", agentType: "analyst", toolUseId: call! });
    worker.prompt("Find the deploy token.");
    worker.response(null, [
      {
        name: "Bash",
        input: { command: "vault kv get secret/ci/DEPLOY-7731" },
        result: "ok",
        output: `the deploy token lives in vault path secret/ci/DEPLOY-7731\nVAULT_KEY=${KEY}`,
      },
    ]);
    await store.append(
      { projectKey: PROJECT, sessionId: "s-1b", subpath: "subagents/agent-a-1" },
      worker.entries,
    );

    // Generation 2, written straight to the backend: no redacting layer saw it.
    const second = new TranscriptBuilder({ prefix: "g2" });
    second.prompt("Go on.");
    second.response(`Checked the vault again with key ${KEY}: the path still is secret/ci/DEPLOY-7731.`);
    await backend.store.append({ projectKey: PROJECT, sessionId: "s-2" }, second.entries);
    // The stored rows really hold the secret for generation 2 (and not for generation 1).
    const rows = JSON.stringify(await backend.rows());
    expect(rows.split(KEY).length - 1).toBe(1);

    // A resume's load expires the glance result (keepEphemeral 0) ...
    const resumed = await store.load({ projectKey: PROJECT, sessionId: "s-1b" });
    const fed = resumed!.map((entry) => JSON.stringify(entry["message"] ?? null)).join("\n");
    expect(fed).toContain("The result of `ls deploy` has expired");
    expect(fed).not.toContain("vault.hcl");

    const search = recallSearch(store, earlierGenerations(record(), 3), "en", (text) => redactor.text(text));
    const answer = await search("deploy token vault path");
    expect(answer).toMatch(/^Searched generations 1–2 of this step/);
    expect(answer).toContain(
      '[1] generation 1, turn 2, worker "analyst", result of Bash (vault kv get secret/ci/DEPLOY-7731):\n' +
        "the deploy token lives in vault path secret/ci/DEPLOY-7731\nVAULT_KEY=[redacted ANTHROPIC_API_KEY]",
    );
    expect(answer).toContain(
      "generation 2, turn 1, text:\nChecked the vault again with key [redacted ANTHROPIC_API_KEY]: the path still is secret/ci/DEPLOY-7731.",
    );
    expect(answer).not.toContain(KEY);
    // ... recall reads the rows as written: the `ls` output is there.
    expect(await search("vault.hcl")).toContain(
      "generation 1, turn 1, result of Bash (ls deploy):\ndeploy.sh\nvault.hcl",
    );
    // Searching generation 3's successors: generation 3 is not written yet, so "before 3" is 1 and 2 only;
    // a generation whose sessions the store does not have is named.
    const later = recallSearch(store, earlierGenerations(record(), 4), "en", (text) => redactor.text(text));
    expect(await later("vault")).toContain(
      "The transcripts of generation 3 are not in the store (deleted with flower forget?); they were not searched.",
    );
  });
});

describe("earlierGenerations", () => {
  it("lists the generations before the current one with every session each ran, oldest first", () => {
    expect(earlierGenerations(record(), 3)).toEqual([
      { generation: 1, sessionIds: ["s-1a", "s-1b"] },
      { generation: 2, sessionIds: ["s-2"] },
    ]);
    expect(earlierGenerations(record(), 1)).toEqual([]);
  });
});
