/**
 * The pure parts of a newcomer's first contact with the CLI: which one-word tasks are commands, how a
 * language tag is read, the window numbers, the parser's handling of `-3` and `--`, the help's wrapping,
 * the goal-not-met verdict lines, and the `.gitignore` of the folders flower creates.
 */
import { checkResult } from "../../support/check-result.js";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommandLine, parseWindow, windowNote } from "../../../src/cli/command-line/args.js";
import { commandLike, editDistance, optionLike } from "../../../src/cli/command-line/command-like.js";
import { COMMANDS, type CommandName } from "../../../src/cli/command-line/command-options.js";
import { helpText } from "../../../src/cli/command-line/help.js";
import { columnsOf } from "../../../src/cli/live/terminal-text.js";
import { showCommandFor, verdictLines } from "../../../src/cli/live/verdict-lines.js";
import { terminalWidth, wrap } from "../../../src/cli/command-line/wrap.js";
import { DEFAULTS } from "../../../src/defaults.js";
import { makeIgnoredDirectory } from "../../../src/fs/private-files.js";
import { HandoffPolicy } from "../../../src/handoff/policy.js";
import {
  localeOfTag,
  resolveLocale,
  unknownLanguageSetting,
  type Locale,
} from "../../../src/locale/locale.js";
import { newGuardRecord, type CheckResultRecord } from "../../../src/records/guard-record.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { Workbench } from "../../../src/workbench/workbench.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

describe("commandLike: a one-word task close to a command", () => {
  it.each([
    ["stauts", "flower runs"],
    ["status", "flower runs"],
    ["STATUS", "flower runs"],
    ["version", "flower --version"],
    ["--version", "flower --version"],
    ["verison", "flower --version"],
    ["list", "flower runs"],
    ["ls", "flower runs"],
    ["help", "flower --help"],
    ["runz", "flower runs"],
    ["shwo", "flower show"],
    ["contniue", "flower continue"],
    ["reprot", "flower report"],
    ["forgot", "flower forget"],
    ["demos", "flower demo"],
    ["rn", 'flower "<task>"'],
  ])("%s → %s", (word, meant) => {
    expect(commandLike(word)).toBe(meant);
  });

  it.each(["refactor", "fix the build", "lint", "test", "deploy", "Make the test suite pass", "build"])(
    "%s is a task",
    (task) => {
      expect(commandLike(task)).toBeUndefined();
    },
  );

  it.each([
    ["lsit", "flower runs"],
    ["lits", "flower runs"],
    ["lst", "flower runs"],
    ["lgos", "flower show"],
    ["ifno", "flower show"],
    ["lgo", "flower show"],
    ["rnus", "flower runs"],
    ["sohw", "flower show"],
  ])("a slip of a short word flower knows: %s → %s", (word, meant) => {
    expect(commandLike(word)).toBe(meant);
  });

  it("refuses every one-letter typo of a command, and every slip of a word of 3 letters or more it knows", () => {
    const letters = "abcdefghijklmnopqrstuvwxyz";
    /** Two neighbours swapped, one letter left out, one letter added. */
    const slips = (word: string): string[] => {
      const out: string[] = [];
      for (let i = 0; i < word.length; i++) {
        if (i + 1 < word.length) out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
        out.push(word.slice(0, i) + word.slice(i + 1));
      }
      for (let i = 0; i <= word.length; i++)
        for (const letter of letters) out.push(word.slice(0, i) + letter + word.slice(i));
      return out;
    };
    const changed = (word: string): string[] =>
      [...word].flatMap((_, i) =>
        [...letters].map((letter) => word.slice(0, i) + letter + word.slice(i + 1)),
      );
    const missed: string[] = [];
    for (const command of COMMANDS)
      for (const typo of [...slips(command), ...changed(command)])
        if (typo.length > 0 && commandLike(typo) === undefined) missed.push(`${command}: ${typo}`);
    for (const known of ["list", "logs", "info", "status", "history", "resume", "delete", "undo", "revert"])
      for (const typo of slips(known).filter((slip) => known.length >= 4 || slip.length === known.length))
        if (typo.length > 1 && commandLike(typo) === undefined) missed.push(`${known}: ${typo}`);
    expect(missed).toEqual([]);
  });

  it("names the option a mistyped one meant, for the command it was given to", () => {
    expect(optionLike("--windwo", "run")).toBe("--window");
    expect(optionLike("--budegt", "continue")).toBe("--budget");
    expect(optionLike("--jsno", "runs")).toBe("--json");
    expect(optionLike("--bogus", "run")).toBeUndefined();
    expect(optionLike("--windwo", "runs")).toBeUndefined();
  });

  it("counts a swap of neighbours as one edit", () => {
    expect(editDistance("stauts", "status")).toBe(1);
    expect(editDistance("show", "show")).toBe(0);
    expect(editDistance("runs", "run")).toBe(1);
    expect(editDistance("refactor", "report")).toBeGreaterThan(2);
  });
});

