/**
 * A weak section never costs the strong ones: asked for once more, then filled in alone, marked, and
 * named to the successor. Only a handoff with nothing usable degrades whole.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { degraded } from "../../../src/handoff/degraded.js";
import { followUpPrompt, takeFollowUp } from "../../../src/handoff/follow-up.js";
import { freezeHandoff, readFrozenHandoff } from "../../../src/handoff/freeze-handoff.js";
import { MECHANICAL, fillWeak } from "../../../src/handoff/mechanical.js";
import { namedHandoffFile } from "../../../src/handoff/named-file.js";
import { parseHandoff } from "../../../src/handoff/read-handoff.js";
import { HANDOFF_SIGNATURE } from "../../../src/handoff/prompt.js";
import { produceHandoff, type WritingTurn } from "../../../src/handoff/switch.js";
import { DEGRADED } from "../../../src/handoff/handoff-document-text.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";

const DECIDED =
  "Parse with the streaming reader, because the files are 2 GB and the DOM reader ran out of memory.";
const DEADEND = "Splitting the file with `split -l`: breaks records that span lines; cost 6 turns.";
const SCENE = "`src/reader.ts` — the streaming reader";

/** Strong decided, dead ends and scene; `TBD` under next. */
const TBD_NEXT = handoffMarkdown({
  doing: "Porting the importer to the streaming reader; the parser is done, the writer is not.",
  decided: [DECIDED],
  deadends: [DEADEND],
  next: "TBD",
  scene: [SCENE],
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "flower-weak-"));
  dirs.push(dir);
  return dir;
}

/** produceHandoff over scripted answers; records the prompts it asked with. */
function produce(answers: Array<Partial<WritingTurn>>, options: { window?: number; ws?: string } = {}) {
  const prompts: string[] = [];
  const result = produceHandoff({
    step: "import",
    task: "Make the importer stream its input.",
    locale: "en",
    workspace: options.ws ?? workspace(),
    window: options.window ?? 200_000,
    cannotWrite: null,
    prompt: `${HANDOFF_SIGNATURE} write it`,
    write: async (prompt) => {
      prompts.push(prompt);
      const answer = answers.shift();
      if (!answer) throw new Error("asked past the script");
      return { text: null, error: null, context: 120_000, ...answer };
    },
  });
  return { result, prompts };
}

describe("produceHandoff with a weak section", () => {
  it("asks once more for the weak section only, and takes a strong answer", async () => {
    const { result, prompts } = produce([
      { text: TBD_NEXT },
      { text: "## Next step\nRun `npm test -- reader`." },
    ]);
    const produced = await result;
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain(HANDOFF_SIGNATURE);
    expect(prompts[1]).toContain("## Next step");
    expect(prompts[1]).not.toContain("## Already decided");
    expect(produced).toMatchObject({ why: null, missing: ["next"], weak: [], askedAgain: true });
    expect(produced.handoff.next).toBe("Run `npm test -- reader`.");
    expect(produced.handoff.decided).toBe(`- ${DECIDED}`);
    expect(produced.handoff.mechanical).toEqual([]);
  });

  it("takes a follow-up without a heading as the one section asked for", async () => {
    const { result } = produce([
      { text: TBD_NEXT },
      { text: "Run `npm test -- reader` and fix what fails." },
    ]);
    expect((await result).handoff.next).toBe("Run `npm test -- reader` and fix what fails.");
  });

  it("still weak: keeps every written section verbatim and fills only next, marked", async () => {
    const { result } = produce([{ text: TBD_NEXT }, { text: "## Next step\nTBD" }]);
    const produced = await result;
    expect(produced).toMatchObject({ missing: ["next"], weak: ["next"], askedAgain: true });
    expect(produced.why).toMatch(/^missing: next; filled in mechanically/);
    const handoff = produced.handoff;
    expect(handoff.degraded).toBe(false);
    expect(handoff.doing).toBe(
      "Porting the importer to the streaming reader; the parser is done, the writer is not.",
    );
    expect(handoff.decided).toBe(`- ${DECIDED}`);
    expect(handoff.deadends).toBe(`- ${DEADEND}`);
    expect(handoff.scene).toBe(`- ${SCENE}`);
    expect(handoff.next.startsWith(MECHANICAL)).toBe(true);
    expect(handoff.mechanical).toEqual(["next"]);
  });

  it("asks no follow-up without room below the window, and fills at once", async () => {
    const { result, prompts } = produce([{ text: TBD_NEXT, context: 195_000 }]);
    const produced = await result;
    expect(prompts).toHaveLength(1);
    expect(produced).toMatchObject({ askedAgain: false, weak: ["next"] });
    expect(produced.handoff.decided).toBe(`- ${DECIDED}`);
  });

  it("a failed follow-up leaves the first answer's strong sections in place", async () => {
    const { result } = produce([{ text: TBD_NEXT }, { text: null, error: "API error 500" }]);
    const produced = await result;
    expect(produced.weak).toEqual(["next"]);
    expect(produced.handoff.deadends).toBe(`- ${DEADEND}`);
  });

  it("degrades whole when nothing usable was written, even after the follow-up", async () => {
    const { result, prompts } = produce([
      { text: "Sorry, I cannot summarise right now." },
      { text: "Sorry." },
    ]);
    const produced = await result;
    expect(prompts[1]).toContain("## What I am doing");
    expect(prompts[1]).toContain("## Next step");
    expect(produced.why).toBe("missing: doing, next");
    expect(produced.handoff.degraded).toBe(true);
    expect(produced.weak).toEqual([]);
  });

  it("a mechanical doing carries the task's beginning; the written next stays", async () => {
    const text = handoffMarkdown({ doing: "TBD", next: ["Run the importer on `data/big.xml`."] });
    const { result } = produce([{ text }, { text: "## What I am doing\n..." }]);
    const produced = await result;
    expect(produced.weak).toEqual(["doing"]);
    expect(produced.handoff.doing).toContain("Make the importer stream its input.");
    expect(produced.handoff.next).toBe("- Run the importer on `data/big.xml`.");
  });
});

