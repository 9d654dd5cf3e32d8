/**
 * Every command line a text table prints for the person to type starts the way their shell reaches
 * flower (locale/invocation.ts): under `npx flower`, no line of any table says a bare `flower show …`,
 * `(see flower runs)` or `flower continue … goes on`. Each table is walked whole — every string, getter
 * and function (called with stand-in arguments), in both languages — so a line added later without
 * `typed()` fails here. A line may still start with `flower X:` (the program naming itself before an
 * error), and may name a command as what happened (`rewound … (flower rewind)`), not as a line to type.
 */
import { afterEach, describe, expect, it } from "vitest";
import { HANDOFF_TEXT } from "../../../src/cli/handoff-text.js";
import { USAGE_TEXT } from "../../../src/cli/command-line/usage-text.js";
import { FLEET_TEXT } from "../../../src/cli/fleet-commands/fleet-text.js";
import { DISPLAY_TEXT } from "../../../src/cli/live/display-text.js";
import { SERVE_LINES } from "../../../src/cli/page/serve-terminal-text.js";
import { PROVIDER_TEXT } from "../../../src/cli/providers/provider-text.js";
import { CHANGED_TEXT } from "../../../src/cli/record-views/changed-text.js";
import { CLI_TEXT } from "../../../src/cli/cli-text.js";
import { SAY_TEXT } from "../../../src/cli/say-text.js";
import { WORK_TEXT } from "../../../src/cli/work-commands/work-text.js";
import { commandLike } from "../../../src/cli/command-line/command-like.js";
import { parseCommandLine } from "../../../src/cli/command-line/args.js";
import { setInvocation, typed } from "../../../src/locale/invocation.js";
import { NOTIFY_TEXT } from "../../../src/notify/notify-text.js";
import { CANNOT_PASS } from "../../../src/runtime/step-loop-text.js";
import { SERVE_TEXT } from "../../../src/serve/serve-text.js";
import { mistyped } from "../../support/typed-lines.js";

afterEach(() => setInvocation("flower"));

/** Every string a table can make: its strings, getters' values, and functions called with stand-ins. */
function linesOf(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "function") {
    const fn = value as (...args: unknown[]) => unknown;
    const out: string[] = [];
    for (const stand of [["X"], [1], [["X"]], [true]])
      try {
        out.push(...linesOf(fn(...Array.from({ length: Math.max(fn.length, 1) }, () => stand[0])), seen));
      } catch {
        // Not the argument type this function takes: another stand-in is.
      }
    return out;
  }
  if (value === null || typeof value !== "object" || seen.has(value)) return [];
  seen.add(value);
  return Object.keys(value).flatMap((key) => linesOf((value as Record<string, unknown>)[key], seen));
}

/** The bare mentions of a command to type in `line`, under `npx flower`. */
const bare = (line: string) => mistyped(line, "npx flower");

const TABLES = {
  CLI_TEXT,
  USAGE_TEXT,
  FLEET_TEXT,
  WORK_TEXT,
  HANDOFF_TEXT,
  CHANGED_TEXT,
  DISPLAY_TEXT,
  PROVIDER_TEXT,
  SERVE_LINES,
  SERVE_TEXT,
  NOTIFY_TEXT,
  SAY_TEXT,
};

describe("every line to type starts as the person's shell reaches flower", () => {
  it.each(Object.keys(TABLES))("%s, under npx: no bare `flower <command>` to type", (name) => {
    setInvocation("npx flower");
    const lines = linesOf(TABLES[name as keyof typeof TABLES]);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.flatMap(bare)).toEqual([]);
  });

  it.each(Object.keys(TABLES))("%s, for a global install or a clone: no `npx flower`", (name) => {
    const lines = linesOf(TABLES[name as keyof typeof TABLES]);
    expect(lines.flatMap((line) => mistyped(line, "flower"))).toEqual([]);
  });

  it("the runtime's hints, the typo refusal and the parser's errors, under npx", () => {
    setInvocation("npx flower");
    const lines = [
      ...(["zh", "en"] as const).flatMap((locale) =>
        (["invalid-request", "refused-start", "authentication"] as const).map((why) =>
          CANNOT_PASS[locale](why, "exited"),
        ),
      ),
      commandLike("lsit")!,
      ...[["--windwo", "x"], ["show", "--nope"], ["runs", "--json=1"], ["--window"]].map((args) => {
        try {
          parseCommandLine(args, {});
          return "";
        } catch (error) {
          return (error as Error).message;
        }
      }),
    ];
    expect(lines.flatMap(bare)).toEqual([]);
    expect(lines).toContain("npx flower runs");
    expect(lines).toContain(
      "flower: unknown option --windwo; did you mean --window? (see npx flower --help)",
    );
    expect(lines).toContain("flower show: unknown option --nope (see npx flower show --help)");
  });

  it("the library and a clone keep `flower`", () => {
    expect(typed("continue demo")).toBe("flower continue demo");
    expect(commandLike("lsit")).toBe("flower runs");
    setInvocation("npx flower");
    expect(typed("continue demo")).toBe("npx flower continue demo");
  });
});
