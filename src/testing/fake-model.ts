/**
 * The offline model kit: a fake Anthropic Messages API on 127.0.0.1 that the real `claude` binary
 * talks to. It must be a real server because the client is a child process, not our code.
 *
 * Each /v1/messages request is validated like the real API, measured (see usage.ts), shown to the
 * test's policy, and answered as SSE exactly as the CLI expects. Everything is
 * recorded for assertions.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULTS } from "../defaults.js";
import { FakeModelError, refuseUnknownOptions } from "../errors.js";
import { ModelRequest, type RequestKind, type WireRequestBody } from "./model-request.js";
import {
  defaultReply,
  reusedToolUseId,
  validateReply,
  type ContentReply,
  type FaultKind,
  type Reply,
} from "./replies.js";
import { measurePrompt, tokensFor, type Usage } from "./usage.js";
import {
  isValidationMode,
  validateConversation,
  type ValidationMode,
  type ValidationOptions,
} from "./validate.js";
import { apiError, FAULT_STATUS, sendJson, sendMessage, startCutStream, startCutToolStream } from "./wire.js";

/** Chooses the reply to one request. Return undefined to let the kit answer a side request itself. */
export type Policy = (request: ModelRequest) => Reply | undefined | Promise<Reply | undefined>;

export interface FakeModelOptions {
  policy: Policy;
  /**
   * A request larger than this many tokens is answered with the real API's 400 "prompt is too long".
   * @default 1_000_000 (DEFAULTS.window, the runtime's default window)
   */
  contextWindow?: number;
  /**
   * Request validation like the real API: `"anthropic"` (what api.anthropic.com rejects), `"strict"`
   * (also consecutive same-role messages and empty content, as Amazon Bedrock rejects them), an options
   * object, or `false` for none. Invalid requests get the API's 400 `invalid_request_error`.
   * @default { alternation: true }
   */
  validation?: ValidationMode | false;
  /** Text is streamed in deltas of this many characters. @default 80 */
  chunkChars?: number;
}

export interface Exchange {
  index: number;
  kind: RequestKind;
  request: ModelRequest;
  /** HTTP status sent. */
  status: number;
  /** The reply sent, or the API error message for a rejected request. */
  reply: ContentReply | { fault: FaultKind } | { error: string };
  /** Usage reported (successful replies only). */
  usage?: Usage;
  /** Total prompt size in tokens, as measured. */
  promptTokens: number;
}

export interface FakeModel {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** A fresh CLAUDE_CONFIG_DIR for this server, removed by close(). */
  readonly configDir: string;
  /** Every /v1/messages request, in arrival order. */
  readonly requests: readonly ModelRequest[];
  /** Every request with what was answered. */
  readonly exchanges: readonly Exchange[];
  /** Policy failures and invalid replies; each was also sent to the CLI as a 400 it does not retry. */
  readonly errors: readonly FakeModelError[];
  /**
   * The environment the `claude` child needs to talk to this server offline. Merge it over
   * `process.env` (the SDK's `options.env` replaces the child's environment).
   */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Throws the first policy error, if any: call it at the end of a test. */
  assertNoErrors(): void;
  close(): Promise<void>;
}

interface Conversation {
  segments: string[];
}

/** Every option name, checked against FakeModelOptions by the compiler. */
const KNOWN = {
  policy: true,
  contextWindow: true,
  validation: true,
  chunkChars: true,
} as const satisfies Record<keyof FakeModelOptions, true>;

const VALIDATION_KNOWN = { alternation: true, nonEmpty: true } as const satisfies Record<
  keyof ValidationOptions,
  true
>;

