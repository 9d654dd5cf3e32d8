/**
 * The two maps of src/ — README's "How the code is laid out" and docs/development.md's — name every
 * top-level folder, one line each, and no folder that is gone. They drifted once: README left out
 * handoff/ (the headline feature), events/, telemetry/, notify/, report/, fs/ and locale/, and put the
 * HTML report in workbench/; a newcomer reads the README first.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../../..");
const rooms = readdirSync(join(root, "src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The first code block after the heading "How the code is laid out". */
function layoutBlock(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const start = text.indexOf("## How the code is laid out");
  expect(start, `${file} has a section "How the code is laid out"`).toBeGreaterThan(-1);
  const block = /```\n([\s\S]*?)```/.exec(text.slice(start))?.[1] ?? "";
  return block.split("\n");
}

/** The folders each line starts with, in order, as `pattern` captures them (a folder twice shows twice). */
function named(lines: string[], pattern: RegExp): string[] {
  return lines.flatMap((line) => {
    const match = pattern.exec(line);
    return match ? [match[1]!] : [];
  });
}

describe("the maps of src/", () => {
  it("README names every top-level folder of src/ on a line of its own, and nothing else", () => {
    const lines = named(layoutBlock("README.md"), /^src\/([a-z-]+)\/\s/);
    expect([...lines].sort()).toEqual(rooms);
  });

  it("docs/development.md names every top-level folder of src/ on a line of its own, and nothing else", () => {
    // Top-level entries are indented two spaces under `src/`; a room's own rooms four.
    const lines = named(layoutBlock("docs/development.md"), /^ {2}([a-z-]+)\/\s/);
    expect([...lines].sort()).toEqual(rooms);
  });
});
