import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { columnsOf } from "../../../src/cli/live/terminal-text.js";
import { Display, formatTokens, formatTokensShort } from "../../../src/cli/live/display.js";
import { handoffSummary } from "../../../src/cli/live/handoff-summary.js";
import type { Locale } from "../../../src/locale/locale.js";
import type { FlowerEvent } from "../../../src/runtime/events.js";
import { seedHandoff } from "./display-output.js";

/** The seed's "what a real handoff looks like" block, byte for byte. */
const SEED_EXAMPLE = `# 上下文 130.0K/200K · 还有约 20K 到换代
! 已过预警线 · 上下文 130.0K/200K · 还有约 20K 到换代

# 上下文 152.0K/200K —— 写交接准备换代
  - 现在在做  在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。
  - 已定的事  不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。
  - 走不通的  -D_ANSI_SOURCE 会把别的宏一起关掉;改 include 顺序无效。
  - 下一步    在干净 clone 上跑一次 make 验证 shim 成立。
<- 交接写在:
   ~/proj/.flower/notes/交接-干活.md
<- 新会话只从交接开始,不带旧的 152.0K 上下文
`;

const SECTIONS = {
  doing: "在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。",
  decided: "不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。",
  deadends: "- -D_ANSI_SOURCE 会把别的宏一起关掉。\n- 改 include 顺序无效。",
  next: "在干净 clone 上跑一次 make 验证 shim 成立。",
  scene: "`Makefile`",
};

function capture(): { out: Writable; text: () => string } {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { out, text: () => chunks.join("") };
}

/** The seed's run: 150K line on a 200K window, near at 130K, handoff at 152K. */
function seedEvents(): FlowerEvent[] {
  return seedHandoff("干活", "/home/u/proj/.flower/notes/交接-干活.md", SECTIONS);
}

function render(
  events: FlowerEvent[],
  options: { tty: boolean; locale?: Locale; verbose?: boolean; columns?: number },
): string {
  const { out, text } = capture();
  const display = new Display({
    out,
    tty: options.tty,
    locale: options.locale ?? "zh",
    home: "/home/u",
    verbose: options.verbose ?? false,
    ...(options.columns !== undefined ? { columns: () => options.columns } : {}),
  });
  for (const event of events) display.handle(event);
  display.close();
  return text();
}

