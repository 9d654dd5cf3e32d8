/**
 * What the differential fuzz (glance.fuzz.test.ts) found, kept as plain examples so the fixed-seed suite
 * holds them whatever the generator draws. Two kinds: commands the guard allowed that it must not
 * (`find -*`, `uniq x*`, `ls $[`), and places where bash and tree-sitter's grammar read the same text
 * differently, which the guard now refuses rather than bet on one reading (`$\ `, `10#x`).
 */
import { describe, expect, it } from "vitest";
import { isEphemeral } from "../../../src/glance/is-ephemeral.js";
import { parseShell } from "../../../src/glance/shell-words.js";

describe("glance fuzz findings", () => {
  it.each([
    // A glob in the middle of a word: `-*` or `-de*` matches a file called `-delete`, and `uniq x*`
    // becomes `uniq in out` once two files match, which writes `out`.
    "find -*",
    "find . -name x -de*",
    "uniq x*",
    "sort -r names.txt -o*",
    "cd src*",
    // `$[...]` is bash's old arithmetic expansion; unterminated, bash cannot even parse the line.
    "ls $[ # note && git status",
    "echo $[1+2]",
    // A bare `$` before a blank: literal to bash, an expansion to tree-sitter.
    "ls $\\  # note",
    "echo cost: $",
    // `10#x`: a word to bash, a based number to tree-sitter.
    "printf 10# whole line && git status",
  ])("refuses %j", (command) => {
    expect(isEphemeral(command)).toBe(false);
  });

  it.each([
    // Globs where they cannot become a flag or a second operand stay allowed.
    "ls src/*.ts",
    "cat src/*.ts | wc -l",
    "find . -name '*.ts'",
    "git tag -l 'v1.*'",
    // A `$` inside double quotes is literal, and a backslash-newline joins a word as bash does.
    'echo "a$"',
    "uniq names.txt\\\nhead -5",
  ])("still allows %j", (command) => {
    expect(isEphemeral(command)).toBe(true);
  });

  it("reads a backslash-newline inside a word as bash does: one word", () => {
    const [segment] = parseShell("uniq names.txt\\\nhead -5").segments;
    expect(segment?.argv).toEqual(["uniq", "names.txthead", "-5"]);
  });

  it("marks a glob anywhere in a word, and a leading one separately", () => {
    const words = parseShell("find . -de* x'*' *.ts").segments[0]!.words;
    expect(words.map((word) => [word.glob, word.leadingGlob])).toEqual([
      [false, false],
      [false, false],
      [true, false],
      [false, false],
      [true, true],
    ]);
  });
});
