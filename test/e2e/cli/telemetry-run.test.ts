/**
 * Issue 34, item 6, through the built `flower`, the real binary and the offline kit:
 * - with no --model and no ANTHROPIC_MODEL, every turn span still names its model (gen_ai.request.model,
 *   gen_ai.response.model): the one the kit's responses named, which is the one the binary asked for;
 *   the generation and the step carry it too (an OTLP/HTTP receiver on 127.0.0.1 decodes the export);
 * - a collector that is down (a closed port) is said once on stderr, naming where the export went and the
 *   error, and the run ends done: in a run long enough for an export in the middle (the kit's last reply
 *   waits for the line) and the exports at the end; and in a one-answer run, in Chinese with --lang zh,
 *   said before the process exits.
 */
import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { OtlpReceiver } from "../../support/otlp-receiver.js";
import { cleanEnv, runFlower, spawnFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A main-thread turn that lists the folder, then the answer; anything else gets the kit's default. */
const listThenAnswer =
  (answer: () => Promise<Reply> | Reply) =>
  (request: ModelRequest): Promise<Reply> | Reply | undefined => {
    if (request.kind !== "main") return undefined;
    if (request.countToolResults("Bash") === 0) return toolUse("Bash", { command: "ls" });
    return answer();
  };

describe("turn spans name the model the session used", () => {
  const receiver = new OtlpReceiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.close());

  it("without --model or ANTHROPIC_MODEL: each turn, its generation and the step carry the kit's model", async () => {
    const model = await startModel({ policy: listThenAnswer(() => text("Two files here.")) });
    const env = cleanEnv({ ...model.env(), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(env.ANTHROPIC_MODEL).toBeUndefined();
    const run = await runFlower(["--direct", "--step", "look", "List the folder"], {
      env,
      cwd: temp.make("flower-telemetry-model-"),
      timeoutMs: 90_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    await receiver.quiet();

    // What the binary asked for, as the kit saw it and named it back in each response.
    const main = model.exchanges.filter((exchange) => exchange.kind === "main");
    const named = [...new Set(main.map((exchange) => exchange.request.model))];
    expect(named).toHaveLength(1);
    const [used] = named as [string];
    expect(used).toMatch(/^claude-/);

    const turns = receiver.spans.filter(
      (span) => span.name.startsWith("turn ") && span.attributes["flower.context.tokens"] !== undefined,
    );
    expect(turns).toHaveLength(main.length);
    const carriers = [
      ...turns,
      ...receiver.spans.filter((span) => span.name === "generation 1" || span.name === "step look"),
    ];
    expect(carriers).toHaveLength(main.length + 2);
    for (const span of carriers)
      expect([
        span.name,
        span.attributes["gen_ai.request.model"],
        span.attributes["gen_ai.response.model"],
      ]).toEqual([span.name, used, used]);
    model.assertNoErrors();
  }, 120_000);
});

describe("a collector that is down", () => {
  const said = /telemetry could not be sent|遥测数据没能发到/g;

  it("is said once on stderr, naming the endpoint and the error, and the run ends done", async () => {
    const port = await closedPort();
    const endpoint = `http://127.0.0.1:${port}`;
    let stderr = "";
    let saidBeforeTheEnd = false;
    // The last reply waits for the line: the export 5 s after the first turn's span ended has failed by
    // then, and the spans and metrics of the rest go out (and fail) when the step ends.
    const model = await startModel({
      policy: listThenAnswer(async () => {
        for (let waited = 0; waited < 45_000 && !stderr.match(said); waited += 100) await sleep(100);
        saidBeforeTheEnd = stderr.match(said) !== null;
        return text("Listed.");
      }),
    });
    const flower = spawnFlower(["--direct", "--step", "look", "List the folder"], {
      env: cleanEnv({ ...model.env(), OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }),
      cwd: temp.make("flower-telemetry-down-"),
      timeoutMs: 120_000,
    });
    flower.child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const run = await flower.done;

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("<= done look");
    expect(saidBeforeTheEnd).toBe(true);
    expect(run.stderr.match(said)).toHaveLength(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      `flower: telemetry could not be sent to ${endpoint}/v1/traces: connect ECONNREFUSED 127.0.0.1:${port}. ` +
        `Runs are not affected; later failed exports are not reported.`,
    ]);
    model.assertNoErrors();
  }, 150_000);

  it("in a one-answer run, is said before the process exits, in the CLI's language (--lang zh)", async () => {
    const port = await closedPort();
    const model = await startModel({
      policy: (request) => (request.kind === "main" ? text("好了。") : undefined),
    });
    const run = await runFlower(["--direct", "--lang", "zh", "--step", "hi", "Say hi"], {
      env: cleanEnv({ ...model.env(), OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }),
      cwd: temp.make("flower-telemetry-down-zh-"),
      timeoutMs: 90_000,
    });
    expect(run.code, run.stderr).toBe(0);
    // The spans and the metrics go out together at the end: the line names whichever failed first.
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^flower: 遥测数据没能发到 http://127\\.0\\.0\\.1:${port}/v1/(traces|metrics): ` +
          `connect ECONNREFUSED 127\\.0\\.0\\.1:${port}。运行不受影响;之后再发不出去,不再提示。$`,
      ),
    );
  }, 120_000);
});
