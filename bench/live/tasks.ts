/**
 * The live bench's tasks (`npm run bench -- --live`): three small repositories, each with a goal whose
 * checks — commands flower runs itself — decide success, and each needing more reading than a small
 * window holds, so a run at that window must either compact or hand off on the way. The same tasks, at
 * the same window and with the same model, run once with the SDK's own auto-compact and once with
 * flower's handoff (live-bench.ts). Each task's files hold about 70k tokens: more than the bench's
 * 50k window, so every run must compact or hand off before it can finish.
 */
import type { GoalCheck } from "flower-agent";

export interface LiveTask {
  name: string;
  /** One line: what the task is, for the table. */
  about: string;
  files: Record<string, string>;
  prompt: string;
  /** flower runs these when the session ends; the task succeeded when they pass. */
  checks: GoalCheck[];
  /** The files the prompt names, in the order a careful reader goes through them. */
  reading: string[];
  /** What a correct finish writes (the offline kit's scripted model writes this; a real one works it out). */
  solution: Record<string, string>;
}

/** About `chars` characters of documentation comment: what makes each file cost context to read. */
function commentBlock(topic: string, chars: number): string {
  const sentences = [
    `This part of the ${topic} is kept apart so that each stage can be read and tested on its own.`,
    "Values arrive as plain numbers; nothing here rounds, logs or throws on ordinary input.",
    "The history of this file is long: earlier versions cached results, which hid a unit mismatch.",
    "Reviewers asked for the reasoning to live next to the code, which is why this comment is long.",
  ];
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < chars; index++) {
    const line = ` * ${sentences[index % sentences.length]} (${topic}, note ${index + 1})`;
    lines.push(line);
    length += line.length + 1;
  }
  return `/**\n${lines.join("\n")}\n */\n`;
}

const STAGES = [
  { name: "stage-1", doc: "adds the base fee of 5", body: "return value + 5;" },
  { name: "stage-2", doc: "doubles the amount", body: "return value * 2;" },
  { name: "stage-3", doc: "subtracts the rebate of 4", body: "return value - 4;" },
  { name: "stage-4", doc: "converts to cents: multiplies by 100", body: "return value * 10;" },
  { name: "stage-5", doc: "adds the handling charge of 250 cents", body: "return value + 250;" },
  { name: "stage-6", doc: "rounds to whole cents", body: "return Math.round(value);" },
];

function stageFile(stage: (typeof STAGES)[number], body = stage.body): string {
  return `${commentBlock(`pricing ${stage.name}`, 44_000)}// ${stage.name} ${stage.doc}.\nexports.apply = (value) => {\n  ${body}\n};\n`;
}

const chain: LiveTask = {
  name: "fix-chain",
  about: "a failing test whose cause is in one of six long pipeline stages",
  files: {
    ...Object.fromEntries(STAGES.map((stage) => [`src/${stage.name}.js`, stageFile(stage)])),
    "src/pipeline.js": `const stages = [${STAGES.map((stage) => `require("./${stage.name}.js")`).join(", ")}];\nexports.price = (value) => stages.reduce((acc, stage) => stage.apply(acc), value);\n`,
    "test.js": [
      'const { price } = require("./src/pipeline.js");',
      "// 10 → +5 → ×2 → −4 → cents (×100) → +250 → round = 2850",
      "const got = price(10);",
      "if (got !== 2850) throw new Error(`price(10) is ${got}, expected 2850`);",
      'console.log("ok");',
      "",
    ].join("\n"),
  },
  prompt:
    "`node test.js` fails. Find the stage that does not do what its comment says and fix it; the " +
    "pipeline applies src/stage-1.js through src/stage-6.js in order. Read the stages one at a time. " +
    "Do not change test.js.",
  checks: [{ command: "node test.js" }],
  reading: STAGES.map((stage) => `src/${stage.name}.js`),
  solution: { "src/stage-4.js": stageFile(STAGES[3]!, "return value * 100;") },
};

const PARTS = [1, 2, 3, 4, 5, 6];

