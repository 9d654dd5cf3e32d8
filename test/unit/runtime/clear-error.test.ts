import { describe, expect, it } from "vitest";
import { clearError } from "../../../src/runtime/session/clear-error.js";

describe("clearError", () => {
  it("says an API error once: the result text, the API error and the iterator's throw are one", () => {
    const api = "API Error: 400 tools.0.type: unknown tag";
    const result = clearError(["", api, api], ": ");
    expect(result).toBe(api);
    expect(clearError([result, `Claude Code returned an error result: ${api}`], " | ")).toBe(api);
  });

  it("keeps different causes, in order, and a fuller part replaces one it contains", () => {
    expect(clearError(["error_during_execution", "exit 1"], " | ")).toBe("error_during_execution | exit 1");
    expect(clearError(["Overloaded", "API Error: 529 Overloaded"], ": ")).toBe("API Error: 529 Overloaded");
    expect(clearError([null, undefined, "", "  "], ": ")).toBe("");
  });
});
