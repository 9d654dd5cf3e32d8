import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseCommandLine, parseWindow } from "../../../src/cli/command-line/args.js";
import { COMMAND_OPTIONS, COMMANDS } from "../../../src/cli/command-line/command-options.js";
import { stepNameFor } from "../../../src/cli/commands/run.js";
import { maskToken } from "../../../src/cli/providers/credentials.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { startFakeModel, text } from "../../../src/testing/index.js";
import { useTempDirs } from "../../support/temp-dir.js";
import { BIN, cleanEnv, killAll, runFlower, runFlowerOk } from "./helpers.js";

const temp = useTempDirs();
afterEach(() => {
  killAll();
});

function lines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

describe("usage errors in the display language", () => {
  it("say it in zh with a zh LANG, FLOWER_LANG or --lang zh, and in en where FLOWER_LANG says so", () => {
    const zh = { LANG: "zh_CN.UTF-8" };
    expect(() => parseCommandLine(["--bogus", "fix it"], zh)).toThrow(
      "flower: 没有这个选项 --bogus(见 flower --help)",
    );
    expect(() => parseCommandLine(["continue", "--nope"], { FLOWER_LANG: "zh" })).toThrow(
      "flower continue: 没有这个选项 --nope",
    );
    expect(() => parseCommandLine(["fix it", "--window"], zh)).toThrow("选项 --window 需要一个值");
    expect(() => parseCommandLine(["runs", "--lang", "zh", "--json=1"], {})).toThrow("选项 --json 不带值");
    expect(() => parseCommandLine(["--bogus", "x"], { ...zh, FLOWER_LANG: "en_US" })).toThrow(
      "flower: unknown option --bogus (see flower --help)",
    );
    expect(() => parseCommandLine(["--lang", "en", "--bogus", "x"], zh)).toThrow("unknown option --bogus");
  });
});

