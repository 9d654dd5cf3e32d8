import { describe, expect, it } from "vitest";
import { isOverflow } from "../../../src/handoff/overflow.js";

const OVERFLOWS = [
  "prompt is too long: 212345 tokens > 200000 maximum",
  'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 1012345 tokens > 1000000 maximum"}}',
  "Prompt Is Too Long",
  "context length exceeded",
  "context_length_exceeded",
  "This model's maximum context length is 200000 tokens. However, your messages resulted in 210000 tokens.",
  "too many total text bytes: 9000000 > 8000000",
  "input length and `max_tokens` exceed context limit: 190000 + 32000 > 200000, decrease input length or `max_tokens` and try again",
  "input length and max_tokens exceed context limit",
  "The request exceeds the context window of this model",
  "Request exceeds the model's context window.",
  "Your input exceeds the context window of this model. Please adjust your input and try again.",
  "exceeds the context limit",
  "Input is too long for requested model.",
  "context window exceeded",
  "Please reduce the length of the messages or completion.",
  "prompt too long",
  "context limit exceeded",
];

const ORDINARY = [
  "rate limit exceeded",
  "Overloaded",
  '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
  "Request too large for claude in organization on tokens per min (TPM): Limit 40000",
  "max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens",
  "invalid x-api-key",
  "Connection reset by peer",
  "context deadline exceeded",
  "maximum call stack size exceeded",
  "Your credit balance is too low to access the Anthropic API",
  "ENAMETOOLONG: name too long, open '/tmp/x'",
  "spawn E2BIG: argument list too long",
  "quota exceeded for this project",
  "timeout exceeded while waiting for the stream",
  "The context window of this model is 200000 tokens.",
  "image exceeds 5 MB maximum: 7340032 bytes > 5242880 bytes",
  "messages.3: tool_use ids were found without tool_result blocks immediately after",
  "Stream ended unexpectedly",
  "maximum number of retries exceeded",
  "Error: Claude Code process exited with code 1",
  "the output exceeded max_tokens and was cut",
];

describe("isOverflow", () => {
  for (const text of OVERFLOWS) {
    it(`recognises ${JSON.stringify(text.slice(0, 60))}`, () => {
      expect(isOverflow(text)).toBe(true);
      expect(isOverflow(text.toUpperCase())).toBe(true);
    });
  }

  for (const text of ORDINARY) {
    it(`ignores ${JSON.stringify(text.slice(0, 60))}`, () => {
      expect(isOverflow(text)).toBe(false);
    });
  }

  it("has at least 20 ordinary errors", () => {
    expect(ORDINARY.length).toBeGreaterThanOrEqual(20);
  });

  it("is variadic and skips null, undefined and empty texts", () => {
    expect(isOverflow()).toBe(false);
    expect(isOverflow(null, undefined, "")).toBe(false);
    expect(isOverflow(null, "network error", undefined, "prompt is too long")).toBe(true);
    expect(isOverflow("maximum\ncontext   length")).toBe(true);
  });
});
