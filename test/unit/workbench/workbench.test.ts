import { mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { describeScript, describeText, formatSize } from "../../../src/workbench/describe-file.js";
import { Workbench } from "../../../src/workbench/workbench.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();
let workspace: string;

beforeEach(() => {
  workspace = temp.make("flower-workbench-");
});

/** Writes a file under the workbench with a given age in seconds (older = smaller mtime). */
async function put(
  bench: Workbench,
  relative: string,
  content: string | Buffer,
  ageSeconds = 0,
): Promise<void> {
  const file = path.join(bench.dir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  const time = new Date(Date.now() - ageSeconds * 1000);
  await utimes(file, time, time);
}

describe("Workbench", () => {
  it("has the layout under <workspace>/.flower and ensure() creates it idempotently", async () => {
    const bench = new Workbench({ workspace, locale: "en" });
    expect(bench.dir).toBe(path.join(workspace, ".flower"));
    expect(
      [bench.scripts, bench.artifacts, bench.notes, bench.spill].map((p) => path.relative(bench.dir, p)),
    ).toEqual(["scripts", "artifacts", "notes", "spill"]);
    await bench.ensure();
    await bench.ensure();
    expect((await readdir(bench.dir)).sort()).toEqual([
      ".gitignore",
      "artifacts",
      "notes",
      "scripts",
      "spill",
    ]);
  });

  it("indexes newest first with one-line descriptions, excluding INDEX.md, spill/ and notes/archive", async () => {
    const bench = new Workbench({ workspace, locale: "zh" });
    await bench.ensure();
    await put(
      bench,
      "scripts/count.py",
      "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n# 统计 data/ 下每个文件的行数\nimport os\n",
      50,
    );
    await put(bench, "scripts/check.sh", "#!/bin/sh\nset -e\n# run the linters\n", 40);
    await put(bench, "artifacts/report.md", "\n---\n# Test report\n\nAll green.\n", 30);
    await put(bench, "artifacts/plot.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]), 20);
    await put(bench, "artifacts/data.bin", Buffer.from([1, 2, 0, 4, 5]), 25);
    await put(bench, "notes/ideas.txt", "\n\n  first real line  \nsecond\n", 10);
    await put(bench, "notes/archive/交接/old.md", "# old handoff\n", 0);
    await put(bench, "spill/20250101-x.txt", "spilled", 0);
    await put(bench, "artifacts/empty.txt", "", 60);

    const entries = await bench.refresh();
    expect(entries.map((entry) => [entry.path, entry.description])).toEqual([
      ["notes/ideas.txt", "first real line"],
      ["artifacts/plot.png", "[二进制,8 B]"],
      ["artifacts/data.bin", "[二进制,5 B]"],
      ["artifacts/report.md", "Test report"],
      ["scripts/check.sh", "run the linters"],
      ["scripts/count.py", "统计 data/ 下每个文件的行数"],
      ["artifacts/empty.txt", "(空文件)"],
    ]);
    const index = await readFile(bench.indexPath, "utf8");
    expect(index).toBe(
      [
        "# 工作台索引",
        "",
        "- notes/ideas.txt — first real line",
        "- artifacts/plot.png — [二进制,8 B]",
        "- artifacts/data.bin — [二进制,5 B]",
        "- artifacts/report.md — Test report",
        "- scripts/check.sh — run the linters",
        "- scripts/count.py — 统计 data/ 下每个文件的行数",
        "- artifacts/empty.txt — (空文件)",
        "",
      ].join("\n"),
    );
    expect((await readdir(bench.dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("lists at most maxEntries (default 40) and says how many there are", async () => {
    const bench = new Workbench({ workspace, locale: "en" });
    await bench.ensure();
    for (let i = 0; i < 45; i += 1)
      await put(bench, `artifacts/out-${String(i).padStart(2, "0")}.txt`, `result ${i}\n`, 100 - i);
    const entries = await bench.refresh();
    expect(entries).toHaveLength(40);
    expect(entries[0]!.path).toBe("artifacts/out-44.txt");
    expect(entries.at(-1)!.path).toBe("artifacts/out-05.txt");
    const index = await readFile(bench.indexPath, "utf8");
    expect(index.trimEnd().split("\n").at(-1)).toBe("(45 files, only the newest 40 listed)");
    const small = new Workbench({ workspace, locale: "en", maxEntries: 3 });
    expect(await small.refresh()).toHaveLength(3);
  });

  it("does not rewrite an unchanged INDEX.md", async () => {
    const bench = new Workbench({ workspace, locale: "en" });
    await bench.ensure();
    await put(bench, "scripts/a.js", "// does a\n", 5);
    await bench.refresh();
    const old = new Date(Date.now() - 3_600_000);
    await utimes(bench.indexPath, old, old);
    await bench.refresh();
    expect(Math.round((await stat(bench.indexPath)).mtimeMs)).toBe(old.getTime());
    await put(bench, "scripts/b.js", "// does b\n", 0);
    await bench.refresh();
    expect(await readFile(bench.indexPath, "utf8")).toContain("- scripts/b.js — does b");
  });

  it("skips dotfiles and symlinks and survives a missing workbench", async () => {
    const bench = new Workbench({ workspace, locale: "en" });
    expect(await bench.refresh()).toEqual([]);
    expect(await readFile(bench.indexPath, "utf8")).toBe("# Workbench index\n\n(empty)\n");
    await put(bench, ".hidden", "secret", 0);
    await symlink("/etc", path.join(bench.dir, "etc-link"));
    expect(await bench.refresh()).toEqual([]);
  });

  it("builds the prompt block from the index and the three rules", async () => {
    const bench = new Workbench({ workspace, locale: "zh" });
    await bench.ensure();
    await put(bench, "scripts/audit.py", '"""Audit the fake AI server."""\n', 0);
    await bench.refresh();
    const block = bench.promptBlock();
    expect(block).toContain(bench.dir);
    expect(block).toContain("scripts/");
    expect(block).toContain("长输出写到 artifacts/,回复里只给路径和结论。");
    expect(block).toContain("notes/");
    expect(block).toContain("- scripts/audit.py — Audit the fake AI server.");
    expect(block.split("\n").filter((line) => /^\d\. /.test(line))).toHaveLength(3);

    // A fresh instance (next process) reads INDEX.md from disk.
    const again = new Workbench({ workspace, locale: "zh" });
    expect(again.promptBlock()).toBe(block);
    const en = new Workbench({ workspace: path.join(workspace, "elsewhere"), locale: "en" });
    expect(en.promptBlock()).toContain(
      "Write long output to artifacts/ and reply with only path + conclusion.",
    );
    // An empty index is left out of the prompt: every main-thread request would pay for "(empty)".
    expect(en.promptBlock()).not.toContain("(empty)");
    expect(en.promptBlock()).not.toContain("# Workbench index");
    expect(
      en
        .promptBlock()
        .split("\n")
        .filter((line) => /^\d\. /.test(line)),
    ).toHaveLength(3);
  });

  it("knows which paths are inside it", async () => {
    const bench = new Workbench({ workspace, locale: "en" });
    await bench.ensure();
    expect(bench.contains(path.join(bench.scripts, "new.py"))).toBe(true);
    expect(bench.contains(".flower/notes/x.md")).toBe(true);
    expect(bench.contains(path.join(workspace, "src", "x.ts"))).toBe(false);
    expect(bench.contains(path.join(bench.dir, "..", "x"))).toBe(false);
    expect(bench.contains(`${bench.dir}-other/x`)).toBe(false);
    const alias = path.join(workspace, "wb");
    await symlink(bench.dir, alias);
    expect(bench.contains(path.join(alias, "scripts", "not-yet", "y.sh"))).toBe(true);
  });

  it("validates its options", () => {
    expect(() => new Workbench({ workspace: "" })).toThrow(ConfigurationError);
    expect(() => new Workbench({ workspace, maxEntries: 0 })).toThrow(/maxEntries/);
    expect(() => new Workbench({ workspace, locale: "fr" as "en" })).toThrow(/locale/);
  });
});

describe("descriptions", () => {
  it("takes a script's first comment line", () => {
    expect(
      describeScript("#!/usr/bin/env node\n// @ts-check\n'use strict';\n// Counts lines per file\n"),
    ).toBe("Counts lines per file");
    expect(describeScript('#!/usr/bin/env python3\n"""\nSummarise the runs.\n"""\n')).toBe(
      "Summarise the runs.",
    );
    expect(describeScript("/* Builds the bundle. */\nexport {}\n")).toBe("Builds the bundle.");
    expect(describeScript("-- top customers\nselect 1;\n")).toBe("top customers");
    expect(describeScript("#\n# ------\n# real one\n")).toBe("real one");
    expect(describeScript("import os\nprint(1)\n")).toBe("import os");
    expect(describeScript(`# ${"long ".repeat(40)}`)).toHaveLength(100);
  });

  it("takes a text's first heading, else its first non-empty line", () => {
    expect(describeText("intro line\n## Findings\n")).toBe("Findings");
    expect(describeText("\n\n  plain  text \n")).toBe("plain text");
    expect(describeText("")).toBe("");
  });

  it("formats sizes", () => {
    expect(formatSize(0)).toBe("0 B");
    expect(formatSize(2048)).toBe("2.0 KB");
    expect(formatSize(5 * 1024 * 1024)).toBe("5.0 MB");
  });
});
