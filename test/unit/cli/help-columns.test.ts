/**
 * `flower --help` at 80 columns (a pipe, a file, a terminal of unknown width): no line is longer, and in
 * the list of commands every summary starts at the one column — beside a usage that leaves room for it,
 * under one that does not — so no usage pushes its summary out of line with the others.
 */
import { describe, expect, it } from "vitest";
import { COMMANDS, type CommandName } from "../../../src/cli/command-line/command-options.js";
import { helpText, SUMMARY_COLUMN, USAGE } from "../../../src/cli/command-line/help.js";
import { columnsOf } from "../../../src/cli/live/terminal-text.js";
import type { Locale } from "../../../src/locale/locale.js";

const locales: Locale[] = ["en", "zh"];

describe("the help at 80 columns", () => {
  it("has no line longer than 80 columns, for flower and every command, in both languages", () => {
    for (const locale of locales)
      for (const command of [undefined, ...COMMANDS] as (CommandName | undefined)[])
        for (const line of helpText(command, locale, 80).split("\n"))
          expect(columnsOf(line), `${locale} ${command ?? "flower"}: ${line}`).toBeLessThanOrEqual(80);
  });

  it("starts every command's summary at the summary column, a long usage on a line of its own", () => {
    for (const locale of locales) {
      const lines = helpText(undefined, locale, 80).split("\n");
      const first = lines.findIndex((line) => line.startsWith("  flower"));
      const block = lines.slice(first, lines.indexOf("", first));
      const usages = new Set(COMMANDS.map((name) => `  ${USAGE[name].usage}`));
      let alone = 0;
      for (const [index, line] of block.entries()) {
        const where = `${locale}: ${line}`;
        if (usages.has(line)) {
          // A usage alone: its summary follows, at the column.
          alone += 1;
          expect(block[index + 1]!.slice(0, SUMMARY_COLUMN).trim(), where).toBe("");
          continue;
        }
        const usage = [...usages].find((candidate) => line.startsWith(`${candidate} `));
        const lead = line.slice(0, SUMMARY_COLUMN);
        if (usage !== undefined) expect(lead.slice(usage.length).trim(), where).toBe("");
        else expect(lead.trim(), where).toBe("");
        expect(line[SUMMARY_COLUMN], where).toMatch(/\S/);
      }
      // Every command is listed, and the long usages (report, handoff, submit, diff ...) stand alone.
      expect(block.filter((line) => line.startsWith("  flower")).length).toBe(COMMANDS.length);
      expect(alone).toBeGreaterThan(0);
    }
  });
});
