import { describe, expect, it } from "vitest";
import { on, script, text, toolUse, type FakeModel } from "../../src/testing/index.js";
import { useTempDirs } from "../support/temp-dir.js";
import { runQuery, useModels } from "./sdk-session.js";

const temp = useTempDirs();
const startModel = useModels();
let model: FakeModel | undefined;

describe("a scripted model through the real claude binary", () => {
  it("plays a conversation with a subagent in order and is used up exactly", async () => {
    const policy = script([
      toolUse("Agent", {
        description: "run the probe",
        prompt: "Run the probe and report what it printed.",
        subagent_type: "general-purpose",
        // In the background the main thread would go on at once: the per-kind queues allow that, but
        // this test is about the order of one conversation.
        run_in_background: false,
      }),
      on("subagent", toolUse("Bash", { command: "echo probe-$((6*7))" })),
      on("subagent", (request) => text(`probe said ${request.lastToolResult()?.text.trim()}`)),
      (request) => text(`lead heard: ${request.lastToolResult()?.text.trim()}`),
    ]);
    model = await startModel({ policy });
    // A subagent turn is slow in this CLI (its first report comes after a 30 s heartbeat on a busy machine).
    const run = await runQuery(model, "Delegate the probe.", temp.make(), {}, 80_000);
    expect(run.thrown).toBeUndefined();
    const result = run.results.at(-1)!;
    // The CLI wraps the subagent's report in a hand-back note; the report itself is in there.
    expect("result" in result ? result.result : "").toMatch(/^lead heard: [\s\S]*probe said probe-42/);
    expect(model.exchanges.filter((e) => e.kind === "subagent")).toHaveLength(2);
    model.assertNoErrors();
    policy.assertComplete();
  }, 90_000);

  it("fails the run when the model is called past the script, naming the request", async () => {
    const policy = script([toolUse("Bash", { command: "echo one" })]);
    model = await startModel({ policy });
    const run = await runQuery(model, "Run one command.", temp.make());
    expect(run.results.at(-1)?.is_error).toBe(true);
    expect(() => model!.assertNoErrors()).toThrow(
      /^script: request #1 \(main\) came after all 1 steps were used; last user text: ""$/,
    );
    // The CLI retries a 400 after a tool result a few times before it gives up: each retry is named too.
    expect(() => policy.assertComplete()).toThrow(
      /^script: no step was left for request #1 \(main\)(, request #\d+ \(main\))*$/,
    );
  });

  it("assertComplete names the replies a run left unused", async () => {
    const policy = script([text("short answer"), text("an answer nobody asked for")]);
    model = await startModel({ policy });
    const run = await runQuery(model, "Answer briefly.", temp.make());
    expect(run.thrown).toBeUndefined();
    model.assertNoErrors();
    expect(() => policy.assertComplete()).toThrow(
      'script: 1 of 2 steps was never used: step 2 (main): text "an answer nobody asked for"',
    );
  });
});
