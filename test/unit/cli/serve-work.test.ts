/**
 * The live page's files per generation: the rows carry the latest generations that changed files (a few
 * names each), the fleet's rows keep them, and the page's script writes them under the generations, in
 * the page's language. A run whose records kept no checkpoints shows nothing of them. The script runs
 * here against a small stand-in for the DOM (the browser test drives the real page).
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { fleetRows } from "../../../src/cli/page/serve-fleet.js";
import { runRows } from "../../../src/cli/page/serve-rows.js";
import type { Locale } from "../../../src/locale/locale.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";
import { PAGE_SCRIPT } from "../../../src/serve/page-script.js";
import type { RunRow } from "../../../src/serve/page-source.js";
import { pageWords } from "../../../src/serve/serve-text.js";

const AT = "2026-12-02T04:00:00.000Z";

function step(name: string, run: string | null, generations: Array<string[] | undefined>): StepRecord {
  const record = newStepRecord(
    run === null ? name : `${run}/${name}`,
    name,
    "Fix the flaky test.",
    new Date(AT),
  );
  return {
    ...record,
    ...(run === null ? {} : { run, workflow: { run, name, task: "Fix the flaky test." } }),
    status: "done",
    generations: generations.length,
    history: generations.map((files, index) => ({
      generation: index + 1,
      sessionId: `s${index + 1}`,
      startedAt: AT,
      endedAt: AT,
      costUsd: 0.1,
      numTurns: 2,
      context: 10_000,
      handoff: null,
      ...(files === undefined ? {} : { work: { start: "c0", end: "c1", files } }),
    })),
  };
}

const statusOf = (record: StepRecord) => record.status;
const files = (count: number, prefix = "f") =>
  Array.from({ length: count }, (_, i) => `${prefix}${i + 1}.ts`);

describe("the live page's rows: the files the latest generations changed", () => {
  it("lists the generations that changed files over the run's steps, the latest four, eight names each", () => {
    const goal = step("goal", "r", [[]]);
    const work = step("work", "r", [files(12), ["a.ts"], [], ["b.ts"], ["c.ts", "d.ts"], ["e.ts"]]);
    const [row] = runRows({ steps: [goal, work], holders: new Map(), statusOf });
    expect(row!.work).toEqual({
      generations: [
        { step: "work", generation: 2, count: 1, files: ["a.ts"] },
        { step: "work", generation: 4, count: 1, files: ["b.ts"] },
        { step: "work", generation: 5, count: 2, files: ["c.ts", "d.ts"] },
        { step: "work", generation: 6, count: 1, files: ["e.ts"] },
      ],
      earlier: 1,
    });
    // A step run on its own has no step name to give; its twelve files are sent as eight and a count.
    const [alone] = runRows({ steps: [step("fix", null, [files(12)])], holders: new Map(), statusOf });
    expect(alone!.work).toEqual({
      generations: [{ step: null, generation: 1, count: 12, files: files(8) }],
      earlier: 0,
    });
  });

  it("has nothing of them for records without work, and the fleet's rows keep what the records say", () => {
    const [old] = runRows({ steps: [step("fix", null, [undefined])], holders: new Map(), statusOf });
    expect(old).not.toHaveProperty("work");
    const [row] = runRows({ steps: [step("fix", null, [["a.ts"]])], holders: new Map(), statusOf });
    const view = {
      run: "fix",
      status: "running",
      step: null,
      pid: 1,
      machine: "m",
      generations: 1,
      costUsd: 0,
      task: "t",
      updatedAt: AT,
      cancelRequested: false,
    } as never;
    expect(fleetRows([row!], [view])[0]!.work).toEqual(row!.work);
    expect(fleetRows([old!], [view])[0]).not.toHaveProperty("work");
  });
});

/** A DOM element as far as the page's script uses one. */
class Node {
  readonly attributes = new Map<string, string>();
  readonly children: Array<Node | string> = [];
  readonly style: Record<string, string> = {};
  readonly dataset: Record<string, string> = {};
  readonly classList = { toggle: () => undefined };
  hidden = false;
  className = "";
  disabled = false;
  #text: string | null = null;
  constructor(readonly tag: string) {}
  setAttribute(key: string, value: string): void {
    this.attributes.set(key, value);
  }
  append(...children: Array<Node | string>): void {
    this.children.push(...children);
  }
  replaceChildren(...children: Array<Node | string>): void {
    this.children.splice(0, this.children.length, ...children);
  }
  addEventListener(): void {}
  get textContent(): string {
    return (
      this.#text ??
      this.children.map((child) => (typeof child === "string" ? child : child.textContent)).join("")
    );
  }
  set textContent(value: string) {
    this.#text = value;
  }
  /** Every element under this one (itself first) that `test` picks. */
  all(test: (node: Node) => boolean): Node[] {
    const inner = this.children.flatMap((child) => (typeof child === "string" ? [] : child.all(test)));
    return [...(test(this) ? [this] : []), ...inner];
  }
}

