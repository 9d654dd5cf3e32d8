/**
 * `npm run test:live` in CI, where there is no key: the live suite's own runner (bench/live/suite.ts,
 * the code a user runs with a key) against the offline kit, whose scripted model does each case's task
 * the way a real model does it — reads what it is told to, writes a complete handoff when asked and
 * goes on from one, delegates as a coordinator, claims done too early once and is sent back by the
 * goal's check, takes the other path after a rewind, heeds a person's message. So the suite cannot rot:
 * a change to flower, the cases or the runner that breaks them fails here. And without a key the runner
 * says so in one line and exits 0, never calling anything passed.
 */
import { describe, expect, it } from "vitest";
import { CODE_WORDS } from "../../bench/live/cases.js";
import { liveMain } from "../../bench/live/main.js";
import { runLiveSuite } from "../../bench/live/suite.js";
import { text, toolUse, type ModelRequest, type Reply } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { useModels } from "./sdk-session.js";

const startModel = useModels();

/** The codes a conversation has seen: in its tool results, or carried by a handoff in its prompt. */
function codesSeen(request: ModelRequest): string[] {
  const found = new Set<string>();
  for (const match of request.allText().matchAll(/CODE: (\w+)|codes so far: ([\w, ]+)/g)) {
    if (match[1]) found.add(match[1]);
    for (const word of (match[2] ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean))
      found.add(word);
  }
  return CODE_WORDS.filter((word) => found.has(word));
}

const wrote = (request: ModelRequest, file: string) =>
  request.toolCalls().some((call) => call.name === "Write" && String(call.input.file_path).endsWith(file));

/** The handoff case: one file per turn; a complete handoff naming the codes so far; the successor goes on. */
function handoffCase(request: ModelRequest): Reply {
  const codes = codesSeen(request);
  if (request.isHandoffTurn)
    return text(
      handoffMarkdown({
        doing: `Reading data/part-NN.txt one per reply; codes so far: ${codes.join(", ")}`,
        decided: ["Read one file per reply, as the task says."],
        deadends: "(empty)",
        next: [
          `Read data/part-0${codes.length + 1}.txt through data/part-08.txt, then write codes.txt (codes so far: ${codes.join(", ")}).`,
        ],
        scene: ["`data/` — the eight part files", "`codes.txt` — to be written"],
      }),
    );
  if (codes.length < CODE_WORDS.length)
    return toolUse("Read", { file_path: `data/part-0${codes.length + 1}.txt` });
  if (!wrote(request, "codes.txt"))
    return toolUse("Write", { file_path: "codes.txt", content: `${codes.join("\n")}\n` });
  return text("DONE");
}

/** The coordinator case: the coordinator sends the engineer, which does the sum with a command. */
function coordinatorCase(request: ModelRequest): Reply {
  if (request.isSubagent) {
    if (request.countToolResults("Bash") === 0)
      return toolUse("Bash", {
        command: "awk '{ s += $1 } END { printf \"%d\", s }' numbers.txt > sum.txt && cat sum.txt",
      });
    return text(`Wrote sum.txt: ${request.lastToolResult()?.text ?? "?"}`);
  }
  if (request.countToolResults("Agent") === 0)
    return toolUse("Agent", {
      subagent_type: "engineer",
      description: "Sum the numbers",
      prompt: "Sum the numbers in numbers.txt (one per line) and write the total, digits only, to sum.txt.",
      run_in_background: false,
    });
  return text("sum.txt holds the total, computed by the engineer.");
}

/** The goal case: claims done before doing anything (as models do), is sent back by the check, fixes it. */
const EARLY_CLAIM = "Fixed: node test.js passes now.";

function goalCase(request: ModelRequest): Reply {
  if (!request.allText().includes(EARLY_CLAIM)) return text(EARLY_CLAIM);
  if (!wrote(request, "calc.js"))
    return toolUse("Write", { file_path: "calc.js", content: "exports.add = (a, b) => a + b;\n" });
  return text("Fixed calc.js: add adds now.");
}

