import { describe, expect, it } from "vitest";
import {
  MAX_BYTES,
  MAX_LINE_CHARS,
  MAX_LINES,
  StderrTail,
} from "../../../src/runtime/session/stderr-tail.js";
import { SecretRedactor } from "../../../src/secret-redactor.js";

describe("the child's stderr tail", () => {
  it("keeps whole lines across chunks, the last ones only", () => {
    const tail = new StderrTail();
    tail.write("first li");
    tail.write("ne\r\nsecond line\n\n");
    expect(tail.lines()).toEqual(["first line", "second line"]);
    for (let n = 0; n < MAX_LINES + 10; n++) tail.write(`line ${n}\n`);
    expect(tail.lines()).toHaveLength(MAX_LINES);
    expect(tail.lines().at(-1)).toBe(`line ${MAX_LINES + 9}`);
    expect(tail.lines(2)).toEqual([`line ${MAX_LINES + 8}`, `line ${MAX_LINES + 9}`]);
  });

  it("is bounded in characters, and cuts a long line", () => {
    const tail = new StderrTail();
    for (let n = 0; n < 30; n++) tail.write(`${"x".repeat(2_000)}\n`);
    const lines = tail.lines();
    expect(lines.every((line) => line.length <= MAX_LINE_CHARS)).toBe(true);
    expect(lines.join("").length).toBeLessThanOrEqual(MAX_BYTES);
    // One line without an end, longer than the bound, does not grow without limit either.
    const endless = new StderrTail();
    for (let n = 0; n < 100; n++) endless.write("y".repeat(1_000));
    expect(endless.lines().join("").length).toBeLessThanOrEqual(MAX_BYTES + MAX_LINE_CHARS);
  });

  it("redacts a credential split across two chunks, whole", () => {
    const key = "sk-ant-api03-0123456789abcdef";
    const redactor = new SecretRedactor([{ name: "ANTHROPIC_API_KEY", value: key }]);
    const tail = new StderrTail((text) => redactor.text(text));
    tail.write(`using key ${key.slice(0, 10)}`);
    tail.write(`${key.slice(10)} for the request\n`);
    expect(tail.lines()).toEqual(["using key [redacted ANTHROPIC_API_KEY] for the request"]);
    tail.write(`unfinished ${key}`);
    expect(tail.lines().at(-1)).toBe("unfinished [redacted ANTHROPIC_API_KEY]");
  });

  it("drops colour codes; settles at once when the stream ended", async () => {
    const tail = new StderrTail();
    tail.write("\u001b[31mError:\u001b[0m refused");
    tail.end();
    await tail.settled(60_000);
    expect(tail.lines()).toEqual(["Error: refused"]);
  });
});
