/**
 * Issue 27: telemetry off costs nothing. A step runs through the real binary in a process of its own
 * whose every ESM resolution is recorded (a loader hook) and whose CommonJS cache is listed at the end:
 * with no OTEL_* variable set, not one OpenTelemetry module may be among them. The same process with a
 * collector named is the control: there the SDK is loaded, so the check can fail. With
 * FLOWER_OTEL_CONTENT=1 the task is exported, redacted.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OtlpReceiver } from "../support/otlp-receiver.js";
import { runProcess } from "../support/run-node.js";
import { useTempDirs } from "../support/temp-dir.js";

const temp = useTempDirs();
const ROOT = resolve(import.meta.dirname, "..", "..");
const FIXTURE = join(ROOT, "test", "e2e", "fixtures", "telemetry-step.mjs");
const HOOKS = join(ROOT, "test", "support", "record-imports.mjs");

/** process.env without anything that would switch telemetry on, or reach a real provider. */
function quietEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("OTEL_") || key.startsWith("ANTHROPIC_") || key.startsWith("CLAUDE_")) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

async function loaded(extra: Record<string, string>): Promise<{ modules: string[]; status: string }> {
  const log = join(temp.make("flower-imports-"), "imports.log");
  const run = await runProcess(process.execPath, ["--import", HOOKS, FIXTURE], {
    cwd: ROOT,
    env: quietEnv({ ...extra, FLOWER_IMPORTS_LOG: log }),
    timeoutMs: 90_000,
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const output = JSON.parse(run.stdout) as { status: string; cjs: string[] };
  const esm = readFileSync(log, "utf8").split("\n").filter(Boolean);
  return { modules: [...esm, ...output.cjs], status: output.status };
}

const receiver = new OtlpReceiver();
afterAll(() => receiver.close());

describe("telemetry in a process of its own: what it loads, what it exports", () => {
  it("off (no OTEL_* variable): no OpenTelemetry module is loaded, not even the API", async () => {
    const { modules, status } = await loaded({});
    expect(status).toBe("done");
    // The recording works: the runtime's own modules are in it.
    expect(modules.some((url) => url.endsWith("/dist/runtime/runtime.js"))).toBe(true);
    expect(modules.filter((url) => url.includes("@opentelemetry"))).toEqual([]);
    // Only the SDK's side of telemetry stays out: settings and the hook carry no OpenTelemetry import.
    expect(modules.some((url) => url.endsWith("/dist/telemetry/otel-sink.js"))).toBe(false);
  }, 120_000);

  it("on (OTEL_EXPORTER_OTLP_ENDPOINT): the SDK is loaded and the step's spans reach the collector", async () => {
    await receiver.start();
    const { modules, status } = await loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(status).toBe("done");
    expect(modules.some((url) => url.includes("@opentelemetry/sdk-trace"))).toBe(true);
    expect(receiver.spans.map((span) => span.name)).toEqual(
      expect.arrayContaining(["step hello", "generation 1", "turn 1"]),
    );
  }, 120_000);

  it("with FLOWER_OTEL_CONTENT=1 the task goes on the step's span, its credentials redacted", async () => {
    const before = receiver.spans.length;
    await loaded({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      FLOWER_OTEL_CONTENT: "1",
      FLOWER_TEST_TASK: "Say hello; the key is sk-fake-offline-kit.",
    });
    const step = receiver.spans.slice(before).find((span) => span.name === "step hello")!;
    expect(step.attributes["flower.prompt"]).toBe("Say hello; the key is [redacted ANTHROPIC_API_KEY].");
    expect(JSON.stringify(receiver.requests)).not.toContain("sk-fake-offline-kit");
  }, 120_000);
});