/** The rewind case: ls, ALPHA, done; after the rewind and the new prompt, BETA. */
function rewindCase(request: ModelRequest): Reply {
  if (request.lastUserText().includes("BETA") || request.allText().includes("Change of plan")) {
    const beta = request.toolCalls().some((call) => String(call.input.content).includes("BETA"));
    return beta ? text("DONE") : toolUse("Write", { file_path: "result.txt", content: "BETA\n" });
  }
  if (request.countToolResults("Bash") === 0) return toolUse("Bash", { command: "ls" });
  if (!wrote(request, "result.txt")) return toolUse("Write", { file_path: "result.txt", content: "ALPHA\n" });
  return text("DONE");
}

/** The say case: reads the items one per turn (slowly), heeds the person's message when it comes. */
function sayCase(request: ModelRequest): Reply {
  if (request.allText().includes("heard.txt") && !wrote(request, "heard.txt"))
    return toolUse("Write", { file_path: "heard.txt", content: "HEARD\n" });
  const read = request.countToolResults("Read");
  if (read < 6) return { ...toolUse("Read", { file_path: `data/item-${read + 1}.txt` }), delayMs: 300 };
  if (!wrote(request, "summary.txt"))
    return toolUse("Write", {
      file_path: "summary.txt",
      content: Array.from({ length: 6 }, (_, index) => `Item ${index + 1}: a note.`).join("\n"),
    });
  return text("DONE");
}

/** What a real model does with each case's task, told apart by the task (or a subagent's brief). */
function realisticModel(request: ModelRequest): Reply | undefined {
  if (request.kind === "title" || request.kind === "compact") return undefined;
  const task = request.isSubagent ? "numbers.txt" : request.firstUserText();
  if (task.includes("data/part-01.txt") || request.isHandoffTurn || task.includes("codes so far"))
    return handoffCase(request);
  if (task.includes("numbers.txt")) return coordinatorCase(request);
  if (task.includes("node test.js")) return goalCase(request);
  if (task.includes("ALPHA")) return rewindCase(request);
  if (task.includes("data/item-1.txt")) return sayCase(request);
  throw new Error(`no case for the task ${JSON.stringify(task.slice(0, 120))}`);
}

describe("npm run test:live, against the offline kit", () => {
  it("runs every case of the live suite through the real binary and passes, within the ceiling it printed", async () => {
    const model = await startModel({ policy: realisticModel });
    const lines: string[] = [];
    const result = await runLiveSuite({ env: model.env(), out: (line) => lines.push(line) });
    const failures = result.cases.flatMap((entry) =>
      entry.failures.map((failure) => `${entry.name}: ${failure}`),
    );
    expect(failures).toEqual([]);
    expect(result.cases.map((entry) => entry.name)).toEqual([
      "handoff",
      "coordinator",
      "goal",
      "rewind",
      "say",
    ]);
    expect(result.passed).toBe(5);
    // What it will spend at most, said first; what it spent, said last, and within it.
    expect(lines[0]).toMatch(/^flower live check: 5 case\(s\) .* it will spend at most about \$\d+\.\d{4} /);
    expect(lines.at(-1)).toMatch(/^spent \$\d+\.\d{4} of at most \$\d+\.\d{4} · 5 passed, 0 failed$/);
    expect(result.spentUsd).toBeGreaterThan(0);
    for (const entry of result.cases) expect(entry.spentUsd).toBeLessThanOrEqual(entry.budgetUsd * 1.5);
    // The kit's model was asked what a real one is asked: a handoff written, a guard round after the
    // early claim (the check, not the claim, decided), a person's message.
    expect(model.requests.some((request) => request.isHandoffTurn)).toBe(true);
    expect(result.cases.find((entry) => entry.name === "goal")!.notes).toEqual([
      "2 check run(s), last passed",
    ]);
    model.assertNoErrors();
  }, 300_000);

  it("without a key it says so in one line and exits 0, running nothing and calling nothing passed", async () => {
    const lines: string[] = [];
    const env = {
      PATH: process.env.PATH,
      HOME: "/nonexistent-home",
      CLAUDE_CONFIG_DIR: "/nonexistent-config",
    };
    expect(await liveMain([], env, (line) => lines.push(line))).toBe(0);
    expect(lines).toEqual([
      "flower live check: skipped: no key (set ANTHROPIC_API_KEY, or a provider's variables as for flower itself; nothing was run)",
    ]);
    expect(lines.join("\n")).not.toMatch(/passed/);
    // A bad option is refused before anything else.
    expect(await liveMain(["--only"], env, (line) => lines.push(line))).toBe(2);
  });
});
