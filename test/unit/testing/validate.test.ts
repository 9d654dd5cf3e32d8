import { describe, expect, it } from "vitest";
import {
  startFakeModel,
  text,
  validateConversation,
  type WireRequestBody,
} from "../../../src/testing/index.js";

const body = (messages: WireRequestBody["messages"]): WireRequestBody => ({ model: "m", messages });
const use = (id: string) => ({ type: "tool_use", id, name: "Bash", input: {} });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "x" });

describe("validateConversation", () => {
  it("accepts a paired conversation with system-role entries between turns", () => {
    expect(
      validateConversation(
        body([
          { role: "user", content: "go" },
          { role: "system", content: "env" },
          { role: "assistant", content: [use("a"), use("b")] },
          { role: "user", content: [result("a"), result("b")] },
          { role: "assistant", content: "done" },
        ]),
      ),
    ).toBeNull();
  });

  it("requires the first message from the user", () => {
    expect(validateConversation(body([{ role: "assistant", content: "hi" }]))).toBe(
      'messages: first message must use the "user" role',
    );
  });

  it("requires roles to alternate unless told otherwise", () => {
    const twoUsers = body([
      { role: "user", content: "a" },
      { role: "user", content: "b" },
    ]);
    expect(validateConversation(twoUsers)).toMatch(/roles must alternate.*multiple "user" roles/);
    expect(validateConversation(twoUsers, { alternation: false })).toBeNull();
  });

  it("names the tool_use left without its result, and the sibling that was answered is fine", () => {
    const message = validateConversation(
      body([
        { role: "user", content: "go" },
        { role: "assistant", content: [use("a"), use("b")] },
        { role: "user", content: [result("a")] },
      ]),
    );
    expect(message).toBe(
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: b. " +
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    );
  });

  it("names an orphan tool_result and a duplicate tool_use id", () => {
    expect(
      validateConversation(
        body([
          { role: "user", content: "go" },
          { role: "assistant", content: "no tools" },
          { role: "user", content: [result("ghost")] },
        ]),
      ),
    ).toMatch(/^messages\.2\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: ghost\./);
    expect(
      validateConversation(
        body([
          { role: "user", content: "go" },
          { role: "assistant", content: [use("a")] },
          { role: "user", content: [result("a")] },
          { role: "assistant", content: [use("a")] },
          { role: "user", content: [result("a")] },
        ]),
      ),
    ).toBe("messages.3.content.0: `tool_use` ids must be unique");
  });
});

describe("validateConversation modes", () => {
  const twoAssistants = body([
    { role: "user", content: "go" },
    { role: "assistant", content: "one" },
    { role: "assistant", content: "two" },
  ]);

  it('"anthropic" lets consecutive same-role turns through, as the Anthropic API merges them', () => {
    expect(validateConversation(twoAssistants, "anthropic")).toBeNull();
  });

  it('"strict" rejects them, as Amazon Bedrock does', () => {
    expect(validateConversation(twoAssistants, "strict")).toBe(
      'messages: roles must alternate between "user" and "assistant", but found multiple "assistant" roles in a row',
    );
  });

  it('"strict" rejects an empty message and a whitespace-only text block; the default does not', () => {
    const empty = body([
      { role: "user", content: "go" },
      { role: "assistant", content: [] },
    ]);
    expect(validateConversation(empty, "strict")).toMatch(
      /^messages\.1: all messages must have non-empty content/,
    );
    expect(validateConversation(empty)).toBeNull();
    const blank = body([{ role: "user", content: [{ type: "text", text: "  \n" }] }]);
    expect(validateConversation(blank, "strict")).toBe(
      "messages.0.content.0.text: text content blocks must contain non-whitespace text",
    );
  });

  it("names a bad mode, in the validator and when the kit starts", async () => {
    expect(() => validateConversation(twoAssistants, "bedrock" as never)).toThrow(/got "bedrock"/);
    await expect(startFakeModel({ policy: () => text("x"), validation: "bedrock" as never })).rejects.toThrow(
      /options\.validation must be "anthropic", "strict", an options object or false, got "bedrock"/,
    );
  });
});