export async function startFakeModel(options: FakeModelOptions): Promise<FakeModel> {
  if (typeof options?.policy !== "function") {
    throw new FakeModelError("startFakeModel: options.policy must be a function (request) => reply");
  }
  // `contextWindw: 200_000` must not leave the kit at its 1M default unnoticed.
  refuseUnknownOptions(options, KNOWN);
  const validation = options.validation ?? {};
  if (validation !== false && !isValidationMode(validation)) {
    throw new FakeModelError(
      `startFakeModel: options.validation must be "anthropic", "strict", an options object or false, got ${JSON.stringify(validation)}`,
    );
  }
  if (typeof validation === "object") refuseUnknownOptions(validation, VALIDATION_KNOWN, "validation.");
  const contextWindow = options.contextWindow ?? DEFAULTS.window;
  const chunkChars = options.chunkChars ?? 80;
  const configDir = await mkdtemp(join(tmpdir(), "flower-fake-claude-"));
  const requests: ModelRequest[] = [];
  const exchanges: Exchange[] = [];
  const errors: FakeModelError[] = [];
  const conversations = new Map<string, Conversation>();
  const timers = new Set<NodeJS.Timeout>();
  let nextId = 0;
  let closed = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const conversationKey = (request: ModelRequest): string =>
    [
      request.sessionId ?? "",
      request.kind,
      createHash("sha1").update(request.firstUserText()).digest("hex"),
    ].join("|");

  async function answerMessages(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: string,
  ): Promise<void> {
    const body = parseBody(raw, res);
    if (!body) return;
    const request = new ModelRequest(requests.length, body, req.headers);
    requests.push(request);
    const kind = request.kind;
    const record = (exchange: Omit<Exchange, "index" | "kind" | "request">) =>
      exchanges.push({ index: request.index, kind, request, ...exchange });

    const invalid = validation === false ? null : validateConversation(body, validation);
    if (invalid) {
      record({ status: 400, reply: { error: invalid }, promptTokens: 0 });
      return sendJson(res, 400, apiError("invalid_request_error", invalid));
    }

    const key = conversationKey(request);
    const measure = measurePrompt(body, conversations.get(key)?.segments);
    if (measure.totalTokens > contextWindow) {
      const message = `prompt is too long: ${measure.totalTokens} tokens > ${contextWindow} maximum`;
      record({ status: 400, reply: { error: message }, promptTokens: measure.totalTokens });
      return sendJson(res, 400, apiError("invalid_request_error", message));
    }

    let reply: Reply;
    try {
      const chosen = await options.policy(request);
      reply = chosen === undefined ? defaultReply(request) : validateReply(chosen, request.index);
    } catch (cause) {
      const error =
        cause instanceof FakeModelError
          ? cause
          : new FakeModelError(
              `fake model: the policy threw on request #${request.index} (${kind}): ${String(cause)}`,
              { cause },
            );
      errors.push(error);
      record({ status: 400, reply: { error: error.message }, promptTokens: measure.totalTokens });
      // A 400 is not retried by the CLI: the run fails at once with this message instead of hanging.
      return sendJson(res, 400, apiError("invalid_request_error", error.message));
    }

    const reused = reusedToolUseId(reply, request);
    if (reused) {
      errors.push(reused);
      record({ status: 400, reply: { error: reused.message }, promptTokens: measure.totalTokens });
      return sendJson(res, 400, apiError("invalid_request_error", reused.message));
    }

    if (reply.delayMs) await sleep(reply.delayMs);
    if (closed) return;

    if ("fault" in reply) {
      record({
        status:
          reply.fault === "cut-stream" || reply.fault === "cut-tool-input"
            ? 200
            : reply.fault === "prompt-too-long"
              ? 400
              : FAULT_STATUS[reply.fault][0],
        reply: { fault: reply.fault },
        promptTokens: measure.totalTokens,
      });
      if (reply.fault === "prompt-too-long") {
        const message = `prompt is too long: ${Math.max(measure.totalTokens, contextWindow + 1)} tokens > ${contextWindow} maximum`;
        return sendJson(res, 400, apiError("invalid_request_error", message));
      }
      if (reply.fault === "cut-stream" || reply.fault === "cut-tool-input") {
        const start = reply.fault === "cut-stream" ? startCutStream : startCutToolStream;
        start(res, body.model, `msg_fake_${nextId++}`, { ...measure.usage, output_tokens: 1 });
        await sleep(20);
        res.socket?.destroy();
        return;
      }
      const [status, type, message] = FAULT_STATUS[reply.fault];
      return sendJson(res, status, apiError(type, reply.message ?? message));
    }

    conversations.set(key, { segments: measure.segments });
    const content = reply.content.map((block) =>
      block.type === "tool_use" ? { ...block, id: block.id ?? `toolu_fake_${nextId++}` } : block,
    );
    const outputChars = content.reduce(
      (total, block) =>
        total +
        (block.type === "text" ? block.text.length : JSON.stringify(block.input).length + block.name.length),
      0,
    );
    const usage: Usage = {
      ...measure.usage,
      output_tokens: reply.outputTokens ?? Math.max(1, tokensFor(outputChars)),
    };
    const stopReason = content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
    const messageId = `msg_fake_${nextId++}`;
    record({ status: 200, reply: { ...reply, content }, usage, promptTokens: measure.totalTokens });

    sendMessage(res, {
      model: body.model,
      id: messageId,
      content,
      stopReason,
      usage,
      stream: body.stream !== false,
      chunkChars,
    });
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const handle = async () => {
        if (req.method === "HEAD" || path === "/api/hello") return sendJson(res, 200, {});
        if (path === "/v1/messages/count_tokens") {
          const body = parseBody(raw, res);
          if (!body) return;
          return sendJson(res, 200, {
            input_tokens: measurePrompt({ ...body, messages: body.messages ?? [] }, undefined).totalTokens,
          });
        }
        if (path === "/v1/messages" && req.method === "POST") return answerMessages(req, res, raw);
        return sendJson(res, 404, apiError("not_found_error", `Not found: ${req.method} ${path}`));
      };
      handle().catch((cause: unknown) => {
        const error = new FakeModelError(`fake model: internal error: ${String(cause)}`, { cause });
        errors.push(error);
        if (!res.headersSent) sendJson(res, 400, apiError("invalid_request_error", error.message));
        else res.destroy();
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    configDir,
    requests,
    exchanges,
    errors,
    env(extra = {}) {
      return {
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: "sk-fake-offline-kit",
        CLAUDE_CONFIG_DIR: configDir,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        // As root the binary refuses bypassPermissions without this.
        IS_SANDBOX: "1",
        ...extra,
      };
    },
    assertNoErrors() {
      if (errors.length > 0) throw errors[0]!;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(configDir, { recursive: true, force: true });
    },
  };
}

/** The body as JSON, or undefined after answering the real API's 400 for an unparseable body. */
function parseBody(raw: string, res: http.ServerResponse): WireRequestBody | undefined {
  try {
    return JSON.parse(raw) as WireRequestBody;
  } catch {
    sendJson(
      res,
      400,
      apiError("invalid_request_error", "There was an error parsing the body of your request"),
    );
    return undefined;
  }
}