describe("flower: usage errors fail with one line and exit code 2", () => {
  it.each([
    [["--window", "abc", "fix it"], /--window must be an integer.*"abc"/],
    [["--window", "5000", "fix it"], /--window 5000 is too small to work in: .*give at least 85000/],
    [["--window", "12.5", "fix it"], /--window must be an integer/],
    [["--bogus", "fix it"], /unknown option --bogus/],
    [["continue", "--nope"], /flower continue: unknown option --nope/],
    [["fix it", "--window"], /option --window needs a value/],
    [["--lang", "fr", "fix it"], /--lang must be zh or en/],
    [["--max-budget-usd", "-1", "fix it"], /--max-budget-usd/],
    [["--max-budget-usd", "free", "fix it"], /--max-budget-usd must be a positive number/],
    [[], /no task given/],
    [["runs", "extra"], /unexpected argument/],
  ])("%j", async (args, message) => {
    const run = await runFlower(args, {
      env: cleanEnv({ ANTHROPIC_API_KEY: "sk-ant-abcdef123" }),
      timeoutMs: 15_000,
    });
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe("");
  });

  it("without credentials: says what to set and points to the demo", async () => {
    const workspace = temp.make("flower-cli-");
    const run = await runFlower(["fix the build"], { cwd: workspace, timeoutMs: 15_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("ANTHROPIC_API_KEY");
    expect(run.stderr).toContain("ANTHROPIC_AUTH_TOKEN");
    expect(run.stderr).toContain("CLAUDE_CODE_USE_BEDROCK=1");
    expect(run.stderr).toContain("CLAUDE_CODE_USE_VERTEX=1");
    expect(run.stderr).toContain("CLAUDE_CODE_USE_FOUNDRY=1");
    expect(run.stderr).toContain("CLAUDE_CODE_USE_ANTHROPIC_AWS=1");
    expect(run.stderr).toContain("apiKeyHelper");
    expect(run.stderr).toContain("flower demo");
    expect(run.stdout).toBe("");
  });

  it("a workspace that does not exist is a configuration error (2)", async () => {
    const run = await runFlower(["--workspace", "/nonexistent/flower/ws", "x"], {
      env: cleanEnv({ ANTHROPIC_API_KEY: "sk-ant-abcdef123" }),
      timeoutMs: 15_000,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/workspace/);
  });
});

/** An option's lines in the help (its flag line and the wrapped description under it), as one line. */
function optionBlock(help: string, name: string): string {
  const lines = help.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^  (-\\w, |    )--${name}\\b`).test(line));
  expect(start, `--${name} in the help`).toBeGreaterThanOrEqual(0);
  const block = [lines[start]!];
  for (const line of lines.slice(start + 1)) {
    if (!/^ {7,}\S/.test(line)) break;
    block.push(line);
  }
  return block.map((line) => line.trim()).join(" ");
}

describe("flower --help", () => {
  it("lists every run option with its default, and every command", async () => {
    const run = await runFlower(["--help"], { timeoutMs: 15_000 });
    expect(run.code).toBe(0);
    for (const name of Object.keys(COMMAND_OPTIONS.run))
      expect(optionBlock(run.stdout, name)).toMatch(/\[default: /);
    for (const command of COMMANDS.filter((c) => c !== "run"))
      expect(run.stdout).toContain(`flower ${command}`);
  });

  it("flower --version and -V print the package's version and nothing else, with no key and no run", async () => {
    const version = (
      JSON.parse(readFileSync(join(import.meta.dirname, "../../../package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    const cwd = temp.make("flower-version-");
    for (const flag of ["--version", "-V"]) {
      const run = await runFlower([flag], { cwd, env: cleanEnv(), timeoutMs: 15_000 });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
      expect(run.stderr).toBe("");
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each(COMMANDS.filter((c) => c !== "run"))(
    "flower %s --help lists every option with its default",
    async (command) => {
      const run = await runFlower([command, "--help"], { timeoutMs: 15_000 });
      expect(run.code).toBe(0);
      for (const name of Object.keys(COMMAND_OPTIONS[command]))
        expect(optionBlock(run.stdout, name)).toMatch(/\[default: /);
    },
  );

  it("speaks zh with --lang zh, FLOWER_LANG or a zh LANG, and every option keeps its default", async () => {
    const flag = await runFlower(["--help", "--lang", "zh"], { timeoutMs: 15_000 });
    expect(flag.code).toBe(0);
    expect(flag.stdout).toMatch(/^flower —— /);
    expect(flag.stdout).toContain("运行的选项:");
    for (const name of Object.keys(COMMAND_OPTIONS.run))
      expect(optionBlock(flag.stdout, name)).toMatch(/\[默认: /);
    expect(flag.stdout).not.toMatch(/\[default: /);

    const env = await runFlower(["demo", "--help"], {
      timeoutMs: 15_000,
      env: cleanEnv({ FLOWER_LANG: "zh" }),
    });
    expect(env.stdout).toContain("用法: flower demo [options]");
    for (const name of Object.keys(COMMAND_OPTIONS.demo))
      expect(optionBlock(env.stdout, name)).toMatch(/\[默认: /);

    const lang = await runFlower(["help"], {
      timeoutMs: 15_000,
      env: cleanEnv({ FLOWER_LANG: "", LANG: "zh_CN.UTF-8" }),
    });
    expect(lang.stdout).toContain("用法:");
  });

  it("asking for help with a bad --lang still shows the help, in the environment's language", async () => {
    const run = await runFlower(["show", "--help", "--lang", "fr"], { timeoutMs: 15_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: flower show [step] [options]");
  });
});

describe("maskToken", () => {
  it("keeps the first 4 characters and a fixed mask, never more", () => {
    expect(maskToken("sk-ant-abcdef123")).toBe("sk-a****");
    expect(maskToken("sk-ant-api03-" + "x".repeat(90))).toBe("sk-a****");
    expect(maskToken("short")).toBe("****");
    expect(maskToken(null)).toBe("(none)");
  });
});

describe("flower runs / show on an empty run directory", () => {
  it("runs says there is nothing yet; show is a usage error", async () => {
    const dir = temp.make("flower-cli-");
    const runs = await runFlower(["runs", "--run-dir", dir], { timeoutMs: 15_000 });
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(/No steps yet/);
    const show = await runFlower(["show", "nope", "--run-dir", dir], { timeoutMs: 15_000 });
    expect(show.code).toBe(2);
    expect(show.stderr).toMatch(/no step "nope"/);
    const forget = await runFlower(["forget", "--run-dir", dir], { timeoutMs: 15_000 });
    expect(forget.code).toBe(2);
    expect(forget.stderr).toBe("flower forget: name the step whose sessions to delete (see flower runs)\n");
  });

  it("bare flower shows an unfinished step and the command that continues it, without a key", async () => {
    const workspace = temp.make("flower-cli-");
    const runDir = join(workspace, "runs");
    const records = new SqliteRunRecords(runDir);
    records.put({
      ...newStepRecord("fix build", "lead", "Fix the build."),
      status: "stopped",
      sessionId: "s1",
    });
    records.close();
    const run = await runFlowerOk(["--run-dir", runDir], { cwd: workspace, timeoutMs: 15_000 });
    expect(run.stdout).toContain('The last step here, "fix build", is stopped.');
    expect(run.stdout).toContain("Continue it with: flower continue 'fix build'\n");
  });

  it("bare flower on a terminal with nothing unfinished asks for the task, then goes on with it", async () => {
    const workspace = temp.make("flower-cli-");
    const model = await startFakeModel({ policy: () => text("Fixed the build as asked.") });
    try {
      const flower = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} --direct --run-dir runs`;
      // `script` gives flower a terminal; the task is typed into it.
      const typed = `printf 'fix the build\\n' | script -q -e -c ${JSON.stringify(flower)} /dev/null`;
      const run = await runFlower([], {
        command: "bash",
        commandArgs: ["-c", typed],
        cwd: workspace,
        env: cleanEnv({ TERM: "xterm", ...model.env() }),
        timeoutMs: 60_000,
      });
      expect(run.stdout).toContain("Task: ");
      // It read the task and went on with it.
      expect(run.stdout).toContain("Fixed the build as asked.");
      expect(model.requests.some((request) => request.firstUserText().includes("fix the build"))).toBe(true);
      expect(run.code).toBe(0);
    } finally {
      await model.close();
    }
  }, 90_000);

  it("continue with nothing to continue says so before asking for credentials, and creates nothing", async () => {
    const workspace = temp.make("flower-cli-");
    const runDir = join(workspace, "runs");
    // No key in the environment: the answer must not depend on one.
    const run = await runFlower(["continue", "--run-dir", runDir], { cwd: workspace, timeoutMs: 15_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^flower continue: No steps yet in /);
    expect(run.stderr).not.toContain("ANTHROPIC_API_KEY");
    const named = await runFlower(["continue", "ghost", "--run-dir", runDir], {
      cwd: workspace,
      timeoutMs: 15_000,
    });
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/no step "ghost"/);
    expect(existsSync(runDir)).toBe(false);
  });

  it("a reader that closes the pipe early is not an error", () => {
    const dir = temp.make("flower-cli-");
    // `true` exits before flower writes a byte, so the write meets a closed pipe (EPIPE): flower must
    // end quietly with 0, not crash with a stack trace.
    const out = execFileSync("bash", ["-c", `node ${BIN} --help | true; echo "pipe:\${PIPESTATUS[0]}"`], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(out).toBe("pipe:0\n");
  });
});