/** Runs the page's script on `runs` and gives the table's body as drawn. */
function drawn(runs: RunRow[], locale: Locale): Node {
  const elements = new Map<string, Node>();
  const byId = (id: string) => {
    if (!elements.has(id)) elements.set(id, new Node("div"));
    return elements.get(id)!;
  };
  byId("words").textContent = JSON.stringify(pageWords(locale));
  const body = new Node("tbody");
  const listeners = new Map<string, (event: { data: string }) => void>();
  runInNewContext(PAGE_SCRIPT, {
    document: {
      getElementById: byId,
      querySelector: () => body,
      createElement: (tag: string) => new Node(tag),
      body: new Node("body"),
    },
    location: { hash: "" },
    URLSearchParams,
    EventSource: class {
      addEventListener(name: string, listener: (event: { data: string }) => void): void {
        listeners.set(name, listener);
      }
    },
  });
  listeners.get("runs")!({ data: JSON.stringify({ where: "here", actions: false, runs }) });
  return body;
}

/** The lines under the generations of the run's row: what a person reads, and each line's title. */
function underGenerations(body: Node): Array<[string, string | undefined]> {
  const cell = body.all((node) => node.attributes.get("class") === "number generations")[0]!;
  return cell
    .all((node) => node.tag === "li")
    .map((li) => [li.textContent, li.attributes.get("title")] as [string, string | undefined]);
}

describe("the live page's script: the files per generation under the generations", () => {
  const work = step("work", "r", [files(12), ["a.ts"], [], ["b.ts"], ["c.ts", "d.ts"], ["e.ts"]]);
  const [row] = runRows({ steps: [work], holders: new Map(), statusOf });
  const alone = runRows({ steps: [step("fix", null, [files(12)])], holders: new Map(), statusOf })[0]!;

  it("names three files a generation, the rest counted (the eight sent in its title), after how many came before", () => {
    expect(underGenerations(drawn([row!], "en"))).toEqual([
      ["1 earlier generations (see the report)", undefined],
      ["work gen 2: a.ts", "a.ts"],
      ["work gen 4: b.ts", "b.ts"],
      ["work gen 5: c.ts, d.ts", "c.ts, d.ts"],
      ["work gen 6: e.ts", "e.ts"],
    ]);
    expect(underGenerations(drawn([alone], "en"))).toEqual([
      [
        "gen 1: f1.ts, f2.ts, f3.ts and 9 more",
        "f1.ts, f2.ts, f3.ts, f4.ts, f5.ts, f6.ts, f7.ts, f8.ts and 4 more",
      ],
    ]);
  });

  it("speaks Chinese on request", () => {
    expect(underGenerations(drawn([row!], "zh"))[0]![0]).toBe("更早还有 1 代(见报告)");
    expect(underGenerations(drawn([alone], "zh"))).toEqual([
      [
        "第 1 代:f1.ts, f2.ts, f3.ts 还有 9 个",
        "f1.ts, f2.ts, f3.ts, f4.ts, f5.ts, f6.ts, f7.ts, f8.ts 还有 4 个",
      ],
    ]);
  });

  it("writes only the number for a run without work", () => {
    const [old] = runRows({ steps: [step("fix", null, [undefined])], holders: new Map(), statusOf });
    const body = drawn([old!], "en");
    expect(underGenerations(body)).toEqual([]);
    expect(body.all((node) => node.attributes.get("class") === "number generations")[0]!.textContent).toBe(
      "1",
    );
  });

  it("adds the goal's checks at each handoff, and lists a generation that changed nothing but ran them", () => {
    const work = step("work", "r", [["a.ts"], [], []]);
    const progress = [
      { passing: ["test -f a"], checks: 2, newlyPassing: ["test -f a"], files: 1 },
      { passing: ["test -f a"], checks: 2, newlyPassing: [], files: 0 },
    ];
    work.history = work.history.map((generation, index) =>
      progress[index] ? { ...generation, progress: progress[index] } : generation,
    );
    const [row] = runRows({ steps: [work], holders: new Map(), statusOf });
    expect(row!.work!.generations).toEqual([
      { step: "work", generation: 1, count: 1, files: ["a.ts"], checks: { passing: 1, total: 2, newly: 1 } },
      { step: "work", generation: 2, count: 0, files: [], checks: { passing: 1, total: 2, newly: 0 } },
    ]);
    expect(underGenerations(drawn([row!], "en")).map(([line]) => line)).toEqual([
      "work gen 1: a.ts · checks 1/2 (+1 newly)",
      "work gen 2: no files changed · checks 1/2",
    ]);
    expect(underGenerations(drawn([row!], "zh")).map(([line]) => line)).toEqual([
      "work 第 1 代:a.ts · 检查 1/2 (新通过 1)",
      "work 第 2 代:没改文件 · 检查 1/2",
    ]);
  });

  it("writes a run's cost as spent of its budget, where it has one", () => {
    const [row] = runRows({ steps: [step("fix", null, [["a.ts"]])], holders: new Map(), statusOf });
    const costCell = (body: Node) =>
      body.all((node) => node.attributes.get("class") === "number cost")[0]!.textContent;
    expect(costCell(drawn([{ ...row!, costUsd: 0.1066, budgetUsd: 0.1 }], "en"))).toBe("$0.1066 of $0.1000");
    expect(costCell(drawn([{ ...row!, costUsd: 0.1066, budgetUsd: 0.1 }], "zh"))).toBe(
      "$0.1066 / 预算 $0.1000",
    );
    expect(costCell(drawn([{ ...row!, costUsd: 0.1066 }], "en"))).toBe("$0.1066");
  });
});