describe("parseCommandLine", () => {
  it("takes a dash-led value of a numeric option as its value, for the option's parser to refuse", () => {
    expect(parseCommandLine(["--max-budget-usd", "-3", "fix it"])).toMatchObject({
      values: { "max-budget-usd": "-3" },
      positionals: ["fix it"],
    });
    expect(parseCommandLine(["--window", "-5", "fix it"])).toMatchObject({ values: { window: "-5" } });
  });

  it("marks a task given after `--`", () => {
    expect(parseCommandLine(["--", "list"])).toMatchObject({ positionals: ["list"], literal: true });
    expect(parseCommandLine(["list"])).not.toHaveProperty("literal");
  });
});

describe("language tags: one reading for --lang and FLOWER_LANG", () => {
  it.each([
    ["zh", "zh"],
    ["ZH", "zh"],
    ["zh-CN", "zh"],
    ["zh_CN.UTF-8", "zh"],
    ["zh-Hans-CN", "zh"],
    ["en", "en"],
    ["en_US", "en"],
    ["EN-GB@euro", "en"],
    ["fr", undefined],
    ["english", undefined],
    ["zhx", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%s → %s", (tag, locale) => {
    expect(localeOfTag(tag)).toBe(locale);
  });

  it("an unknown FLOWER_LANG is passed over for LANG and reported", () => {
    expect(resolveLocale(undefined, { FLOWER_LANG: "fr", LANG: "zh_CN.UTF-8" })).toBe("zh");
    expect(resolveLocale(undefined, { FLOWER_LANG: "en_US", LANG: "zh_CN.UTF-8" })).toBe("en");
    expect(unknownLanguageSetting({ FLOWER_LANG: "fr" })).toBe("fr");
    expect(unknownLanguageSetting({ FLOWER_LANG: "zh_CN.UTF-8" })).toBeUndefined();
    expect(unknownLanguageSetting({})).toBeUndefined();
  });
});

describe("the window numbers", () => {
  it("follow from the start-up floor and the headroom", () => {
    // The smallest window puts the handoff line just above a coordinator's start-up floor.
    expect(DEFAULTS.minimumWindow).toBeGreaterThan(DEFAULTS.coordinatorStartupFloor + DEFAULTS.headroom);
    expect(DEFAULTS.minimumWindow - 1_000).toBeLessThanOrEqual(
      DEFAULTS.coordinatorStartupFloor + DEFAULTS.headroom,
    );
    expect(DEFAULTS.comfortableWindow).toBe(4 * DEFAULTS.coordinatorStartupFloor + DEFAULTS.headroom);
    // Every real window flower guesses is comfortable: only a window typed by hand earns the note.
    expect(DEFAULTS.haikuWindow).toBeGreaterThanOrEqual(DEFAULTS.comfortableWindow);
    // At the minimum, a coordinator that has just started is still below the line.
    const policy = new HandoffPolicy({ window: DEFAULTS.minimumWindow });
    expect(policy.at).toBeGreaterThan(DEFAULTS.coordinatorStartupFloor);
  });

  it("refuse below the minimum, note below the comfortable size, say nothing above", () => {
    expect(() => parseWindow("84999")).toThrow(/too small to work in.*at least 85000/);
    expect(() => parseWindow("20000", "zh")).toThrow(/太小,干不了活/);
    expect(parseWindow("85000")).toBe(85_000);
    expect(windowNote(150_000, 100_000, "en")).toContain("--window 150000 hands off at 100K");
    expect(windowNote(185_999, 135_999, "zh")).toContain("提示");
    expect(windowNote(186_000, 136_000, "en")).toBeUndefined();
    expect(windowNote(1_000_000, 950_000, "en")).toBeUndefined();
  });
});

describe("help wraps to the terminal at word boundaries", () => {
  const commands: (CommandName | undefined)[] = [undefined, ...COMMANDS];
  const locales: Locale[] = ["en", "zh"];

  it.each([50, 80, 100, 120])(
    "at %i columns no line is wider, unless it is one unbreakable word",
    (width) => {
      for (const locale of locales)
        for (const command of commands) {
          for (const line of helpText(command, locale, width).split("\n")) {
            if (columnsOf(line) <= width) continue;
            expect(line.trim(), `${locale} ${command ?? "flower"} at ${width}`).not.toMatch(/\s/);
          }
        }
    },
  );

  it("breaks no word: the wrapped text is the unwrapped text with line breaks for spaces", () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    for (const command of commands) {
      const wide = words(helpText(command, "en", 10_000));
      for (const width of [40, 80]) expect(words(helpText(command, "en", width))).toEqual(wide);
    }
    // Chinese breaks between characters, never inside a Latin word, and never before closing punctuation.
    for (const command of commands) {
      const zh = helpText(command, "zh", 60);
      expect(zh.replace(/\s+/g, "")).toBe(helpText(command, "zh", 10_000).replace(/\s+/g, ""));
      for (const line of zh.split("\n")) expect(line.trimStart()).not.toMatch(/^[,。、;:)]/);
    }
  });

  it("hangs an option's description under its own column", () => {
    const lines = helpText("show", "en", 60).split("\n");
    const start = lines.findIndex((line) => line.includes("--run-dir DIR"));
    const column = lines[start]!.indexOf("Where");
    expect(column).toBeGreaterThan(10);
    expect(lines[start + 1]!.slice(0, column).trim()).toBe("");
    expect(lines[start + 1]![column]).toMatch(/\S/);
  });

  it("is 80 columns when the width is unknown, and never narrower than 40", () => {
    expect(terminalWidth({})).toBe(80);
    expect(terminalWidth({ columns: 132 })).toBe(132);
    expect(terminalWidth({ columns: 20 })).toBe(40);
    expect(wrap("aaa bbb ccc", 7, "> ")).toEqual(["> aaa", "  bbb", "  ccc"]);
  });
});

