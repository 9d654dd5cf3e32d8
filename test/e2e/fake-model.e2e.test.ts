import { describe, expect, it } from "vitest";
import { fault, text, toolUse, type FakeModel } from "../../src/testing/index.js";
import { useTempDirs } from "../support/temp-dir.js";
import { runQuery, useModels } from "./sdk-session.js";

const temp = useTempDirs();
const startModel = useModels();
let model: FakeModel | undefined;

describe("offline model kit through the real claude binary", () => {
  it("answers a plain text turn and reports usage measured from the request", async () => {
    model = await startModel({ policy: () => text("Hello from the offline kit.") });
    const dir = temp.make();
    const run = await runQuery(model, "Say hello.", dir);
    expect(run.thrown).toBeUndefined();
    const result = run.results.at(-1)!;
    expect(result.subtype).toBe("success");
    expect(result.type === "result" && "result" in result ? result.result : "").toBe(
      "Hello from the offline kit.",
    );
    const main = model.exchanges.filter((e) => e.kind === "main");
    expect(main).toHaveLength(1);
    const usage = main[0]!.usage!;
    // The CLI's system prompt and tool list alone are tens of thousands of characters.
    expect(usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens).toBe(
      main[0]!.promptTokens,
    );
    expect(main[0]!.promptTokens).toBeGreaterThan(1000);
    model.assertNoErrors();
  });

  it("runs a real Bash tool call and shows its real output in the next request, mostly from cache", async () => {
    model = await startModel({
      policy: (request) =>
        request.countToolResults("Bash") === 0
          ? toolUse("Bash", { command: "echo kit-$((6*7))", description: "probe" }, { text: "Running it." })
          : text(`The command printed: ${request.lastToolResult()?.text ?? "?"}`),
    });
    const dir = temp.make();
    const run = await runQuery(model, "Run the probe.", dir);
    expect(run.thrown).toBeUndefined();
    const second = model.exchanges.filter((e) => e.kind === "main")[1]!;
    expect(second.request.lastToolResult()?.text.trim()).toBe("kit-42");
    // The second request shares the whole first request as its prefix: a real cache hit.
    const usage = second.usage!;
    expect(usage.cache_read_input_tokens / second.promptTokens).toBeGreaterThan(0.8);
  });

  it("drives a subagent started with the Agent tool, and tells it apart from the main thread", async () => {
    model = await startModel({
      policy: (request) => {
        if (request.isSubagent) return text("SUBAGENT-REPORT: 3 files");
        if (request.countToolResults("Agent") === 0) {
          return toolUse("Agent", {
            description: "count files",
            prompt: "Count the files and report.",
            subagent_type: "general-purpose",
            run_in_background: false,
          });
        }
        return text(`Worker said: ${request.lastToolResult()?.text ?? ""}`);
      },
    });
    const dir = temp.make();
    const run = await runQuery(model, "Delegate the count.", dir);
    expect(run.thrown).toBeUndefined();
    expect(model.exchanges.some((e) => e.kind === "subagent")).toBe(true);
    const last = model.exchanges.filter((e) => e.kind === "main").at(-1)!;
    expect(last.request.lastToolResult()?.text).toContain("SUBAGENT-REPORT: 3 files");
    model.assertNoErrors();
  });

  it("retries a 529 by the CLI itself and then succeeds", async () => {
    model = await startModel({
      policy: (request) => (request.index === 0 ? fault("overloaded") : text("recovered")),
    });
    const dir = temp.make();
    const run = await runQuery(model, "Hi.", dir);
    expect(run.thrown).toBeUndefined();
    expect(model.exchanges.map((e) => e.status)).toEqual([529, 200]);
    expect(run.messages.some((m) => m.type === "system" && m.subtype === "api_retry")).toBe(true);
  });

  it("cuts a stream mid-way; the CLI retries the whole request", async () => {
    model = await startModel({
      policy: (request) => (request.index === 0 ? fault("cut-stream") : text("whole answer")),
    });
    const dir = temp.make();
    const run = await runQuery(model, "Hi.", dir);
    expect(run.thrown).toBeUndefined();
    const result = run.results.at(-1)!;
    expect("result" in result ? result.result : "").toBe("whole answer");
    expect(model.requests.length).toBe(2);
  });

  it("answers prompt-is-too-long with the real API's 400 shape", async () => {
    model = await startModel({ policy: () => fault("prompt-too-long") });
    const dir = temp.make();
    const run = await runQuery(model, "Hi.", dir, {
      env: {
        ...process.env,
        ...(await Promise.resolve(model.env())),
        DISABLE_AUTO_COMPACT: "1",
        CLAUDE_CODE_MAX_RETRIES: "0",
      },
    });
    const result = run.results.at(-1)!;
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result)).toMatch(/prompt is too long/i);
  });

  it("turns a throwing policy into a clear error, not a hang", async () => {
    model = await startModel({
      policy: () => {
        throw new Error("script ran out of steps");
      },
    });
    const dir = temp.make();
    const run = await runQuery(model, "Hi.", dir);
    expect(run.results.at(-1)?.is_error).toBe(true);
    expect(() => model!.assertNoErrors()).toThrow(
      /policy threw on request #0 \(main\): Error: script ran out of steps/,
    );
  });

  it("rejects an unknown block type in a reply with a message that names it", async () => {
    model = await startModel({ policy: () => ({ content: [{ type: "image", source: {} }] }) as never });
    const dir = temp.make();
    await runQuery(model, "Hi.", dir);
    expect(() => model!.assertNoErrors()).toThrow(/unknown block type "image"/);
  });
});

