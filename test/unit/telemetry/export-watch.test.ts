import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { afterEach, describe, expect, it } from "vitest";
import { describeExportError, watchedAgent, watchResults } from "../../../src/telemetry/export-watch.js";

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** A collector that refuses every export with 401, as one with a wrong API key does. */
async function refusingCollector(): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(401, "Unauthorized");
      response.end("bad key");
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
}

describe("export-watch: what an export that failed is called", () => {
  it("a collector's HTTP status, a network error's message, every address localhost was tried at", () => {
    expect(describeExportError(Object.assign(new Error("Unauthorized"), { code: 401 }))).toBe(
      "HTTP 401 Unauthorized",
    );
    expect(describeExportError(new Error("connect ECONNREFUSED 127.0.0.1:9"))).toBe(
      "connect ECONNREFUSED 127.0.0.1:9",
    );
    const both = new AggregateError(
      [new Error("connect ECONNREFUSED ::1:9"), new Error("connect ECONNREFUSED 127.0.0.1:9")],
      "",
    );
    expect(describeExportError(both)).toBe("connect ECONNREFUSED ::1:9; connect ECONNREFUSED 127.0.0.1:9");
    expect(describeExportError(Object.assign(new Error(""), { code: "ECONNRESET" }))).toBe("ECONNRESET");
  });

  it("a real exporter's failed result is reported (a 401 is not retried), a connected socket is not", async () => {
    const url = await refusingCollector();
    const failures: unknown[] = [];
    const exporter = new OTLPTraceExporter({
      url,
      httpAgentOptions: watchedAgent((error) => failures.push(error)),
    });
    watchResults(exporter, (error) => failures.push(error));
    const code = await new Promise<number>((resolve) =>
      exporter.export([], (result) => resolve(result.code)),
    );
    await exporter.shutdown();
    expect(code).not.toBe(0);
    expect(failures.map(describeExportError)).toEqual(["HTTP 401 Unauthorized"]);
  });

  it("a connection refused is reported by the agent at once, before the exporter's retries end", async () => {
    const url = await refusingCollector();
    server!.close();
    server!.closeAllConnections();
    server = null;
    const said: string[] = [];
    const exporter = new OTLPTraceExporter({
      url,
      // Retries end at this deadline (10 s by default): one or two retries here.
      timeoutMillis: 2_500,
      httpAgentOptions: watchedAgent((error) => said.push(`agent: ${describeExportError(error)}`)),
    });
    // The exporter retries a refused connection until its timeout: its result comes last.
    await new Promise<void>((resolve) =>
      exporter.export([], (result) => {
        said.push(`result: ${describeExportError(result.error)}`);
        resolve();
      }),
    );
    await exporter.shutdown();
    expect(said[0]).toMatch(/^agent: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect(said.at(-1)).toMatch(/^result: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  }, 30_000);
});