function partFile(part: number, name: string): string {
  return (
    `${commentBlock(`ledger part ${part}`, 42_000)}` +
    `const { ${name} } = require("./index.js");\n` +
    `// part ${part}: its own subtotal, by ${name}, and its share of the ledger.\n` +
    `exports.subtotal${part} = (values) => ${name}(values) + ${part};\n` +
    `exports.share${part} = (values) => ${name}(values) / ${name}(values.concat([${part}]));\n`
  );
}

const indexFile = (name: string) =>
  `// The ledger's one summing function; every part uses it.\nexports.${name} = (values) => values.reduce((sum, value) => sum + value, 0);\n`;

const rename: LiveTask = {
  name: "rename",
  about: "a rename across six long files and the index, checked by a test",
  files: {
    ...Object.fromEntries(PARTS.map((part) => [`lib/part-${part}.js`, partFile(part, "legacyTotal")])),
    "lib/index.js": indexFile("legacyTotal"),
    "test.js": [
      'const { readdirSync, readFileSync } = require("node:fs");',
      'for (const file of readdirSync("lib"))',
      '  if (readFileSync(`lib/${file}`, "utf8").includes("legacyTotal")) throw new Error(`lib/${file} still says legacyTotal`);',
      'const { grandTotal } = require("./lib/index.js");',
      'if (grandTotal([1, 2, 3]) !== 6) throw new Error("grandTotal([1, 2, 3]) is not 6");',
      'if (require("./lib/part-3.js").subtotal3([1, 2]) !== 6) throw new Error("part-3 is broken");',
      'console.log("ok");',
      "",
    ].join("\n"),
  },
  prompt:
    "Rename the function legacyTotal to grandTotal everywhere in lib/ (lib/index.js and lib/part-1.js " +
    "through lib/part-6.js), keeping everything else as it is; `node test.js` must pass. Go through the " +
    "files one at a time.",
  checks: [{ command: "node test.js" }],
  reading: ["lib/index.js", ...PARTS.map((part) => `lib/part-${part}.js`)],
  solution: {
    "lib/index.js": indexFile("grandTotal"),
    ...Object.fromEntries(PARTS.map((part) => [`lib/part-${part}.js`, partFile(part, "grandTotal")])),
  },
};

const DAYS = [1, 2, 3, 4, 5, 6];
/** The one user with an ERROR on every day. */
const EVERY_DAY = "u-4711";

function dayLog(day: number): string {
  const lines: string[] = [];
  for (let line = 0; line < 520; line++) {
    const user = `u-${1000 + ((line * 37 + day * 11) % 400)}`;
    const level = line % 9 === day % 9 ? "ERROR" : "INFO";
    lines.push(
      `2026-12-0${day}T08:${String(line % 60).padStart(2, "0")}:00Z ${level} ${user} request handled in ${line + 3} ms`,
    );
  }
  // The one every day has: at a different place each day.
  lines.splice(80 + day * 53, 0, `2026-12-0${day}T09:00:00Z ERROR ${EVERY_DAY} payment declined twice`);
  return `${lines.join("\n")}\n`;
}

const logs: LiveTask = {
  name: "logs",
  about: "six days of logs: the one user with an error on every day",
  files: {
    ...Object.fromEntries(DAYS.map((day) => [`logs/day-${day}.log`, dayLog(day)])),
    "check.js": [
      'const { readFileSync } = require("node:fs");',
      'const answer = readFileSync("answer.txt", "utf8").trim();',
      `if (answer !== "${EVERY_DAY}") throw new Error(\`answer.txt says \${answer}\`);`,
      'console.log("ok");',
      "",
    ].join("\n"),
  },
  prompt:
    "Read logs/day-1.log through logs/day-6.log one at a time, and find the one user id that has an " +
    "ERROR line on every one of the six days. Write just that id to answer.txt.",
  checks: [{ command: "node check.js" }],
  reading: DAYS.map((day) => `logs/day-${day}.log`),
  solution: { "answer.txt": `${EVERY_DAY}\n` },
};

export const LIVE_TASKS: readonly LiveTask[] = [chain, rename, logs];