describe("the kit's validation of what the CLI sends", () => {
  it("rejects a real CLI request whose tool_result was removed, with the API's 400 error shape", async () => {
    model = await startModel({
      policy: (request) =>
        request.countToolResults() === 0 ? toolUse("Bash", { command: "echo pair" }) : text("done"),
    });
    const dir = temp.make();
    await runQuery(model, "Run it.", dir);
    const real = model.requests[1]!.body;
    // The CLI repairs broken pairings itself when it resumes, so the broken transcript is made here:
    // the exact request the binary sent, minus its tool_result.
    const broken = structuredClone(real);
    for (const message of broken.messages) {
      if (Array.isArray(message.content))
        message.content = message.content.filter((b) => b.type !== "tool_result");
    }
    broken.messages = broken.messages.filter((m) => typeof m.content === "string" || m.content.length > 0);
    const response = await fetch(`${model.url}/v1/messages?beta=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(broken),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe("error");
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toMatch(
      /`tool_use` ids were found without `tool_result` blocks immediately after: toolu_fake_\d+/,
    );
    // The unbroken original is accepted when replayed.
    const replay = await fetch(`${model.url}/v1/messages?beta=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...real, stream: false }),
    });
    expect(replay.status).toBe(200);
  });

  it("answers side requests, token counts and slow replies over plain HTTP", async () => {
    model = await startModel({
      policy: (request) => (request.kind === "title" ? undefined : text("slow hello", { delayMs: 300 })),
    });
    const post = (path: string, body: unknown) =>
      fetch(`${model!.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const title = await post("/v1/messages", {
      model: "m",
      stream: false,
      tools: [],
      output_config: { format: { type: "json_schema" } },
      messages: [{ role: "user", content: "name this session" }],
    });
    expect(((await title.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe(
      '{"title":"Offline session"}',
    );
    const count = await post("/v1/messages/count_tokens", {
      model: "m",
      messages: [{ role: "user", content: "x".repeat(400) }],
    });
    expect(((await count.json()) as { input_tokens: number }).input_tokens).toBeGreaterThanOrEqual(100);
    const started = Date.now();
    const slow = await post("/v1/messages", {
      model: "m",
      stream: false,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(((await slow.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe("slow hello");
  });
});