describe("parseCommandLine", () => {
  it("finds the command after global options, and `--` makes a command word a task", () => {
    expect(parseCommandLine(["-v", "continue", "fix"])).toMatchObject({
      command: "continue",
      positionals: ["fix"],
      values: { verbose: true },
    });
    expect(parseCommandLine(["--run-dir", "runs", "show"])).toMatchObject({
      command: "show",
      positionals: [],
    });
    expect(parseCommandLine(["--", "runs"])).toMatchObject({ command: "run", positionals: ["runs"] });
    expect(parseCommandLine(["--window", "200_000", "fix the build"])).toMatchObject({
      command: "run",
      values: { window: "200_000" },
    });
    expect(parseWindow("200_000")).toBe(200_000);
    expect(() => parseCommandLine(["runs", "--window", "1"])).toThrow(/flower runs: unknown option --window/);
  });
});

describe("stepNameFor", () => {
  it("is made from the first words and unique in the manifest", () => {
    const taken = new Set(["fix-the-flaky-test"]);
    expect(stepNameFor("Fix the flaky test!", (name) => taken.has(name))).toBe("fix-the-flaky-test-2");
    expect(stepNameFor("修复 构建", () => false)).toBe("修复-构建");
    expect(stepNameFor("!!!", () => false)).toBe("task");
  });
});
