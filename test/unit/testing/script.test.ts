import { describe, expect, it } from "vitest";
import { FakeModelError } from "../../../src/errors.js";
import {
  ModelRequest,
  fault,
  on,
  script,
  text,
  toolUse,
  type Reply,
  type WireRequestBody,
} from "../../../src/testing/index.js";

let index = 0;
const tools = [{ name: "Bash" }];

function main(userText: string): ModelRequest {
  return new ModelRequest(
    index++,
    { model: "m", tools, messages: [{ role: "user", content: userText }] },
    {},
  );
}

function subagent(brief: string): ModelRequest {
  const body: WireRequestBody = {
    model: "m",
    tools,
    system: [{ type: "text", text: "x-anthropic-billing-header: cc_is_subagent=true;" }],
    messages: [{ role: "user", content: brief }],
  };
  return new ModelRequest(index++, body, {});
}

function title(): ModelRequest {
  const body: WireRequestBody = {
    model: "m",
    tools: [],
    output_config: { format: { type: "json_schema" } },
    messages: [{ role: "user", content: "name this session" }],
  };
  return new ModelRequest(index++, body, {});
}

const textOf = (reply: Reply | undefined) =>
  reply && "content" in reply && reply.content[0]?.type === "text" ? reply.content[0].text : undefined;

describe("script", () => {
  it("answers main-thread requests in order, each reply once", async () => {
    const policy = script([text("one"), toolUse("Bash", { command: "ls" }), text("three")]);
    expect(textOf(await policy(main("a")))).toBe("one");
    expect(await policy(main("b"))).toEqual(toolUse("Bash", { command: "ls" }));
    expect(textOf(await policy(main("c")))).toBe("three");
    expect(policy.pending).toEqual([]);
    expect(() => policy.assertComplete()).not.toThrow();
  });

  it("calls a function step with the request", async () => {
    const policy = script([(request) => text(`echo ${request.lastUserText()}`)]);
    expect(textOf(await policy(main("hello")))).toBe("echo hello");
  });

  it("fails loudly past the script, and assertComplete names the request", async () => {
    const policy = script([text("only")]);
    await policy(main("a"));
    const past = main("b");
    await expect(policy(past)).rejects.toThrow(FakeModelError);
    await expect(policy(main("c"))).rejects.toThrow(
      /^script: request #\d+ \(main\) came after all 1 steps were used; last user text: "c"$/,
    );
    expect(() => policy.assertComplete()).toThrow(
      new RegExp(`no step was left for request #${past.index} \\(main\\), request #\\d+ \\(main\\)`),
    );
  });

  it("assertComplete names how many steps were left and which", async () => {
    const policy = script([
      text("used"),
      toolUse("Bash", { command: "npm test" }),
      on("subagent", fault("overloaded")),
      on({ kind: "subagent", label: "the worker's report" }, () => text("report")),
    ]);
    await policy(main("a"));
    expect(policy.pending).toHaveLength(3);
    expect(() => policy.assertComplete()).toThrow(
      'script: 3 of 4 steps were never used: step 2 (main): tool_use Bash {"command":"npm test"}; ' +
        'step 3 (subagent): fault "overloaded"; step 4 (subagent): the worker\'s report',
    );
  });

  it("keeps one queue per kind: subagent steps and main steps do not wait for each other", async () => {
    const policy = script([
      toolUse("Agent", { prompt: "go" }),
      on("subagent", text("sub 1")),
      on("subagent", text("sub 2")),
      text("main done"),
    ]);
    await policy(main("start"));
    // The main thread's next reply is asked for before the subagent's: it still gets its own.
    expect(textOf(await policy(main("after")))).toBe("main done");
    expect(textOf(await policy(subagent("brief")))).toBe("sub 1");
    expect(textOf(await policy(subagent("brief")))).toBe("sub 2");
    policy.assertComplete();
  });

  it("lets a step wait for its own conversation with `when` (parallel subagents)", async () => {
    const policy = script([
      on({ kind: "subagent", when: (r) => r.firstUserText().includes("TASK-A") }, text("A done")),
      on({ kind: "subagent", when: (r) => r.firstUserText().includes("TASK-B") }, text("B done")),
    ]);
    expect(textOf(await policy(subagent("TASK-B: check")))).toBe("B done");
    expect(textOf(await policy(subagent("TASK-A: check")))).toBe("A done");
    policy.assertComplete();
  });

  it("says which steps are pending when none accepts a request", async () => {
    const policy = script([on("subagent", text("sub"))]);
    await expect(policy(main("x"))).rejects.toThrow(
      /^script: no pending step accepts request #\d+ \(main\); pending: step 1 \(subagent\): text "sub"; last user text: "x"$/,
    );
  });

  it("leaves unscripted title requests to the kit, and answers scripted ones", async () => {
    const policy = script([text("main")]);
    expect(await policy(title())).toBeUndefined();
    expect(textOf(await policy(main("m")))).toBe("main");
    const titled = script([on("title", text('{"title":"Mine"}'))]);
    expect(textOf(await titled(title()))).toBe('{"title":"Mine"}');
  });

  it("hands requests no step accepts to `otherwise`, and still wants every step used", async () => {
    const policy = script([on({ when: (r) => r.lastUserText() === "fail me" }, fault("server-error"))], {
      otherwise: () => text("ordinary"),
    });
    expect(textOf(await policy(main("hi")))).toBe("ordinary");
    expect(() => policy.assertComplete()).toThrow(/1 of 1 step was never used: step 1 \(main, when \.\.\.\)/);
    expect(await policy(main("fail me"))).toEqual(fault("server-error"));
    expect(textOf(await policy(main("fail me")))).toBe("ordinary");
    policy.assertComplete();
  });

  it("never gives one step to two requests that arrive together", async () => {
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return text("slow");
    };
    const policy = script([on("subagent", slow), on("subagent", text("fast"))]);
    const answers = await Promise.all([policy(subagent("a")), policy(subagent("b"))]);
    expect(answers.map(textOf)).toEqual(["slow", "fast"]);
  });

  it("rejects a bad entry where it is written, naming it", () => {
    expect(() => script([text("ok"), undefined as never])).toThrow(
      /^script: step 2 is undefined; expected a reply \(text\(\.\.\.\), toolUse\(\.\.\.\), fault\(\.\.\.\)\)/,
    );
    expect(() => script([{ txt: "typo" } as never])).toThrow(/script: step 1 is/);
    expect(() => on("worker" as never, text("x"))).toThrow(
      'script: on() got kind "worker"; known: main, subagent, title, compact',
    );
    expect(() => script("text" as never)).toThrow('script: expected an array of replies, got "text"');
  });
});
