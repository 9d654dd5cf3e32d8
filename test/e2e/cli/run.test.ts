import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { on, script, text, toolUse, toolUses, type ModelRequest } from "../../../src/testing/index.js";
import { cleanEnv, spawnFlower, runFlower, type Spawned, useCliTest } from "./helpers.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { delegateOnce } from "../../support/delegate.js";

const { temp, startModel } = useCliTest();

const TOKEN = "sk-ant-abcdef123";

/** The coordinator delegates one check to the analyst, who runs one command, then it answers. */
function delegating(request: ModelRequest) {
  if (request.isSubagent) {
    if (request.countToolResults("Bash") === 0) return toolUse("Bash", { command: "echo analyst-was-here" });
    return text(`Analyst: ${request.lastToolResult()?.text.trim()}`);
  }
  return delegateOnce(
    request,
    { subagent_type: "analyst", description: "Check the workspace", prompt: "Run one command and report." },
    "All done: the analyst checked the workspace.",
  );
}

function setUp() {
  const root = temp.make("flower-cli-");
  const workspace = join(root, "ws");
  const runDir = join(root, "runs");
  writeFileSync(join(root, ".keep"), "");
  return { root, workspace, runDir };
}

describe('flower "<task>" against the offline model kit', () => {
  it("-v prints provider, endpoint, model and the key masked to its first 4 characters, never more", async () => {
    const model = await startModel({ policy: delegating });
    const { root, runDir } = setUp();
    const run = await runFlower(
      ["-v", "--direct", "--workspace", root, "--run-dir", runDir, "Check the workspace"],
      {
        env: cleanEnv(model.env({ ANTHROPIC_API_KEY: TOKEN })),
        cwd: root,
        timeoutMs: 45_000,
      },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const header = run.stdout.split("\n").slice(0, 4);
    expect(header).toEqual([
      "provider  Anthropic API",
      `endpoint  ${model.url}`,
      "model     default",
      "auth      sk-a**** (ANTHROPIC_API_KEY)",
    ]);
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toContain(TOKEN);
      expect(output).not.toContain("sk-an");
    }
    expect(run.stdout).toContain("-> analyst started: Check the workspace");
    expect(run.stdout).toContain("All done: the analyst checked the workspace.");
    // The request really went to the endpoint shown, with that token.
    expect(model.requests.length).toBeGreaterThan(0);
    expect(model.requests[0]!.headers["x-api-key"]).toBe(TOKEN);
    model.assertNoErrors();
  });

  it("--json: stdout is one JSON event per line and nothing else", async () => {
    const model = await startModel({ policy: delegating });
    const { root, runDir } = setUp();
    const run = await runFlower(
      [
        "--json",
        "--direct",
        "--model",
        "claude-haiku-4-5",
        "--workspace",
        root,
        "--run-dir",
        runDir,
        "--step",
        "check",
        "Check it",
      ],
      {
        env: cleanEnv(model.env()),
        cwd: root,
        timeoutMs: 45_000,
      },
    );
    expect(run.code).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("step-start");
    expect(types).toContain("context");
    expect(types).toContain("agent");
    expect(types.at(-2)).toBe("step-end");
    expect(events.at(-1)).toMatchObject({
      type: "result",
      status: "done",
      step: "check",
      result: "All done: the analyst checked the workspace.",
    });
    // --model picks the window guess: haiku → 200K.
    expect(events.find((event) => event.type === "context")).toMatchObject({ window: 200_000, at: 150_000 });
    expect(model.requests[0]!.model).toBe("claude-haiku-4-5");
  });
});

/** ~3.3k chars: under the spill threshold, so reading it grows the coordinator's context. */
function notes(workspace: string, count: number): void {
  for (let n = 1; n <= count; n++) {
    const body = Array.from(
      { length: 30 },
      (_, i) => `Note ${n} line ${i}: ${"the quick brown fox jumps over the lazy dog ".repeat(2)}`,
    );
    writeFileSync(join(workspace, `note-${n}.md`), `# NOTE-${n}\n${body.join("\n")}\n`);
  }
}

const HANDOFF = handoffMarkdown({
  doing: "GEN-1: reading the notes in batches.",
  next: ["Read the remaining notes."],
});

/** The successor's turns answer slowly, so a Ctrl-C lands while the model is answering. */
const SLOW_READ = { ...toolUse("Read", { file_path: "note-1.md" }), delayMs: 400 };

/** Reads the notes six at a time until the handoff; the successor reads slowly; `continue` finishes. */
function readingNotes(request: ModelRequest) {
  if (request.isSubagent) return text("unused");
  if (request.isHandoffTurn) return text(HANDOFF);
  if (request.lastUserText().includes("Continue the task."))
    return text("Resumed on the successor and finished.");
  if (request.firstUserText().includes("GEN-1")) return SLOW_READ;
  const read = request.countToolResults("Read");
  return toolUses(
    Array.from({ length: 6 }, (_, i) => ({
      name: "Read",
      input: { file_path: `note-${read + i + 1}.md` },
    })),
  );
}

describe("Ctrl-C and flower continue", () => {
  it("SIGINT stops at a message boundary (exit 130); continue resumes the successor session", async () => {
    const first: { spawned?: Spawned } = {};
    const policy = script(
      [
        on(
          {
            when: (request) => request.firstUserText().includes("GEN-1"),
            label: "the successor's first turn",
          },
          () => {
            // Ctrl-C arrives while the model is answering.
            first.spawned?.child.kill("SIGINT");
            return SLOW_READ;
          },
        ),
      ],
      { otherwise: readingNotes },
    );
    const model = await startModel({ policy });
    const { root, runDir } = setUp();
    notes(root, 60);
    const env = cleanEnv(model.env());
    first.spawned = spawnFlower(
      [
        "--direct",
        "--window",
        "100000",
        "--workspace",
        root,
        "--run-dir",
        runDir,
        "--step",
        "long job",
        "Read all notes.",
      ],
      {
        env,
        cwd: root,
        timeoutMs: 50_000,
      },
    );
    const stopped = await first.spawned.done;
    expect(stopped.timedOut).toBe(false);
    expect(stopped.code).toBe(130);
    expect(stopped.stdout).toContain("<- new session starts from the handoff");
    expect(stopped.stdout).toContain("flower continue 'long job'");
    policy.assertComplete();

    const manifest = (): StepRecord =>
      (JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile).steps["long job"]!;
    const before = manifest();
    expect(before.status).toBe("stopped");
    expect(before.retired).toHaveLength(1);
    const successor = before.sessionId!;
    expect(successor).toBeTruthy();
    expect(before.retired).not.toContain(successor);

    const requestsBefore = model.requests.length;
    const resumed = await runFlower(["continue", "--workspace", root, "--run-dir", runDir], {
      env,
      cwd: root,
      timeoutMs: 45_000,
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Resumed on the successor and finished.");
    const firstResumed = model.requests.slice(requestsBefore).find((request) => request.kind === "main")!;
    expect(firstResumed.sessionId).toBe(successor);
    // It carries the successor's history (the handoff it started from), not the burned generation's.
    expect(firstResumed.allText()).toContain("GEN-1");
    expect(firstResumed.allText()).not.toContain("Note 1 line 0");
    const after = manifest();
    expect(after.status).toBe("done");
    expect(after.sessionId).toBe(successor);
    expect(after.generations).toBe(2);
    model.assertNoErrors();
  });
});
