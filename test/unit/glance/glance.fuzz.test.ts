/**
 * The glance guard against generated commands, with tree-sitter's bash grammar as a differential oracle
 * (bash-oracle.ts): whatever `isEphemeral` allows must read, in that independent grammar, as listed
 * read-only commands only. The generator mixes listed commands with safe and writing flags, quoting
 * tricks, separators, substitutions, redirections, assignments, comments, globs, brace expansion and
 * unicode lookalikes.
 *
 * `npm test` runs 10,000 commands from the suite's fixed seed; `npm run fuzz` runs five times as many from
 * a fresh seed. A counterexample it finds becomes a plain example in glance-fuzz-findings.test.ts.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_GLANCE_CHARS, isEphemeral } from "../../../src/glance/is-ephemeral.js";
import { properties, propertyTimeout } from "../../support/properties.js";
import { loadOracle, oracle } from "./bash-oracle.js";
import { GLANCE_CORPUS } from "./glance-corpus.js";

const LISTED = ["ls", "cat", "head", "tail", "git", "find", "sed", "sort", "grep", "echo", "printf"];
const MORE_LISTED = ["date", "tree", "uniq", "rg", "jq", "diff", "cd", "wc", "pwd", "file", "du", "nl"];
const UNLISTED = ["rm", "curl", "bash", "sh", "npm", "env", "xargs", "touch", "tee", "eval", "exec"];
const SNEAKY = ["command", "builtin", "sudo", "time", "nohup", "source", ".", "alias", "export", "!"];
const LOOKALIKES = ["ɡit", "ｌs", "l\u200bs", "c\u0430t", "ls\u00a0", "git\u2028", "ＬＳ"];

const SAFE_ARGS = [
  "-l",
  "-la",
  "README.md",
  "src/",
  "-n",
  "10",
  "status",
  "log",
  "--oneline",
  "-s",
  "-5",
  "diff",
  "--stat",
  "HEAD",
  "-r",
  "'1,20p'",
  "-name",
  "'*.ts'",
  ".",
  "..",
  "~",
  "-type",
  "f",
  "--",
  "branch",
  "-a",
  "show",
  "HEAD~1",
  "a=b",
  "%s",
  "'{}'",
];
const WRITING_ARGS = [
  "-exec",
  "rm",
  "{}",
  "\\;",
  "-delete",
  "-de*",
  "-o",
  "out.txt",
  "--output=x",
  "--out=x",
  "-f",
  "--follow",
  "-i",
  "'w /tmp/x'",
  "e",
  "push",
  "commit",
  "-c",
  "core.pager=sh",
  "--exec-path=/tmp",
  "-v",
  "var",
  "--set=2020",
  "--pre=sh",
  "-C",
  "--compress-program=sh",
  "-fo",
  "--ext-diff",
  "-O",
  "reset",
  "--hard",
  "-D",
  "*",
  "?",
  "[a]*",
  "-*",
  "x*",
  "{a,b}",
  "{1..3}",
  "~root",
  "--file=/etc/passwd",
];
const SUBSTITUTIONS = [
  "$(rm -rf x)",
  "`rm x`",
  "<(cat x)",
  ">(tee x)",
  "${HOME}",
  "$HOME",
  "$((1+2))",
  '"$(id)"',
  "'$(id)'",
  "$'\\x41'",
  '$"x"',
  '"`id`"',
  "$1",
  "$@",
  "${x:-$(id)}",
];
const REDIRECTIONS = [
  "> out.txt",
  ">> out.txt",
  "2>&1",
  "> /dev/null",
  "2>/dev/null",
  "< in.txt",
  "<<< x",
  "&> f",
  ">| f",
  ">&f",
  "<> f",
  "3>f",
  "> /dev/tcp/127.0.0.1/9",
  "< /dev/tcp/127.0.0.1/9",
  ">&2",
  ">&3",
  "2>&3",
  "<&3",
  "1>&-",
  "&>/dev/null",
  ">/dev/null 2>&1",
  "<<EOF\nhello\nEOF",
  ">'out'",
  '>"/dev/null"',
  "> /dev/null/../tmp/x",
  "> /dev//null",
];
const SEPARATORS = [" && ", " || ", "; ", " | ", " & ", "\n", " |& ", ";", "&&", "|", " ;; ", "\\\n"];

/** A word as the model might quote it. */
function quoted(word: string): fc.Arbitrary<string> {
  const plain = word.replace(/'/g, "");
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(word) },
    { weight: 1, arbitrary: fc.constant(`'${plain}'`) },
    { weight: 1, arbitrary: fc.constant(`"${plain}"`) },
    {
      weight: 1,
      arbitrary: fc.nat({ max: Math.max(0, plain.length - 1) }).map((cut) => {
        // Split quoting (`l''s`), an escape in the middle (`l\s`) or a quoted half (`"l"s`).
        const [head, tail] = [plain.slice(0, cut), plain.slice(cut)];
        return [`${head}''${tail}`, `${head}\\${tail}`, `"${head}"${tail}`][cut % 3]!;
      }),
    },
  );
}

