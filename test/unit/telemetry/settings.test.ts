import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { claudeTelemetryEnv } from "../../../src/telemetry/child-env.js";
import { resolveTelemetry } from "../../../src/telemetry/settings.js";

describe("resolveTelemetry: off by default, switched on the standard way", () => {
  it("is off with no option and no OTEL_* variable", () => {
    expect(resolveTelemetry(undefined, {})).toBeNull();
    expect(resolveTelemetry(undefined, { OTEL_SERVICE_NAME: "x" })).toBeNull();
  });

  it("is on when the environment names a collector or an OTLP exporter", () => {
    const on = resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" });
    expect(on).toMatchObject({
      endpoint: "http://collector:4318",
      tracesUrl: "http://collector:4318/v1/traces",
      metricsUrl: "http://collector:4318/v1/metrics",
      serviceName: "flower",
      traces: true,
      metrics: true,
      content: false,
      claude: true,
    });
    expect(resolveTelemetry(undefined, { OTEL_TRACES_EXPORTER: "otlp" })?.endpoint).toBe(
      "http://localhost:4318",
    );
  });

  it("follows OTEL_SDK_DISABLED, signals set to none, signal endpoints, headers and FLOWER_OTEL_CONTENT", () => {
    expect(
      resolveTelemetry(undefined, { OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" }),
    ).toBeNull();
    const endpoint = "http://c:4318";
    expect(
      resolveTelemetry(undefined, {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_TRACES_EXPORTER: "none",
        OTEL_METRICS_EXPORTER: "none",
      }),
    ).toBeNull();
    const on = resolveTelemetry(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_METRICS_EXPORTER: "none",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
      OTEL_EXPORTER_OTLP_HEADERS: "x-honeycomb-team=abc%3D,empty",
      OTEL_SERVICE_NAME: "nightly",
      FLOWER_OTEL_CONTENT: "1",
    });
    expect(on).toMatchObject({
      traces: true,
      metrics: false,
      tracesUrl: "https://traces.example/otlp",
      headers: { "x-honeycomb-team": "abc=" },
      serviceName: "nightly",
      content: true,
    });
  });

  it("lets the option win over the environment, both ways", () => {
    expect(resolveTelemetry(false, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toBeNull();
    expect(resolveTelemetry(true, {})?.endpoint).toBe("http://localhost:4318");
    expect(resolveTelemetry({ enabled: false }, {})).toBeNull();
    const given = resolveTelemetry(
      { endpoint: "http://mine:4318", serviceName: "s", content: true },
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://theirs:4318",
      },
    );
    expect(given).toMatchObject({ endpoint: "http://mine:4318", serviceName: "s", content: true });
  });

  it.each([
    ["yes", /Invalid option telemetry: got "yes", expected a boolean or/],
    [{ endpont: "http://x" }, /Invalid option telemetry\.endpont: got "http:\/\/x", expected a known field/],
    [
      { endpoint: "collector:4318" },
      /Invalid option telemetry\.endpoint: got "collector:4318", expected an http/,
    ],
    [{ content: "1" }, /Invalid option telemetry\.content: got "1", expected a boolean/],
    [{ serviceName: "" }, /Invalid option telemetry\.serviceName: got "", expected a non-empty string/],
  ])("refuses %j, naming the value", (option, message) => {
    expect(() => resolveTelemetry(option as never, {})).toThrow(ConfigurationError);
    expect(() => resolveTelemetry(option as never, {})).toThrow(message);
  });

  it("names the variable a bad value came from", () => {
    expect(() => resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "localhost:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: got "localhost:4318"/,
    );
    expect(() =>
      resolveTelemetry(undefined, { OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL: got "grpc", expected one of http\/json, http\/protobuf/);
  });
});

describe("claudeTelemetryEnv: the child's telemetry tied to flower's run, step and generation", () => {
  const settings = resolveTelemetry(true, {})!;

  it("switches the binary's export on and tags it; the user's values stay", () => {
    const env = claudeTelemetryEnv(
      settings,
      { OTEL_RESOURCE_ATTRIBUTES: "team=night" },
      {
        run: "r,1",
        step: "r,1/work",
        generation: 2,
      },
    );
    expect(env).toEqual({
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_METRICS_EXPORTER: "otlp",
      OTEL_LOGS_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://localhost:4318",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_RESOURCE_ATTRIBUTES: "team=night,flower.step=r%2C1%2Fwork,flower.generation=2,flower.run=r%2C1",
    });
    const theirs = claudeTelemetryEnv(
      settings,
      { CLAUDE_CODE_ENABLE_TELEMETRY: "0" },
      {
        run: null,
        step: "s",
        generation: 1,
      },
    );
    expect(theirs.CLAUDE_CODE_ENABLE_TELEMETRY).toBe("0");
    expect(theirs.OTEL_RESOURCE_ATTRIBUTES).toBe("flower.step=s,flower.generation=1");
  });

  it("never turns on the binary's prompt or tool-detail logging, and gives nothing when told not to join", () => {
    const env = claudeTelemetryEnv(
      { ...settings, content: true },
      {},
      { run: null, step: "s", generation: 1 },
    );
    expect(Object.keys(env).filter((key) => key.startsWith("OTEL_LOG_"))).toEqual([]);
    expect(
      claudeTelemetryEnv({ ...settings, claude: false }, {}, { run: null, step: "s", generation: 1 }),
    ).toEqual({});
  });
});