describe("a handoff the answer names instead of writing it", () => {
  it("is read from the workspace when the answer itself has no section", async () => {
    const ws = workspace();
    mkdirSync(join(ws, ".flower", "notes"), { recursive: true });
    writeFileSync(join(ws, ".flower", "notes", "my-handoff.md"), TBD_NEXT.replace("TBD", "Wire the writer."));
    const { result, prompts } = produce([{ text: "The handoff is in .flower/notes/my-handoff.md." }], { ws });
    const produced = await result;
    expect(prompts).toHaveLength(1);
    expect(produced).toMatchObject({ why: null, from: ".flower/notes/my-handoff.md" });
    expect(produced.handoff.decided).toBe(`- ${DECIDED}`);
    expect(produced.handoff.next).toBe("Wire the writer.");
  });

  it("is not read from outside the workspace, nor when it holds no handoff", () => {
    const ws = workspace();
    const outside = workspace();
    writeFileSync(join(outside, "h.md"), TBD_NEXT);
    writeFileSync(join(ws, "empty.md"), "## Next step\nTBD\n");
    const named = `See \`${join(outside, "h.md")}\` and \`../${outside.split("/").pop()}/h.md\`.`;
    expect(namedHandoffFile(named, ws, "import")).toBeNull();
    expect(namedHandoffFile("See `empty.md`.", ws, "import")).toBeNull();
    expect(namedHandoffFile("See `missing.md`.", ws, "import")).toBeNull();
  });

  it("is never the step's own frozen handoff: that is where the work stood a generation ago", () => {
    const ws = workspace();
    writeFileSync(join(ws, "handoff-import.md"), parseHandoff(TBD_NEXT, "import").toMarkdown("en"));
    expect(namedHandoffFile("See `handoff-import.md`.", ws, "import")).toBeNull();
    writeFileSync(join(ws, "mine.md"), TBD_NEXT);
    expect(namedHandoffFile("See `handoff-import.md` or `mine.md`.", ws, "import")?.path).toBe("mine.md");
  });
});

describe("what the successor is told", () => {
  it("names the mechanical sections, in both locales, and the marker survives the frozen file", () => {
    const written = parseHandoff(TBD_NEXT, "import");
    const filled = fillWeak(written, ["next"], { task: "t", locale: "en" });
    const ws = workspace();
    const frozen = freezeHandoff(filled, { notesDir: ws, step: "import", locale: "en", now: new Date() });
    const back = readFrozenHandoff(frozen.path, "import");
    expect(back.mechanical).toEqual(["next"]);
    const block = back.promptBlock("en");
    expect(block).toContain('except "Next step"');
    expect(block).toContain("Every other section is the session's own words");
    expect(block).not.toContain(DEGRADED);
    expect(block).toContain(DEADEND);

    const zh = fillWeak(written, ["doing", "next"], { task: "任务", locale: "zh" }).promptBlock("zh");
    expect(zh).toContain('只有"现在在做什么"、"下一步"除外');
    expect(zh).toContain("其余各段都是它的原话");
  });

  it("a handoff with mechanical sections is not called degraded; a whole degraded one keeps its own note", () => {
    const filled = fillWeak(parseHandoff(TBD_NEXT), ["next"], { task: "t", locale: "en" });
    expect(filled.promptBlock("en")).not.toContain("this handoff is degraded");
    const whole = degraded("import", "t", { why: "x", locale: "en" }).promptBlock("en");
    expect(whole).toContain("this handoff is degraded");
    expect(whole).not.toContain("Every other section is the session's own words");
  });

  it("the follow-up prompt names what each weak section must say, in zh too", () => {
    const zh = followUpPrompt(["next"], "zh");
    expect(zh).toContain("## 下一步");
    expect(zh).toContain("具体到命令或文件");
    expect(zh).toContain(HANDOFF_SIGNATURE);
  });

  it("takeFollowUp ignores sections that were not asked for", () => {
    const written = parseHandoff(TBD_NEXT);
    const taken = takeFollowUp(written, "## Already decided\nSomething else.\n\n## Next step\nDo X now.", [
      "next",
    ]);
    expect(taken.decided).toBe(`- ${DECIDED}`);
    expect(taken.next).toBe("Do X now.");
  });

  it("takeFollowUp keeps a section the first answer left empty when the follow-up writes it", () => {
    // A model that answers the writing turn with "Done listing." and the whole handoff only when asked again.
    const written = parseHandoff("Done listing.");
    const answer = [
      "## What I am doing",
      "Listing the folder.",
      "## Already decided",
      "- ls is enough",
      "## Next step",
      "Keep listing.",
    ].join("\n");
    const taken = takeFollowUp(written, answer, ["doing", "next"]);
    expect(taken.doing).toBe("Listing the folder.");
    expect(taken.decided).toBe("- ls is enough");
    expect(taken.next).toBe("Keep listing.");
    expect(taken.notes).toContain("Done listing.");
  });
});
