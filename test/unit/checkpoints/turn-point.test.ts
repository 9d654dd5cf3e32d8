/**
 * Where a turn ends in a transcript, for a rewind by turn: turns counted as `flower show` counts them
 * (one per main-thread response, a response split into entries per block counted once, a subagent's and
 * the binary's own messages not at all), and which calls the rewind keeps and takes back.
 */
import { describe, expect, it } from "vitest";
import { turnPoint } from "../../../src/runtime/files/turn-point.js";

let n = 0;
const uuid = () => `u${++n}`;
const assistant = (id: string, blocks: object[], extra: object = {}) =>
  blocks.map((block) => ({
    type: "assistant",
    uuid: uuid(),
    message: { id, model: "claude", content: [block] },
    ...extra,
  }));
const call = (id: string) => ({ type: "tool_use", id, name: "Bash", input: {} });
const result = (id: string) => ({
  type: "user",
  uuid: uuid(),
  message: { content: [{ type: "tool_result", tool_use_id: id }] },
});

describe("turnPoint", () => {
  const entries = [
    { type: "user", uuid: uuid(), message: { content: "go" } },
    ...assistant("m1", [{ type: "text", text: "two calls" }, call("a"), call("b")]),
    result("a"),
    ...assistant("w1", [call("w")], { isSidechain: true }),
    result("b"),
    ...assistant("m2", [call("c")]),
    result("c"),
    ...assistant("x", [{ type: "text", text: "API Error" }]).map((entry) => ({
      ...entry,
      message: { ...entry.message, model: "<synthetic>" },
    })),
    ...assistant("m3", [{ type: "text", text: "done" }]),
  ];

  it("ends a turn at the result of its last call, and splits the calls at it", () => {
    const first = turnPoint(entries, 1)!;
    expect(first.turns).toBe(3);
    expect(first.uuid).toBe(entries[6]!.uuid);
    expect([...first.kept].sort()).toEqual(["a", "b"]);
    expect([...first.undone]).toEqual(["c"]);
    expect(turnPoint(entries, 2)!.uuid).toBe(entries[8]!.uuid);
  });

  it("ends a turn without calls at the response itself; a turn it does not have is null", () => {
    expect(turnPoint(entries, 3)!.uuid).toBe(entries.at(-1)!.uuid);
    expect(turnPoint(entries, 4)).toBeNull();
    expect(turnPoint(entries, 0)).toBeNull();
  });
});
