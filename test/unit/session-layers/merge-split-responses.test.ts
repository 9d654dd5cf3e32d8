/**
 * The role repair after a removal (merge-split-responses.ts): per run of adjacent assistant entries,
 * idempotent, and alternating as the CLI groups entries (cli-messages.ts, probed on CLI 2.1.332).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeSplitResponses } from "../../../src/session-layers/passes/merge-split-responses.js";
import { removeToolCalls } from "../../../src/session-layers/passes/remove-tool-calls.js";
import { properties } from "../../support/properties.js";
import { cliMessages, strictViolation } from "./cli-messages.js";
import { deepFreeze, type Entry } from "./transcript-fixtures.js";

/**
 * `A:<id>` an assistant text entry of response <id>, `R` a user entry holding a tool result, `U` a
 * prompt, `S` a system entry (not a turn: it does not end a run).
 */
type Step = `A:${string}` | "R" | "U" | "S";

function transcript(steps: readonly Step[]): Entry[] {
  let parent: string | null = null;
  return steps.map((step, index) => {
    const uuid = `e${index}`;
    const base = { uuid, parentUuid: parent };
    parent = uuid;
    if (step === "S") return { ...base, type: "system", subtype: "informational", content: "note" };
    if (step === "U") return { ...base, type: "user", message: { role: "user", content: `prompt ${index}` } };
    if (step === "R")
      return {
        ...base,
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: `t${index}`, content: "ok" }],
        },
      };
    const id = step.slice(2);
    return {
      ...base,
      type: "assistant",
      message: { id, role: "assistant", content: [{ type: "text", text: `${id}-${index}` }] },
    };
  });
}

/** The `message.id` of each assistant entry, `|` for a user entry. */
function shape(entries: readonly Entry[]): string {
  return entries
    .flatMap((entry) => {
      if (entry.type === "user") return ["|"];
      return entry.type === "assistant" ? [(entry["message"] as { id: string }).id] : [];
    })
    .join(" ");
}

function texts(entries: readonly Entry[]): unknown[] {
  return entries.map((entry) => (entry["message"] as { content: unknown } | undefined)?.content);
}

function roles(entries: readonly Entry[]): string {
  return cliMessages(entries)
    .map((message) => message.role[0])
    .join("");
}

describe("mergeSplitResponses (examples)", () => {
  for (const between of ["R", "U"] as const) {
    it(`a, b ${between} c, b: each run takes its own first id, and a second pass changes nothing`, () => {
      const input = deepFreeze(transcript(["U", "A:a", "S", "A:b", between, "A:c", "A:b"]));
      const once = mergeSplitResponses(input);
      expect(shape(once)).toBe("| a a | c c");
      expect(mergeSplitResponses(once)).toEqual(once);
      expect(texts(once)).toEqual(texts(input));
      expect(roles(once)).toBe("uaua");
    });
  }

  it("a, b | c, b after a removal, with a prompt between: every word kept, roles alternate", () => {
    const entries: Entry[] = [
      { type: "user", uuid: "u1", parentUuid: null, message: { role: "user", content: "go" } },
      assistant("x1", "u1", "a", { type: "text", text: "First a." }),
      assistant("x2", "x1", "a", {
        type: "tool_use",
        id: "d1",
        name: "Bash",
        input: { command: "npm test" },
      }),
      result("r1", "x2", "d1"),
      assistant("x3", "r1", "b", { type: "text", text: "Then b." }),
      { type: "user", uuid: "u2", parentUuid: "x3", message: { role: "user", content: "go on" } },
      assistant("x4", "u2", "c", { type: "text", text: "Now c." }),
      assistant("x5", "x4", "c", { type: "tool_use", id: "d2", name: "Bash", input: { command: "make" } }),
      result("r2", "x5", "d2"),
      assistant("x6", "r2", "b", { type: "text", text: "b again." }),
    ];
    const { entries: out } = removeToolCalls(deepFreeze(entries), ["d1", "d2"]);
    expect(strictViolation(out)).toBeNull();
    expect(shape(out)).toBe("| a a | c c");
    expect(cliMessages(out).map((message) => message.content.map((block) => block["text"]))).toEqual([
      ["go"],
      ["First a.", "Then b."],
      ["go on"],
      ["Now c.", "b again."],
    ]);
    expect(mergeSplitResponses(out)).toEqual(out);
  });
});

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<Step>("A:a", "A:b", "A:c", "A:d") },
  { weight: 1, arbitrary: fc.constantFrom<Step>("R", "U", "S") },
);

/** Steps, not entries, so that a counterexample reads like `A:a, A:b, R, A:b`. */
const stepsArbitrary = fc.array(stepArbitrary, { maxLength: 20 });

describe("mergeSplitResponses (property)", () => {
  it("is idempotent: repairing a repaired transcript changes nothing", () => {
    fc.assert(
      fc.property(stepsArbitrary, (steps) => {
        const input = deepFreeze(transcript(steps));
        const once = mergeSplitResponses(input);
        expect(mergeSplitResponses(once)).toEqual(once);
      }),
      properties(2000),
    );
  });

  it("gives each run of adjacent assistant entries the id of its first entry, and changes nothing else", () => {
    fc.assert(
      fc.property(stepsArbitrary, (steps) => {
        const input = deepFreeze(transcript(steps));
        const once = mergeSplitResponses(input);
        expect(texts(once)).toEqual(texts(input));
        let first: string | undefined;
        once.forEach((entry, index) => {
          if (entry.type === "system") {
            expect(entry).toBe(input[index]);
            return;
          }
          if (entry.type === "user") {
            first = undefined;
            expect(entry).toBe(input[index]);
            return;
          }
          const inputId = (input[index]!["message"] as { id: string }).id;
          first ??= inputId;
          expect((entry["message"] as { id: string }).id).toBe(first);
          if (inputId === first) expect(entry).toBe(input[index]);
        });
      }),
      properties(2000),
    );
  });

  it("leaves roles alternating as the CLI groups the entries", () => {
    fc.assert(
      fc.property(stepsArbitrary, (steps) => {
        const input = deepFreeze(transcript(steps));
        expect(roles(mergeSplitResponses(input))).not.toMatch(/aa|uu/);
      }),
      properties(2000),
    );
  });
});

function assistant(uuid: string, parentUuid: string, id: string, block: Record<string, unknown>): Entry {
  return { type: "assistant", uuid, parentUuid, message: { id, role: "assistant", content: [block] } };
}

function result(uuid: string, parentUuid: string, toolUseId: string): Entry {
  return {
    type: "user",
    uuid,
    parentUuid,
    sourceToolAssistantUUID: parentUuid,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: "denied" }] },
  };
}
