/**
 * What a newcomer meets first, through the built binary: a typo is not a paid run, bare `flower` says
 * there is no key before asking for a task, a window that cannot work is refused (and a small one
 * noted), language tags in their usual spellings, usage errors in the chosen language, short status
 * words, the run records named where they are, the options carried from one command to the next, and
 * `.flower/` and `runs/` kept out of git. Most need no model at all; the .gitignore one runs one
 * direct step against the offline kit.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { columnsOf } from "../../../src/cli/live/terminal-text.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { text, type FakeModel } from "../../../src/testing/index.js";
import { BIN, cleanEnv, runFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;

/** A key, and an endpoint nothing listens on: should a run start after all, it reaches no one. */
const KEY = { ANTHROPIC_API_KEY: "sk-ant-abcdef123", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" };

function stderrLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line !== "");
}

describe("a one-word task that is close to a command is a usage error, not a paid run", () => {
  it.each([
    ["stauts", "flower runs"],
    ["version", "flower --version"],
    ["list", "flower runs"],
    ["ls", "flower runs"],
    ["status", "flower runs"],
    ["shwo", "flower show"],
    ["contine", "flower continue"],
    // The README's own example, and slips of the other short words: each started a paid run.
    ["lsit", "flower runs"],
    ["lgos", "flower show"],
    ["ifno", "flower show"],
    ["rnus", "flower runs"],
  ])("flower %s: did you mean %s; nothing written, no request made", async (word, meant) => {
    model = await startModel({ policy: () => text("this must not be asked") });
    const cwd = temp.make("flower-typo-");
    const run = await runFlower([word], { env: cleanEnv(model.env(KEY)), cwd, timeoutMs: 15_000 });
    expect(run.code).toBe(2);
    expect(stderrLines(run.stderr)).toEqual([
      `flower: "${word}" looks like a command, not a task; nothing was started. Did you mean: ${meant}? To run it as a task anyway: flower -- ${word}`,
    ]);
    expect(run.stdout).toBe("");
    expect(readdirSync(cwd)).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it("says it in Chinese with --lang zh, and `flower -- <word>` takes the word as a task", async () => {
    const cwd = temp.make("flower-typo-");
    const zh = await runFlower(["--lang", "zh", "list"], { env: cleanEnv(KEY), cwd, timeoutMs: 15_000 });
    expect(zh.code).toBe(2);
    expect(stderrLines(zh.stderr)).toEqual([
      'flower: "list" 像是命令,不像任务;什么都没有启动。你是想: flower runs?真要把它当任务跑: flower -- list',
    ]);
    // Past the typo check: with no key configured, the next thing said is how to set one.
    const literal = await runFlower(["--", "list"], { env: cleanEnv(), cwd, timeoutMs: 15_000 });
    expect(literal.code).toBe(2);
    expect(literal.stderr).toContain("no way to reach Claude is configured");
    expect(literal.stderr).not.toContain("looks like a command");
    // A real one-word task far from every command is not refused.
    const refactor = await runFlower(["refactor"], { env: cleanEnv(), cwd, timeoutMs: 15_000 });
    expect(refactor.stderr).toContain("no way to reach Claude is configured");
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("a mistyped option names the option meant", () => {
  it("flower --windwo: did you mean --window; nothing started, no request made", async () => {
    model = await startModel({ policy: () => text("this must not be asked") });
    const cwd = temp.make("flower-typo-");
    const run = await runFlower(["--windwo", "200000", "fix the build"], {
      env: cleanEnv(model.env(KEY)),
      cwd,
      timeoutMs: 15_000,
    });
    expect(run.code).toBe(2);
    expect(stderrLines(run.stderr)).toEqual([
      "flower: unknown option --windwo; did you mean --window? (see flower --help)",
    ]);
    const zh = await runFlower(["continue", "--budegt", "3", "--lang", "zh"], {
      env: cleanEnv(model.env(KEY)),
      cwd,
      timeoutMs: 15_000,
    });
    expect(stderrLines(zh.stderr)).toEqual([
      "flower continue: 没有这个选项 --budegt;你是想 --budget?(见 flower continue --help)",
    ]);
    expect(readdirSync(cwd)).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});

describe("bare flower on a terminal", () => {
  /** `script` gives flower a terminal; `typed` is what the person types into it. */
  function onTerminal(typed: string, env: Record<string, string>, cwd: string) {
    const flower = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} --run-dir runs`;
    return runFlower([], {
      command: "bash",
      commandArgs: ["-c", `printf '${typed}' | script -q -e -c ${JSON.stringify(flower)} /dev/null`],
      cwd,
      env: cleanEnv({ TERM: "xterm", ...env }),
      timeoutMs: 20_000,
    });
  }

  it("without a key says so before asking for a task", async () => {
    const cwd = temp.make("flower-bare-");
    const run = await onTerminal("fix the build\\n", {}, cwd);
    expect(run.stdout).toContain("no way to reach Claude is configured");
    expect(run.stdout).not.toContain("Task: ");
    expect(run.code).toBe(2);
    expect(existsSync(join(cwd, "runs"))).toBe(false);
  });

  it("with a key asks for the task (in zh too), saying what a task typed there does and how to leave; no answer is no task", async () => {
    const cwd = temp.make("flower-bare-");
    const en = await onTerminal("\\n", KEY, cwd);
    expect(en.stdout).toContain(
      `No task given. Type one and press Enter: an agent works on it in ${cwd}, first writing down the requirements, then pausing for you to read them.\r\n` +
        "Enter on an empty line, Ctrl-D or Ctrl-C leaves without starting anything (flower --help lists the options).\r\n",
    );
    expect(en.stdout).toContain("Task: ");
    expect(en.stdout).toContain("no task given");
    expect(en.code).toBe(2);
    const zh = await onTerminal("\\n", { ...KEY, FLOWER_LANG: "zh" }, cwd);
    expect(zh.stdout).toContain("空行回车、Ctrl-D 或 Ctrl-C 离开,什么都不启动");
    expect(zh.stdout).toContain("任务: ");
    expect(zh.stdout).toContain("没有给任务");
  });

  it("a command typed at the prompt is refused there too; nothing is asked of the model", async () => {
    model = await startModel({ policy: () => text("this must not be asked") });
    const cwd = temp.make("flower-bare-");
    const run = await onTerminal("lsit\\n", model.env(KEY), cwd);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('flower: "lsit" looks like a command, not a task; nothing was started.');
    expect(model.requests).toHaveLength(0);
    expect(existsSync(join(cwd, "runs"))).toBe(false);
  });
});

describe("--window: a window a coordinator cannot work in is refused, a small one noted once", () => {
  it.each([
    [
      "en",
      "20000",
      "flower: --window 20000 is too small to work in: the handoff line would be at 10K (window - 50K headroom), not above the ~34K a coordinator needs just to start, so every generation would hand off before doing anything; give at least 85000",
    ],
    [
      "en",
      "84000",
      "flower: --window 84000 is too small to work in: the handoff line would be at 34K (window - 50K headroom), not above the ~34K a coordinator needs just to start, so every generation would hand off before doing anything; give at least 85000",
    ],
    [
      "zh",
      "20000",
      "flower: --window 20000 太小,干不了活: 换代线会在 10K(窗口减去 50K 余量),不高于协调者光启动就要的约 34K,每一代还没干活就得换代;至少给 85000",
    ],
  ])("--lang %s --window %s: exit 2 with the numbers", async (lang, window, message) => {
    const cwd = temp.make("flower-window-");
    const run = await runFlower(["--lang", lang, "--window", window, "fix the build"], {
      env: cleanEnv(KEY),
      cwd,
      timeoutMs: 15_000,
    });
    expect(run.code).toBe(2);
    expect(stderrLines(run.stderr)).toEqual([message]);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("between 85000 and 186000: one note before the run; from 186000 none", async () => {
    const cwd = temp.make("flower-window-");
    // No key: the note comes before the missing key is reported, and nothing runs.
    const small = await runFlower(["--window", "150000", "fix the build"], { cwd, timeoutMs: 15_000 });
    expect(small.code).toBe(2);
    const notes = small.stdout.split("\n").filter((line) => line.includes("--window 150000"));
    expect(notes).toEqual([
      "flower: note: --window 150000 hands off at 100K, and a coordinator needs ~34K just to start, so every generation spends much of its room starting up and hands off often; a window of 186000 or more (the model's real one) works comfortably",
    ]);
    const zh = await runFlower(["--lang", "zh", "--window", "150000", "fix the build"], {
      cwd,
      timeoutMs: 15_000,
    });
    expect(zh.stdout).toContain("flower: 提示: --window 150000 的换代线在 100K");
    const comfortable = await runFlower(["--window", "186000", "fix the build"], { cwd, timeoutMs: 15_000 });
    expect(comfortable.stdout).toBe("");
    expect(comfortable.stderr).toContain("no way to reach Claude is configured");
  });
});

describe("options: the right reason, the usual spellings, the chosen language", () => {
  it.each([
    [
      ["--max-budget-usd", "-3", "fix it"],
      'flower: --max-budget-usd must be a positive number of dollars, got "-3"',
    ],
    [
      ["--max-budget-usd", "-0.5", "fix it"],
      'flower: --max-budget-usd must be a positive number of dollars, got "-0.5"',
    ],
    [
      ["--window", "-5", "fix it"],
      'flower: --window must be an integer number of tokens (>= 85000), got "-5"',
    ],
    [
      ["--lang", "zh", "--max-budget-usd", "-3", "fix it"],
      'flower: --max-budget-usd 必须是正数(美元),收到 "-3"',
    ],
    [
      ["--lang", "zh", "--window", "abc", "fix it"],
      'flower: --window 必须是整数个 token(>= 85000),收到 "abc"',
    ],
    [
      ["--window", "abc", "--lang", "zh", "fix it"],
      'flower: --window 必须是整数个 token(>= 85000),收到 "abc"',
    ],
    [
      ["--lang", "zh", "--workspace", "/nonexistent/flower/ws", "fix it"],
      "flower: --workspace 必须是已存在的目录,收到 /nonexistent/flower/ws",
    ],
    [["--lang", "ZH", "one", "two"], 'flower: 任务要作为一个带引号的参数给出,收到 2 个词(flower "one two")'],
    [["--lang", "zh_CN.UTF-8", "--bogus", "x"], "flower: 没有这个选项 --bogus(见 flower --help)"],
    [["show", "a", "b", "--lang", "zh"], "flower show: 只给一个步骤名(见 flower show --help)"],
    [["runs", "extra", "--lang", "zh"], 'flower runs: 多了一个参数 "extra"(见 flower runs --help)'],
    [["forget", "--lang", "zh"], "flower forget: 说出要删哪一步的会话(见 flower runs)"],
    [
      ["--lang", "fr", "fix it"],
      'flower: --lang must be zh or en (zh-CN, zh_CN.UTF-8, en_US … are read too), got "fr"',
    ],
    [
      ["--step", "-x", "fix it"],
      "flower: option --step needs a value; one that starts with a dash is written --step=-… (see flower --help)",
    ],
  ])("%j", async (args, message) => {
    const cwd = temp.make("flower-usage-");
    const run = await runFlower(args, { env: cleanEnv(KEY), cwd, timeoutMs: 15_000 });
    expect(run.code).toBe(2);
    expect(stderrLines(run.stderr)).toEqual([message]);
    expect(run.stdout).toBe("");
  });

  it.each([
    ["ZH", "zh"],
    ["zh-CN", "zh"],
    ["zh_CN.UTF-8", "zh"],
    ["en_US", "en"],
    ["EN-gb", "en"],
  ])("--lang %s and FLOWER_LANG=%s speak the same language", async (tag, expected) => {
    // LANG says the other language: only the tag can make it this one.
    const other = { LANG: expected === "zh" ? "en_US.UTF-8" : "zh_CN.UTF-8" };
    const dir = temp.make("flower-lang-");
    const flag = cleanEnv({ ...other, FLOWER_LANG: "" });
    const variable = cleanEnv({ ...other, FLOWER_LANG: tag });
    const runs = [
      await runFlower(["--help", "--lang", tag], { env: flag, timeoutMs: 15_000 }),
      await runFlower(["--help"], { env: variable, timeoutMs: 15_000 }),
    ];
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(expected === "zh" ? "运行的选项:" : "Options of a run:");
      expect(run.stderr).toBe("");
    }
    const listed = [
      await runFlower(["runs", "--run-dir", dir, "--lang", tag], { env: flag, timeoutMs: 15_000 }),
      await runFlower(["runs", "--run-dir", dir], { env: variable, timeoutMs: 15_000 }),
    ];
    for (const run of listed) {
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(expected === "zh" ? /里还没有步骤/ : /^No steps yet/);
    }
  });

  it("FLOWER_LANG=fr is one note and falls back to LANG; --lang on the line needs no note", async () => {
    const dir = temp.make("flower-lang-");
    const en = await runFlower(["runs", "--run-dir", dir], {
      env: cleanEnv({ FLOWER_LANG: "fr" }),
      timeoutMs: 15_000,
    });
    expect(en.code).toBe(0);
    expect(stderrLines(en.stderr)).toEqual([
      "flower: note: FLOWER_LANG=fr is not a language flower speaks (zh or en); using en",
    ]);
    expect(en.stdout).toMatch(/^No steps yet/);
    const zh = await runFlower(["runs", "--run-dir", dir], {
      env: cleanEnv({ FLOWER_LANG: "fr", LANG: "zh_CN.UTF-8" }),
      timeoutMs: 15_000,
    });
    expect(stderrLines(zh.stderr)).toEqual([
      "flower: 提示: FLOWER_LANG=fr 不是 flower 会说的语言(zh 或 en),改用 zh",
    ]);
    const flag = await runFlower(["runs", "--run-dir", dir, "--lang", "en"], {
      env: cleanEnv({ FLOWER_LANG: "fr" }),
      timeoutMs: 15_000,
    });
    expect(flag.stderr).toBe("");
  });
});

describe("runs and show: a short status word, the hint on its own line, records.db named", () => {
  function recorded(): string {
    const root = temp.make("flower-status-");
    const runDir = join(root, "runs");
    const records = new SqliteRunRecords(runDir);
    records.put({
      ...newStepRecord("checked", "lead", "Write out.txt."),
      status: "goal-not-met",
      sessionId: "s1",
    });
    records.close();
    return runDir;
  }

  it.each([
    [
      "en",
      "goal not met",
      "goal not met: the goal's checks or reviewer said no; flower show <step> lists the evidence",
    ],
    ["zh", "目标未达成", "目标未达成: 目标的检查或评审没通过;证据见 flower show <步骤>"],
  ])("%s", async (lang, word, hint) => {
    const runDir = recorded();
    const runs = await runFlower(["runs", "--run-dir", runDir, "--lang", lang], { timeoutMs: 15_000 });
    expect(runs.code).toBe(0);
    const lines = runs.stdout.split("\n");
    const row = lines.find((line) => line.startsWith("checked"))!;
    expect(row).toMatch(new RegExp(`^checked\\s+${word}\\s+0\\s+\\$0\\.0000\\s`));
    // The status column is as wide as a word, not as the hint: the row fits an 80-column terminal.
    expect(columnsOf(row)).toBeLessThanOrEqual(80);
    expect(lines.filter((line) => line !== "").at(-1)).toBe(hint);
    const show = await runFlower(["show", "checked", "--run-dir", runDir, "--lang", lang], {
      timeoutMs: 15_000,
    });
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(new RegExp(`^(status|状态)\\s+${word} · `, "m"));
    expect(show.stdout).not.toContain("flower show <");
  });

  it("a step that is not there: the message names records.db, never manifest.json", async () => {
    const runDir = recorded();
    for (const args of [
      ["show", "ghost", "--run-dir", runDir],
      ["continue", "ghost", "--run-dir", runDir],
    ]) {
      const run = await runFlower(args, { timeoutMs: 15_000 });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`no step "ghost" in ${join(runDir, "records.db")}`);
      expect(run.stderr).not.toContain("manifest.json");
    }
    const empty = temp.make("flower-empty-");
    const runs = await runFlower(["runs", "--run-dir", empty], { timeoutMs: 15_000 });
    expect(runs.stdout).toBe(
      `No steps yet in ${join(empty, "records.db")}. Start one with: flower "<task>"\n`,
    );
  });
});

describe("the options a user carries from one command to the next", () => {
  it.each([["runs"], ["show"], ["report"], ["forget", "checked"]])(
    "flower %s takes --workspace, --run-dir, --store and --lang",
    async (...command) => {
      const root = temp.make("flower-carry-");
      const runDir = join(root, "runs");
      const records = new SqliteRunRecords(runDir);
      records.put({ ...newStepRecord("checked", "lead", "Write out.txt."), status: "done", sessionId: "s1" });
      records.close();
      const out = join(root, "report.html");
      const run = await runFlower(
        [
          ...command,
          "--workspace",
          root,
          "--run-dir",
          runDir,
          "--lang",
          "en",
          ...(command[0] === "report" ? ["--out", out] : []),
        ],
        { env: cleanEnv({ FLOWER_STORE: "" }), cwd: root, timeoutMs: 20_000 },
      );
      expect(run.stderr).not.toMatch(/unknown option/);
      // forget gets as far as the (absent) session database: the options themselves were taken.
      if (command[0] === "forget") expect(run.stderr).toBe(`flower forget: no session store in ${runDir}\n`);
      else expect(run.code).toBe(0);
      const store = await runFlower([...command, "--store", "sqlite", "--workspace", root, "--lang", "zh"], {
        cwd: root,
        timeoutMs: 20_000,
      });
      expect(store.stderr).not.toMatch(/unknown option|没有这个选项/);
    },
  );
});

describe(".flower/ and runs/ keep themselves out of git", () => {
  it("a run creates both with a .gitignore of its own; git status shows only the person's files", async () => {
    model = await startModel({ policy: () => text("Looked around; nothing to change.") });
    const root = temp.make("flower-git-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    writeFileSync(join(root, "app.js"), "console.log(1);\n");
    const run = await runFlower(["--direct", "--step", "look", "Look around the project"], {
      env: cleanEnv(model.env()),
      cwd: root,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, "runs", ".gitignore"), "utf8")).toBe("*\n");
    expect(readFileSync(join(root, ".flower", ".gitignore"), "utf8")).toBe("*\n");
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(status).toBe("?? app.js\n");
  }, 90_000);
});

describe("help wraps to the terminal (80 columns through a pipe)", () => {
  it.each([
    ["en", []],
    ["en", ["continue"]],
    ["zh", []],
    ["zh", ["show"]],
  ])(
    "%s %j: no line over 80 columns but an unbreakable word; descriptions hang under their column",
    async (lang, command) => {
      const run = await runFlower([...command, "--help", "--lang", lang], { timeoutMs: 15_000 });
      expect(run.code).toBe(0);
      const lines = run.stdout.split("\n");
      for (const line of lines)
        if (columnsOf(line) > 80) expect(line.trim(), "an over-long line is one word").not.toMatch(/\s/);
      // A wrapped description goes on under its own column, not at the left margin.
      const flag = /^( {2}(?:-\w, | {4})--[\w-]+(?: \S+)? +)\S/;
      let column = -1;
      let hung = 0;
      for (const line of lines) {
        const match = flag.exec(line);
        if (match) {
          column = match[1]!.length;
          continue;
        }
        if (column < 0 || line.trim() === "") {
          column = -1;
          continue;
        }
        expect(line.search(/\S/), line).toBe(column);
        hung++;
      }
      expect(hung).toBeGreaterThan(0);
    },
  );
});
