import { describe, expect, it } from "vitest";
import { validateConversation, type WireRequestBody } from "../../../src/testing/index.js";

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
