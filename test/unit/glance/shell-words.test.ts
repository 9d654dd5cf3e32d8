import { describe, expect, it } from "vitest";
import { parseShell, type ShellSegment } from "../../../src/glance/shell-words.js";

function segments(command: string): ShellSegment[] {
  const parsed = parseShell(command);
  expect(parsed.parseable, parsed.error).toBe(true);
  return parsed.segments;
}

function argvs(command: string): string[][] {
  return segments(command).map((segment) => segment.argv);
}

describe("parseShell", () => {
  it("splits on every operator and records which one ended a segment", () => {
    const parsed = segments("a && b || c; d | e |& f & g\nh");
    expect(parsed.map((segment) => segment.argv)).toEqual([
      ["a"],
      ["b"],
      ["c"],
      ["d"],
      ["e"],
      ["f"],
      ["g"],
      ["h"],
    ]);
    expect(parsed.map((segment) => segment.operator)).toEqual([
      "&&",
      "||",
      ";",
      "|",
      "|&",
      "&",
      "newline",
      null,
    ]);
  });

  it("removes quotes and keeps operators inside quotes as text", () => {
    expect(argvs(`echo "--- LOG ---" 'a && b' c\\ d "x\\"y" 'it'"'"'s'`)).toEqual([
      ["echo", "--- LOG ---", "a && b", "c d", 'x"y', "it's"],
    ]);
    expect(argvs(`echo "a\\nb" 'c\\nd'`)).toEqual([["echo", "a\\nb", "c\\nd"]]);
  });

  it("joins backslash-newline continuations and skips comments", () => {
    expect(argvs("git \\\n  status # not: rm -rf x\nls")).toEqual([["git", "status"], ["ls"]]);
    expect(argvs("echo a#b")).toEqual([["echo", "a#b"]]);
  });

  it("lets newlines follow && || and |", () => {
    expect(argvs("git status &&\n\n  git log |\n head")).toEqual([
      ["git", "status"],
      ["git", "log"],
      ["head"],
    ]);
  });

  it("parses redirections with and without descriptors", () => {
    const [segment] = segments("cmd 2>&1 >/dev/null <in.txt 3>>log &>all >&2 2> err");
    expect(segment!.argv).toEqual(["cmd"]);
    expect(segment!.redirections.map(({ operator, fd, target }) => [operator, fd, target])).toEqual([
      [">&", 2, "1"],
      [">", null, "/dev/null"],
      ["<", null, "in.txt"],
      [">>", 3, "log"],
      ["&>", null, "all"],
      [">&", null, "2"],
      [">", 2, "err"],
    ]);
  });

  it("treats a quoted or spaced digit as a word, not a descriptor", () => {
    expect(segments("echo '2'>x")[0]!.argv).toEqual(["echo", "2"]);
    expect(segments("echo 2 >x")[0]!.argv).toEqual(["echo", "2"]);
  });

  it("reads here-doc bodies and marks them", () => {
    const parsed = segments("cat <<'EOF' | wc -l\nline 1\n$(x)\nEOF\necho after");
    expect(parsed.map((segment) => segment.argv)).toEqual([["cat"], ["wc", "-l"], ["echo", "after"]]);
    expect(parsed[0]!.redirections[0]).toMatchObject({ operator: "<<", target: "EOF", body: "line 1\n$(x)" });
    expect(parsed[0]!.dangers).toContain("heredoc");
    expect(segments("cat <<-END\n\tbody\n\tEND")[0]!.redirections[0]!.body).toBe("body");
  });

  it("records leading assignments apart from argv", () => {
    const [segment] = segments("FOO=1 A+=2 arr[0]=x git status BAR=2");
    expect(segment!.assignments).toEqual(["FOO=1", "A+=2", "arr[0]=x"]);
    expect(segment!.argv).toEqual(["git", "status", "BAR=2"]);
    expect(segments("'FOO'=1 ls")[0]!.assignments).toEqual([]);
  });

  it.each([
    ["ls $(rm x)", "command-substitution"],
    ['echo "$(rm x)"', "command-substitution"],
    ["echo `id`", "backtick"],
    ['echo "`id`"', "backtick"],
    ["diff <(ls) >(cat)", "process-substitution"],
    ["echo $HOME", "parameter-expansion"],
    ['echo "${PATH}"', "parameter-expansion"],
    ["echo $1 $?", "parameter-expansion"],
    ["echo $((1+2))", "arithmetic"],
    ["echo $'\\x41'", "dollar-quote"],
    ["(ls)", "subshell"],
    ["echo {a,b}", "brace-expansion"],
    ["echo x{1..3}", "brace-expansion"],
    ["cat <<< hi", "here-string"],
  ] as const)("flags %s as %s", (command, danger) => {
    const parsed = parseShell(command);
    expect(parsed.parseable).toBe(true);
    expect(parsed.segments.flatMap((segment) => segment.dangers)).toContain(danger);
  });

  it.each(["echo '$(x)'", "echo 'a`b'", "echo \\$HOME", "git show HEAD@{1}", 'echo "a$"'])(
    "does not flag the literal %s",
    (command) => {
      expect(segments(command).flatMap((segment) => segment.dangers)).toEqual([]);
    },
  );

  it("marks a word that starts with an unquoted glob", () => {
    const words = segments("ls * src/*.ts '*' \\*x ?a [ab]")[0]!.words;
    expect(words.map((word) => word.leadingGlob)).toEqual([false, true, false, false, false, true, true]);
  });

  it.each([
    "echo 'open",
    'echo "open',
    "echo `open",
    "echo $(open",
    "echo ${open",
    "ls &&",
    "ls |",
    "&& ls",
    "ls && && ls",
    "; ls",
    "ls ;; ls",
    "ls >",
    "ls > | x",
    "cat <<EOF\nno end",
  ])("marks %j unparseable", (command) => {
    const parsed = parseShell(command);
    expect(parsed.parseable).toBe(false);
    expect(parsed.error).toBeTypeOf("string");
    expect(parsed.segments).toEqual([]);
  });

  it("accepts trailing ; & and newlines, and yields nothing for blank input", () => {
    expect(argvs("ls;")).toEqual([["ls"]]);
    expect(argvs("ls &")).toEqual([["ls"]]);
    expect(argvs("\n\nls\n\n")).toEqual([["ls"]]);
    expect(argvs("  # only a comment")).toEqual([]);
  });
});