const commandName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...LISTED) },
  { weight: 3, arbitrary: fc.constantFrom(...MORE_LISTED) },
  { weight: 1, arbitrary: fc.constantFrom(...UNLISTED) },
  { weight: 1, arbitrary: fc.constantFrom(...SNEAKY) },
  { weight: 1, arbitrary: fc.constantFrom(...LOOKALIKES) },
);

const argument = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SAFE_ARGS) },
  { weight: 3, arbitrary: fc.constantFrom(...WRITING_ARGS) },
  { weight: 1, arbitrary: fc.constantFrom(...SUBSTITUTIONS) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 6 }) },
);

const simpleCommand = fc
  .record({
    assignment: fc.option(fc.constantFrom("FOO=1 ", "GIT_PAGER=sh ", "PATH=/tmp "), { freq: 12 }),
    name: commandName.chain(quoted),
    args: fc.array(argument.chain(quoted), { maxLength: 5 }),
    redirections: fc.array(fc.constantFrom(...REDIRECTIONS), { maxLength: 2 }),
    wrap: fc.constantFrom("", "", "", "", "", "", "", "", "( )", "{ ; }", "$( )", "! "),
    comment: fc.option(fc.constantFrom(" # note", " #$(rm x)", "# whole line"), { freq: 12 }),
  })
  .map(({ assignment, name, args, redirections, wrap, comment }) => {
    let text = [`${assignment ?? ""}${name}`, ...args, ...redirections].join(" ");
    if (wrap === "( )") text = `(${text})`;
    else if (wrap === "{ ; }") text = `{ ${text}; }`;
    else if (wrap === "$( )") text = `echo $(${text})`;
    else if (wrap === "! ") text = `! ${text}`;
    return text + (comment ?? "");
  });

/** What coordinators really write: listed commands with plausible arguments (most are allowed). */
const BENIGN: Record<string, string[]> = {
  git: [
    "status",
    "status -s",
    "log --oneline -5",
    "diff --stat",
    "show HEAD",
    "branch -a",
    "log -p -1 -- src/a.ts",
    "rev-parse HEAD",
    "ls-files",
    "--no-pager log -3",
    "-C ../other status",
    "tag -l 'v1.*'",
  ],
  ls: ["", "-la", "src/", "*.ts", "-la src test"],
  cat: ["README.md", "src/*.ts", "package.json"],
  head: ["-n 20 README.md", "-5"],
  tail: ["-n 5 log.txt", "-20"],
  find: [". -name '*.ts'", ". -type f -maxdepth 2", "src -newer package.json"],
  sed: ["-n '1,20p' README.md", "-n 5p"],
  sort: ["-u", "-r names.txt", "-n"],
  grep: ["-rn TODO src", "-c x", "-v '^#'"],
  echo: ['"--- LOG ---"', "done", "a b c"],
  printf: ["'%s\\n' x"],
  wc: ["-l", "-c README.md"],
  pwd: [""],
  date: ["", "+%F"],
  uniq: ["-c", "names.txt"],
  jq: [".name package.json"],
  du: ["-sh src"],
  tree: ["-L 2"],
  diff: ["a.txt b.txt"],
  cd: ["src"],
};

