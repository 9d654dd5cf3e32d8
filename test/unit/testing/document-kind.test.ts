/** The kit tells a script which document a workflow step must end with. */
import { describe, expect, it } from "vitest";
import { GOAL } from "../../../src/documents/builtin/goal.js";
import { REQUIREMENTS } from "../../../src/documents/builtin/requirements.js";
import { documentInstructions } from "../../../src/documents/instructions.js";
import { ModelRequest } from "../../../src/testing/model-request.js";

function request(system: string): ModelRequest {
  return new ModelRequest(
    0,
    {
      model: "m",
      system: [{ type: "text", text: system }],
      tools: [{ name: "Read" }],
      messages: [{ role: "user", content: "hi" }],
    },
    {},
  );
}

describe("ModelRequest.documentKind", () => {
  it("names the document of a document step, in either locale", () => {
    expect(request(documentInstructions(REQUIREMENTS, "zh")).documentKind).toBe("requirements");
    expect(request(documentInstructions(GOAL, "en")).documentKind).toBe("goal");
  });

  it("is undefined for any other session, and for a subagent", () => {
    expect(request("You are a coordinator.").documentKind).toBeUndefined();
    expect(request(`cc_is_subagent=true; ${documentInstructions(GOAL, "en")}`).documentKind).toBeUndefined();
  });
});