describe("verdictLines: after goal-not-met the verdict and the failing checks come last", () => {
  const failing = (index: number, command: string, passed: boolean): CheckResultRecord =>
    checkResult(index, command, passed, {
      timeoutMs: 60_000,
      durationMs: 12,
      logPath: `/p/.flower/artifacts/goal-check-${index}.run-3.log`,
    });
  const record = {
    ...newStepRecord("run/work", "lead", "Write out.txt."),
    status: "goal-not-met" as const,
    guard: {
      ...newGuardRecord(3),
      rounds: 3,
      outcome: "goal-not-met" as const,
      why: "the checks still fail after 3 guard rounds",
      checkRuns: [
        {
          round: 3,
          at: "t",
          passed: false,
          results: [failing(1, "npm test", true), failing(2, "test -f out.txt", false)],
        },
      ],
    },
  };

  it.each([
    [
      "en",
      [
        "run/work: GOAL NOT MET (the answer above is the agent's claim, not the verdict)",
        "  every round's evidence: flower show run/work --run-dir x",
        "  1 of 2 checks failed in the last run:",
        "  x 2. test -f out.txt — exit code 1, expected 0",
        "       log /p/.flower/artifacts/goal-check-2.run-3.log",
      ],
    ],
    [
      "zh",
      [
        "run/work: 目标未达成(上面的回答是智能体的说法,不是结论)",
        "  每一轮的证据: flower show run/work --run-dir x",
        "  最后一次检查 2 项中 1 项没通过:",
        "  x 2. test -f out.txt — 退出码 1(应为 0)",
        "       日志 /p/.flower/artifacts/goal-check-2.run-3.log",
      ],
    ],
  ])("%s", (locale, expected) => {
    expect(verdictLines(record, "run/work", "flower show run/work --run-dir x", locale as Locale)).toEqual(
      expected,
    );
  });

  it("a reviewer's verdict: the criteria not met", () => {
    const reviewed = {
      ...record,
      guard: {
        ...record.guard,
        checkRuns: [],
        reviews: [
          {
            round: 0,
            at: "t",
            sessionId: null,
            outcome: "not-met" as const,
            criteria: [{ criterion: "ok.txt exists", verdict: "not-met" as const, evidence: "no ok.txt" }],
            why: null,
            answerPath: null,
          },
        ],
      },
    };
    expect(verdictLines(reviewed, "s", "flower show s", "en").slice(-2)).toEqual([
      "  the reviewer found criteria not met:",
      "  x ok.txt exists — no ok.txt",
    ]);
  });

  it("the show line keeps the continue line's options", () => {
    expect(showCommandFor("flower continue 'fix build' --run-dir r --workspace w", "fix build")).toBe(
      "flower show 'fix build' --run-dir r --workspace w",
    );
    expect(showCommandFor("flower continue run --store 'postgres://u@h/db'\n  note", "run/work")).toBe(
      "flower show run/work --store 'postgres://u@h/db'",
    );
    expect(showCommandFor("", "demo/work")).toBe("flower show demo/work");
  });
});

describe("the folders flower creates keep themselves out of git", () => {
  it("a new folder gets `*`; an existing folder or .gitignore is left as it is", () => {
    const root = temp.make("flower-ignore-");
    makeIgnoredDirectory(join(root, "runs"));
    expect(readFileSync(join(root, "runs", ".gitignore"), "utf8")).toBe("*\n");
    // Idempotent, and a person's edit stays.
    writeFileSync(join(root, "runs", ".gitignore"), "*\n!keep.md\n");
    makeIgnoredDirectory(join(root, "runs"));
    expect(readFileSync(join(root, "runs", ".gitignore"), "utf8")).toBe("*\n!keep.md\n");
    // A folder the person made (say a tracked runs/ of their own) is theirs: nothing is added.
    mkdirSync(join(root, "theirs"));
    makeIgnoredDirectory(join(root, "theirs"));
    expect(existsSync(join(root, "theirs", ".gitignore"))).toBe(false);
  });

  it("the workbench's .flower/ gets one, and INDEX.md does not list it", async () => {
    const root = temp.make("flower-ignore-");
    const workbench = new Workbench({ workspace: root });
    await workbench.ensure();
    await workbench.refresh();
    expect(readFileSync(join(root, ".flower", ".gitignore"), "utf8")).toBe("*\n");
    expect(readFileSync(join(root, ".flower", "INDEX.md"), "utf8")).not.toContain(".gitignore");
  });
});
