/**
 * A small OTLP/HTTP collector for tests: a real node:http server on 127.0.0.1 that takes what an
 * exporter posts to /v1/traces, /v1/metrics and /v1/logs and decodes it. flower's exporters send JSON
 * (the OTLP/HTTP JSON encoding: ids as hex, 64-bit integers possibly as strings); a protobuf body is kept
 * undecoded, counted by its path, so a test can say that it came without pretending to read it.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { gunzipSync } from "node:zlib";

export type AttributeValue = string | number | boolean | AttributeValue[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  events: Array<{ name: string; timeMs: number; attributes: Record<string, AttributeValue> }>;
  status: { code: number; message: string | null };
  resource: Record<string, AttributeValue>;
}

export interface ReceivedMetric {
  name: string;
  resource: Record<string, AttributeValue>;
  points: Array<{ value: number; attributes: Record<string, AttributeValue> }>;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpAnyValue[] };
}

/** The parts of an OTLP JSON export this receiver reads. */
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes?: OtlpKeyValue[];
  events?: Array<{ name: string; timeUnixNano?: string; attributes?: OtlpKeyValue[] }>;
  status?: { code?: number; message?: string };
}
interface OtlpPoint {
  asDouble?: number;
  asInt?: string | number;
  sum?: number;
  attributes?: OtlpKeyValue[];
}
interface OtlpMetric {
  name: string;
  sum?: { dataPoints?: OtlpPoint[] };
  gauge?: { dataPoints?: OtlpPoint[] };
  histogram?: { dataPoints?: OtlpPoint[] };
}
interface OtlpResource {
  resource?: { attributes?: OtlpKeyValue[] };
  scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  scopeMetrics?: Array<{ metrics?: OtlpMetric[] }>;
}

function valueOf(value: OtlpAnyValue | undefined): AttributeValue {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return null;
}

export function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

const nanosToMs = (nanos: string | number | undefined) => Number(BigInt(nanos ?? 0) / 1000n) / 1000;

/** OTLP JSON ids are hex; an exporter that sent base64 (the protobuf mapping) is read as well. */
function hexId(id: string | undefined): string | null {
  if (!id) return null;
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex");
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly metrics: ReceivedMetric[] = [];
  /** Every request: its path and content type (the binary's own exports land here too). */
  readonly requests: Array<{ path: string; contentType: string; json: unknown }> = [];
  readonly #server: Server;
  #url = "";
  #reading = 0;
  #lastAt = 0;

  constructor() {
    this.#server = createServer((request, response) => {
      this.#reading += 1;
      this.#lastAt = Date.now();
      void this.#take(request)
        .finally(() => (this.#reading -= 1))
        .then(
          () => {
            response.writeHead(200, { "content-type": "application/json" });
            response.end("{}");
          },
          (error: unknown) => {
            response.writeHead(400);
            response.end(String(error));
          },
        );
    });
  }

  get url(): string {
    return this.#url;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    const address = this.#server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    this.#url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  /**
   * Resolves once no request is being read and none has come for `quietMs`: what an exporter sent
   * before its process exited has landed. For a reader that keeps what it has, not one that reads live.
   */
  async quiet(quietMs = 250): Promise<void> {
    while (this.#reading > 0 || Date.now() - this.#lastAt < quietMs)
      await new Promise((go) => setTimeout(go, 50));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #take(request: IncomingMessage): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body: Buffer = Buffer.concat(chunks);
    if (request.headers["content-encoding"] === "gzip") body = gunzipSync(body);
    const path = request.url ?? "";
    const contentType = String(request.headers["content-type"] ?? "");
    if (!contentType.includes("json")) {
      this.requests.push({ path, contentType, json: null });
      return;
    }
    const json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    this.requests.push({ path, contentType, json });
    if (path.endsWith("/v1/traces")) this.#spans(json);
    if (path.endsWith("/v1/metrics")) this.#metrics(json);
  }

  #spans(json: Record<string, unknown>): void {
    for (const resourceSpans of (json.resourceSpans as OtlpResource[] | undefined) ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            traceId: hexId(span.traceId)!,
            spanId: hexId(span.spanId)!,
            parentSpanId: hexId(span.parentSpanId),
            name: span.name,
            startMs: nanosToMs(span.startTimeUnixNano),
            endMs: nanosToMs(span.endTimeUnixNano),
            attributes: attributesOf(span.attributes),
            events: (span.events ?? []).map((event) => ({
              name: event.name,
              timeMs: nanosToMs(event.timeUnixNano),
              attributes: attributesOf(event.attributes),
            })),
            status: { code: span.status?.code ?? 0, message: span.status?.message ?? null },
            resource,
          });
    }
  }

  #metrics(json: Record<string, unknown>): void {
    for (const resourceMetrics of (json.resourceMetrics as OtlpResource[] | undefined) ?? []) {
      const resource = attributesOf(resourceMetrics.resource?.attributes);
      for (const scope of resourceMetrics.scopeMetrics ?? [])
        for (const metric of scope.metrics ?? []) {
          const data = metric.sum ?? metric.gauge ?? metric.histogram ?? {};
          const points = (data.dataPoints ?? []).map((point) => ({
            value: Number(point.asDouble ?? point.asInt ?? point.sum ?? 0),
            attributes: attributesOf(point.attributes),
          }));
          this.metrics.push({ name: metric.name, resource, points });
        }
    }
  }
}