const benignCommand: fc.Arbitrary<string> = fc
  .constantFrom(...Object.entries(BENIGN))
  .chain(([name, lists]) => fc.constantFrom(...lists).map((args) => `${name} ${args}`.trim()));

/** One hostile change to a benign command: a writing flag, a substitution, a redirection, a new name. */
const mutation: fc.Arbitrary<(words: string[]) => string[]> = fc.oneof(
  fc.constantFrom(...WRITING_ARGS, ...SUBSTITUTIONS, ...REDIRECTIONS).chain((piece) =>
    fc.nat({ max: 6 }).map((at) => (words: string[]) => {
      const index = 1 + (at % Math.max(1, words.length));
      return [...words.slice(0, index), piece, ...words.slice(index)];
    }),
  ),
  fc
    .constantFrom(...UNLISTED, ...SNEAKY, ...LOOKALIKES)
    .map((name) => (words: string[]) => [name, ...words.slice(1)]),
  fc.constantFrom("FOO=1", "GIT_PAGER=sh").map((assignment) => (words: string[]) => [assignment, ...words]),
  fc.nat({ max: 6 }).map((at) => (words: string[]) => {
    // Quote or escape one word: a quoted command name is refused, a quoted argument is fine.
    const index = at % words.length;
    const word = words[index]!;
    const variants = [`'${word}'`, `"${word}"`, `\\${word}`, `${word.slice(0, 1)}''${word.slice(1)}`];
    return words.map((w, i) => (i === index && !/['"]/.test(w) ? variants[at % variants.length]! : w));
  }),
);

const mutatedCommand: fc.Arbitrary<string> = fc
  .tuple(benignCommand, fc.array(mutation, { minLength: 1, maxLength: 2 }))
  .map(([command, changes]) =>
    changes.reduce((words, change) => change(words), command.split(" ")).join(" "),
  );

const segment = fc.oneof(
  { weight: 5, arbitrary: benignCommand },
  { weight: 4, arbitrary: mutatedCommand },
  { weight: 2, arbitrary: simpleCommand },
);

const separator = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(" && ", " | ", "; ", "\n") },
  { weight: 2, arbitrary: fc.constantFrom(...SEPARATORS) },
);

export const commandArbitrary: fc.Arbitrary<string> = fc
  .array(fc.tuple(segment, separator), { minLength: 1, maxLength: 4 })
  .map((parts) =>
    parts
      .map(([command, separator], index) => (index === parts.length - 1 ? command : command + separator))
      .join(""),
  );

beforeAll(loadOracle);

describe("the glance guard against a second shell grammar (fuzz)", () => {
  it(
    "allows nothing that tree-sitter-bash reads as more than listed read-only commands",
    () => {
      let allowed = 0;
      let total = 0;
      fc.assert(
        fc.property(commandArbitrary, (command) => {
          total += 1;
          if (!isEphemeral(command)) return;
          allowed += 1;
          const verdict = oracle(command);
          if (!verdict.readOnly) {
            throw new Error(
              `isEphemeral allowed ${JSON.stringify(command)}; the oracle says: ${verdict.reason}`,
            );
          }
        }),
        properties(10_000),
      );
      // The generator must reach the allowed side often enough for the comparison to mean something.
      expect(allowed / total).toBeGreaterThan(0.15);
    },
    propertyTimeout(60_000),
  );
});

describe("the oracle itself", () => {
  it("agrees with the labelled corpus: reads every allowed glance as read-only, refuses every attack", () => {
    // Refusals that are policy, not grammar (a 4,000-character cap), are left out.
    const labelled = GLANCE_CORPUS.filter(
      (glance) => (glance.allow || glance.adversarial) && glance.command.length <= MAX_GLANCE_CHARS,
    );
    const wrong = labelled
      .filter((glance) => oracle(glance.command).readOnly !== glance.allow)
      .map(
        (glance) =>
          `${glance.allow ? "refused" : "allowed"} ${JSON.stringify(glance.command.slice(0, 80))}: ${oracle(glance.command).reason ?? ""}`,
      );
    expect(wrong).toEqual([]);
  });
});