/** A minimal terminal: `\r` returns, ESC[2K clears the line, `\n` moves down. */
function screen(output: string): string[] {
  const lines: string[] = [""];
  let row = 0;
  // eslint-disable-next-line no-control-regex -- the terminal codes are what this splits on
  for (const token of output.split(/(\r|\x1b\[2K|\n)/)) {
    if (token === "" || token === "\r") continue;
    if (token === "\x1b[2K") lines[row] = "";
    else if (token === "\n") {
      row++;
      if (lines[row] === undefined) lines[row] = "";
    } else lines[row] = (lines[row] ?? "") + token;
  }
  return lines;
}

describe("formatTokens", () => {
  it("renders the gauge's one-decimal K", () => {
    expect(formatTokens(130_000)).toBe("130.0K");
    expect(formatTokens(152_000)).toBe("152.0K");
    expect(formatTokens(34_567)).toBe("34.6K");
    expect(formatTokens(1_000)).toBe("1.0K");
    expect(formatTokens(999)).toBe("999");
    expect(formatTokens(0)).toBe("0");
    expect(formatTokens(999_960)).toBe("1.0M");
    expect(formatTokens(1_000_000)).toBe("1.0M");
    expect(formatTokens(1_234_567)).toBe("1.2M");
  });

  it("renders windows and distances round", () => {
    expect(formatTokensShort(200_000)).toBe("200K");
    expect(formatTokensShort(20_000)).toBe("20K");
    expect(formatTokensShort(1_000_000)).toBe("1M");
    expect(formatTokensShort(1_500_000)).toBe("1.5M");
    expect(formatTokensShort(2_500)).toBe("2.5K");
    expect(formatTokensShort(999_700)).toBe("1M");
    expect(formatTokensShort(640)).toBe("640");
  });
});

describe("Display without a TTY", () => {
  it("renders the seed's handoff example byte for byte", () => {
    expect(render(seedEvents(), { tty: false })).toBe(SEED_EXAMPLE);
  });

  it("never writes an escape code", () => {
    const events: FlowerEvent[] = [
      { type: "step-start", step: "干活", attempt: 1, generation: 1 },
      ...Array.from({ length: 40 }, (_, i): FlowerEvent => ({
        type: "context",
        step: "干活",
        context: 30_000 + i * 3_000,
        window: 200_000,
        at: 150_000,
        generation: 1,
      })),
      ...seedEvents(),
      { type: "tool-denied", step: "干活", tool: "Bash", command: "rm -rf \x1b[31mx", reason: "no\nway" },
      {
        type: "step-end",
        step: "干活",
        ok: true,
        status: "done",
        sessionId: "s",
        costUsd: 1,
        numTurns: 3,
        turns: 3,
        generations: 2,
        errors: [],
      },
    ];
    const output = render(events, { tty: false });
    expect(output).not.toContain("\x1b");
    expect(output).not.toContain("\r");
  });

  it("prints the gauge only when it moved noticeably (5% of the window)", () => {
    const contexts = [40_000, 42_000, 49_000, 50_000, 51_000, 61_000, 60_000];
    const output = render(
      contexts.map((context): FlowerEvent => ({
        type: "context",
        step: "s",
        context,
        window: 200_000,
        at: 150_000,
        generation: 1,
      })),
      { tty: false },
    );
    expect(output).toBe(
      [
        "# 上下文 40.0K/200K · 还有约 110K 到换代",
        "# 上下文 50.0K/200K · 还有约 100K 到换代",
        "# 上下文 61.0K/200K · 还有约 89K 到换代",
        "",
      ].join("\n"),
    );
  });

  it("starts a fresh gauge after the switch, even at a lower level", () => {
    const output = render(
      [
        ...seedEvents(),
        { type: "context", step: "干活", context: 36_000, window: 200_000, at: 150_000, generation: 2 },
      ],
      { tty: false },
    );
    expect(output).toBe(`${SEED_EXAMPLE}# 上下文 36.0K/200K · 还有约 114K 到换代\n`);
  });

  it("renders the same run in English", () => {
    const output = render(seedEvents(), { tty: false, locale: "en" });
    expect(output).toBe(
      [
        "# context 130.0K/200K · about 20K until handoff",
        "! warning line crossed · context 130.0K/200K · about 20K until handoff",
        "",
        "# context 152.0K/200K — writing the handoff for the next session",
        "  - doing      在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。",
        "  - decided    不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。",
        "  - dead ends  -D_ANSI_SOURCE 会把别的宏一起关掉; 改 include 顺序无效。",
        "  - next       在干净 clone 上跑一次 make 验证 shim 成立。",
        "<- handoff written to:",
        "   ~/proj/.flower/notes/交接-干活.md",
        "<- new session starts from the handoff, not from 152.0K",
        "",
      ].join("\n"),
    );
  });

  it("says which sections flower filled in when the rest of the handoff is the session's own", () => {
    const event: FlowerEvent = {
      type: "handoff",
      step: "s",
      phase: "done",
      generation: 2,
      context: 130_000,
      window: 200_000,
      degraded: true,
      why: "missing: next; filled in mechanically, the sections the session wrote kept",
      weak: ["next"],
      path: null,
      sections: {
        doing: "在改 shim",
        decided: "不改业务源码",
        next: "[降级:这段没写成] 这段是 flower 机械补的",
      },
    };
    expect(render([event], { tty: false }).split("\n")[0]).toBe(
      '!! 交接部分降级:"下一步"留空或没写实,由 flower 机械补上;其余各段是会话的原话',
    );
    expect(render([event], { tty: false, locale: "en" }).split("\n")[0]).toBe(
      '!! handoff partly mechanical: "Next step" left empty or hollow, filled in by flower; the other sections are the session\'s own',
    );
  });

  it("says when the handoff degraded and when there was no workbench", () => {
    const output = render(
      [
        {
          type: "handoff",
          step: "s",
          phase: "done",
          generation: 2,
          context: 201_000,
          window: 200_000,
          degraded: true,
          why: "prompt is too long",
          path: null,
          sections: { doing: "[降级:交接没写成] ...", next: "先去现场看" },
        },
        { type: "tool-use", step: "s", agent: "coordinator", tool: "Bash", summary: "git status" },
      ],
      { tty: false },
    );
    expect(output).toBe(
      [
        "!! 交接降级(prompt is too long) —— 接手者拿到的是残缺件,会自己去现场看",
        "  - 现在在做  [降级:交接没写成] ...",
        "  - 已定的事  (空)",
        "  - 走不通的  (空)",
        "  - 下一步    先去现场看",
        "<- 没有工作台,交接没落盘,只经 prompt 交给接手者",
        "<- 新会话只从交接开始,不带旧的 201.0K 上下文",
        "",
      ].join("\n"),
    );
  });

  it("says the new session starts only once it has; a drift pause at the handoff drops the line", () => {
    const progress = { passing: [], checks: 1, newlyPassing: [], files: 0 };
    const handoff = (generation: number): FlowerEvent[] => [
      { type: "handoff", step: "w", phase: "writing", generation, context: 70_000, window: 85_000 },
      {
        type: "handoff",
        step: "w",
        phase: "done",
        generation: generation + 1,
        context: 70_000,
        window: 85_000,
        degraded: false,
        path: "/home/u/p/.flower/notes/handoff-w.md",
        sections: { doing: "Planning." },
      },
      { type: "generation-progress", step: "w", generation, progress },
    ];
    const lines = render(
      [
        ...handoff(1),
        { type: "agent", step: "w", phase: "start", agent: "engineer", description: "Plan" },
        ...handoff(2),
        {
          type: "drift-pause",
          step: "w",
          generations: [
            { generation: 1, progress },
            { generation: 2, progress },
          ],
          handoff: "/home/u/p/.flower/notes/handoff-w.md",
        },
        {
          type: "step-end",
          step: "w",
          ok: true,
          status: "stopped",
          sessionId: null,
          costUsd: 0,
          numTurns: 4,
          turns: 4,
          generations: 2,
          errors: [],
        },
      ],
      { tty: false, locale: "en" },
    ).split("\n");
    const restart = "<- new session starts from the handoff, not from 70.0K";
    // Generation 1's successor started (its subagent): the line comes before it, after the progress.
    const first = lines.indexOf(
      ".. at generation 1's handoff: 0/1 checks pass (none newly) · 0 files changed",
    );
    expect(lines.slice(first + 1, first + 3)).toEqual([restart, "-> engineer started: Plan"]);
    // Generation 2's handoff ends in the pause: no line says a session starts.
    expect(lines.filter((line) => line === restart)).toHaveLength(1);
    expect(lines).toContain(
      "!! 2 generations in a row made no newly passing check and changed no file: paused at this handoff for a person, the next session not started.",
    );
    expect(lines.filter((line) => line.includes("writing the handoff"))).toEqual([
      "# context 70.0K/85K — writing the handoff for the next session",
      "# context 70.0K/85K — writing the handoff for the next session",
    ]);
  });

  it("a drift pause names only what was measured: the files of a run without checks, the checks of one without checkpoints", () => {
    const pause = (progress: { passing: string[] | null; checks: number; files: number | null }) =>
      render(
        [
          {
            type: "drift-pause",
            step: "w",
            generations: [1, 2, 3].map((generation) => ({
              generation,
              progress: { ...progress, newlyPassing: [] },
            })),
            handoff: null,
          },
        ],
        { tty: false, locale: "en" },
      ).split("\n")[0];
    expect(pause({ passing: null, checks: 0, files: 0 })).toBe(
      "!! 3 generations in a row changed no file: paused at this handoff for a person, the next session not started.",
    );
    expect(pause({ passing: [], checks: 2, files: null })).toBe(
      "!! 3 generations in a row made no newly passing check: paused at this handoff for a person, the next session not started.",
    );
    expect(
      render(
        [
          {
            type: "drift-pause",
            step: "w",
            generations: [
              { generation: 1, progress: { passing: null, checks: 0, newlyPassing: [], files: 0 } },
            ],
            handoff: null,
          },
        ],
        { tty: false, locale: "zh" },
      ).split("\n")[0],
    ).toBe("!! 连续 1 代没有改动文件:在这次交接处停下,等人看一眼,新会话还没开始。");
  });

  it("says what a near warning is even without a preceding context event", () => {
    const output = render(
      [{ type: "handoff", step: "s", phase: "near", generation: 1, context: 130_000, window: 200_000 }],
      { tty: false },
    );
    expect(output).toBe("! 已过预警线 · 上下文 130.0K/200K · 快到换代线\n");
  });

  it("shows the gauge without a handoff line when handoff is off", () => {
    const output = render(
      [{ type: "context", step: "s", context: 12_345, window: 200_000, at: null, generation: 1 }],
      { tty: false },
    );
    expect(output).toBe("# 上下文 12.3K/200K\n");
  });

  it("adds the run's spend of its budget to the gauge where a budget is set", () => {
    const budget = { spentUsd: 0.0512, budgetUsd: 0.1 };
    const event = {
      type: "context",
      step: "s",
      context: 12_345,
      window: 200_000,
      at: 150_000,
      generation: 1,
    };
    expect(render([{ ...event, budget } as FlowerEvent], { tty: false, locale: "en" })).toBe(
      "# context 12.3K/200K · about 138K until handoff · spent $0.0512 of $0.1000 budget\n",
    );
    expect(render([{ ...event, budget } as FlowerEvent], { tty: false })).toBe(
      "# 上下文 12.3K/200K · 还有约 138K 到换代 · 预算 $0.1000 已花 $0.0512\n",
    );
  });

  it("renders step, retry, agent, denial, spill and store-load lines", () => {
    const events: FlowerEvent[] = [
      { type: "step-start", step: "干活", attempt: 2, generation: 1, resume: "0123456789abcdef" },
      { type: "retry", step: "干活", attempt: 1, maxAttempts: 3, reason: "529 overloaded\nretry later" },
      { type: "agent", step: "干活", phase: "start", agent: "coordinator" },
      { type: "agent", step: "干活", phase: "start", agent: "分析员", description: "数一数 data/ 的文件" },
      { type: "tool-use", step: "干活", agent: "分析员", tool: "Bash", summary: "ls data" },
      { type: "agent", step: "干活", phase: "end", agent: "分析员" },
      {
        type: "tool-denied",
        step: "干活",
        tool: "Bash",
        command: "make",
        reason: "主线程不直接动手。\n派一个 subagent",
      },
      { type: "spill", step: "干活", tool: "Bash", path: "/home/u/proj/.flower/spill/1.txt", chars: 52_300 },
      {
        type: "store-load",
        step: "干活",
        sessionId: "abcdef0123456789",
        expired: 3,
        trimmed: 0,
        prunedDenials: 1,
        prunedApiErrors: 0,
        interrupted: 0,
        charsSaved: 12_000,
      },
      {
        type: "store-load",
        step: "干活",
        sessionId: "abcdef0123456789",
        expired: 0,
        trimmed: 0,
        prunedDenials: 0,
        prunedApiErrors: 0,
        interrupted: 0,
        charsSaved: 0,
      },
      {
        type: "step-end",
        step: "干活",
        ok: false,
        status: "failed",
        sessionId: null,
        costUsd: 0.4213,
        numTurns: 12,
        turns: 12,
        generations: 3,
        errors: ["交接降级(network)", "boom", "boom"],
      },
    ];
    expect(render(events, { tty: false })).toBe(
      [
        "=> 开始 干活 · 第 2 次尝试 · 接续会话 01234567",
        "!! 干活 第 1/3 次尝试失败:529 overloaded retry later —— 重试",
        "-> 协调者 开工",
        "-> 分析员 开工:数一数 data/ 的文件",
        "<- 分析员 交活",
        "x  拒绝 Bash make —— 主线程不直接动手。",
        "   Bash 输出 52.3K 字符落盘到:",
        "      ~/proj/.flower/spill/1.txt",
        "   载入会话 abcdef01:过期 3 · 剪除拒绝 1 · 省下 12.0K 字符",
        "<= 失败 干活 · 12 轮 · $0.42 · 3 代",
        "   ! 交接降级(network)",
        "   ! boom (×2)",
        "",
      ].join("\n"),
    );
    expect(render(events.slice(4, 5), { tty: false, verbose: true })).toBe("   分析员 · Bash ls data\n");
  });

  it("shows the child's stderr lines only with -v", () => {
    const events: FlowerEvent[] = [
      {
        type: "claude-stderr",
        step: "work",
        lines: ["first", "--dangerously-skip-permissions cannot be used"],
      },
    ];
    expect(render(events, { tty: false, locale: "en" })).toBe("");
    expect(render(events, { tty: false, locale: "en", verbose: true })).toBe(
      [
        "   claude's stderr (last lines):",
        "   | first",
        "   | --dangerously-skip-permissions cannot be used",
        "",
      ].join("\n"),
    );
  });

  it("renders the same lines in English", () => {
    const events: FlowerEvent[] = [
      { type: "step-start", step: "work", attempt: 1, generation: 2 },
      { type: "agent", step: "work", phase: "start", agent: "analyst", description: "count files" },
      { type: "agent", step: "work", phase: "end", agent: "analyst" },
      {
        type: "step-end",
        step: "work",
        ok: true,
        status: "done",
        sessionId: "s",
        costUsd: 1.5,
        numTurns: 1,
        turns: 1,
        generations: 1,
        errors: [],
      },
    ];
    expect(render(events, { tty: false, locale: "en" })).toBe(
      [
        "=> start work · generation 2",
        "-> analyst started: count files",
        "<- analyst done",
        "<= done work · 1 turn · $1.50",
        "",
      ].join("\n"),
    );
  });
});

describe("Display on a TTY", () => {
  it("redraws the gauge in place and prints other lines above it", () => {
    const output = render(
      [
        { type: "context", step: "s", context: 40_000, window: 200_000, at: 150_000, generation: 1 },
        { type: "context", step: "s", context: 41_000, window: 200_000, at: 150_000, generation: 1 },
        { type: "agent", step: "s", phase: "start", agent: "分析员" },
        { type: "context", step: "s", context: 45_500, window: 200_000, at: 150_000, generation: 1 },
      ],
      { tty: true },
    );
    expect(output).toContain("\r\x1b[2K# 上下文 41.0K/200K");
    expect(screen(output)).toEqual(["-> 分析员 开工", "# 上下文 45.5K/200K · 还有约 105K 到换代", ""]);
  });

  it("says how long it has waited while a step runs and nothing changes; never in a pipe", () => {
    let now = 0;
    const step = (type: "step-start" | "step-end"): FlowerEvent =>
      type === "step-start"
        ? { type, step: "w", attempt: 1, generation: 1 }
        : {
            type,
            step: "w",
            ok: true,
            status: "done",
            sessionId: null,
            costUsd: 0,
            numTurns: 1,
            turns: 1,
            generations: 1,
            errors: [],
          };
    const view = (tty: boolean) => {
      const { out, text } = capture();
      const display = new Display({ out, tty, locale: "en", home: "/home/u", now: () => now, ticks: false });
      return { display, text };
    };
    const { display, text } = view(true);
    display.handle(step("step-start"));
    now = 3_000;
    display.tick();
    // Before the first reply: a line of its own.
    expect(screen(text()).at(-1)).toBe(".. waiting 3s");
    display.handle({
      type: "context",
      step: "w",
      context: 7_300,
      window: 1_000_000,
      at: 950_000,
      generation: 1,
    });
    now = 4_000;
    display.tick();
    // The gauge just moved: nothing to say yet.
    expect(screen(text()).at(-1)).toBe("# context 7.3K/1M · about 943K until handoff");
    now = 18_000;
    display.tick();
    expect(screen(text()).at(-1)).toBe("# context 7.3K/1M · about 943K until handoff · waiting 15s");
    now = 94_000;
    display.tick();
    expect(screen(text()).at(-1)).toBe("# context 7.3K/1M · about 943K until handoff · waiting 1m 31s");
    // A line printed: the gauge under it as it is, the count starts again.
    display.handle({ type: "agent", step: "w", phase: "start", agent: "engineer", description: "Fix" });
    display.tick();
    expect(screen(text()).slice(-2)).toEqual([
      "-> engineer started: Fix",
      "# context 7.3K/1M · about 943K until handoff",
    ]);
    // The step ended: no more waiting said.
    display.handle(step("step-end"));
    const ended = text();
    now = 200_000;
    display.tick();
    expect(text()).toBe(ended);
    display.close();

    const pipe = view(false);
    pipe.display.handle(step("step-start"));
    now = 400_000;
    pipe.display.tick();
    expect(pipe.text()).not.toContain("waiting");
    // eslint-disable-next-line no-control-regex -- no escape code in a pipe
    expect(pipe.text()).not.toMatch(/\x1b/);
    pipe.display.close();
  });

  it("leaves the seed example on screen", () => {
    const output = render(seedEvents(), { tty: true });
    // On a terminal the gauge before the crossing was the status line, redrawn by the marked one.
    expect(screen(output).join("\n")).toBe(SEED_EXAMPLE.split("\n").slice(1).join("\n"));
  });

  it("cuts every line to the terminal's width, wide characters counted as two columns", () => {
    const denial: FlowerEvent = {
      type: "tool-denied",
      step: "s",
      tool: "Bash",
      command: `npm test -- ${"--verbose ".repeat(30)}`,
      reason:
        "主线程不亲自动手:用 Agent 工具派一个子代理,任务里写清目标和验收标准,让它把长输出写到 .flower/artifacts/,回复里只给路径和结论。",
    };
    const events = [...seedEvents(), denial];
    for (const columns of [40, 80, 120]) {
      const lines = screen(render(events, { tty: true, columns }));
      for (const line of lines) expect(columnsOf(line)).toBeLessThan(columns);
      expect(lines.some((line) => line.endsWith("…"))).toBe(true);
    }
    // A pipe is never cut: the whole line is there for grep.
    const piped = render(events, { tty: false, columns: 40 });
    expect(piped).toContain("--verbose --verbose --verbose --verbose --verbose");
  });
});

describe("handoffSummary", () => {
  it("joins bullets and cuts long values", () => {
    const lines = handoffSummary({ doing: "x".repeat(500), decided: "1. a。\n2. b。" }, "zh");
    expect(lines[0]).toBe(`  - 现在在做  ${"x".repeat(199)}…`);
    expect(lines[1]).toBe("  - 已定的事  a;b。");
    expect(lines[2]).toBe("  - 走不通的  (空)");
  });
});

describe("Display: a setting a continued step does not keep", () => {
  const overrides: FlowerEvent[] = [
    { type: "setting-override", step: "s", setting: "window", recorded: 90_000, now: 200_000, by: "window" },
    {
      type: "setting-override",
      step: "s",
      setting: "window",
      recorded: 1_000_000,
      now: 200_000,
      by: "model",
    },
    {
      type: "setting-override",
      step: "s",
      setting: "model",
      recorded: null,
      now: "claude-haiku-4-5",
      by: "model",
    },
    { type: "setting-override", step: "s", setting: "handoff", recorded: true, now: false, by: "handoff" },
    {
      type: "setting-override",
      step: "s",
      setting: "maxBudgetUsd",
      recorded: 3,
      now: 0.5,
      by: "maxBudgetUsd",
    },
    { type: "setting-override", step: "s", setting: "review", recorded: false, now: true, by: "review" },
    { type: "setting-override", step: "s", setting: "locale", recorded: "en", now: "zh", by: "locale" },
  ];

  it("one line each, naming the flag that changed it (en)", () => {
    expect(render(overrides, { tty: false, locale: "en" }).trimEnd().split("\n")).toEqual([
      "window 90K as started → 200K (--window)",
      "window 1M as started → 200K (--model)",
      "model default as started → claude-haiku-4-5 (--model)",
      "handoff on as started → off (--no-handoff)",
      "session budget $3 as started → $0.5 (--max-budget-usd)",
      "review off as started → on (--review)",
      "language en as started → zh (--lang)",
    ]);
  });

  it("the same in zh", () => {
    expect(render(overrides, { tty: false, locale: "zh" }).trimEnd().split("\n")).toEqual([
      "窗口 90K(启动时)→ 200K(--window)",
      "窗口 1M(启动时)→ 200K(--model)",
      "模型 默认(启动时)→ claude-haiku-4-5(--model)",
      "换代 开(启动时)→ 关(--no-handoff)",
      "每会话预算 $3(启动时)→ $0.5(--max-budget-usd)",
      "评审 关(启动时)→ 开(--review)",
      "语言 en(启动时)→ zh(--lang)",
    ]);
  });
});

describe("a handoff a person asked for (flower handoff)", () => {
  const asked: FlowerEvent = {
    type: "handoff-request",
    step: "work",
    by: "ann@desk",
    next: "Sum data/b first",
  };
  it.each([
    ["en", ">> work: ann@desk asked for a handoff (flower handoff); next: Sum data/b first"],
    ["zh", ">> work:ann@desk 用 flower handoff 要求交接,下一步:Sum data/b first"],
  ] as const)("is a line of its own in the driver's live view (%s)", (locale, line) => {
    expect(render([asked], { tty: false, locale }).split("\n")).toContain(line);
  });
  it("without words says only who asked", () => {
    const plain = render([{ ...asked, next: null }], { tty: false, locale: "en" });
    expect(plain).toContain(">> work: ann@desk asked for a handoff (flower handoff)\n");
  });
});
