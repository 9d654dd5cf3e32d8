/**
 * scripts/check-layers.mjs (part of `npm run lint`): the circles it finds in an import graph, the command
 * imports it refuses, the imports it reads (type-only ones too), and the whole check on a small fake tree.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

type Graph = Map<string, Iterable<string>>;
interface LayerCheck {
  importSpecifiers: (text: string) => string[];
  findCycles: (graph: Graph) => string[][];
  commandImports: (graph: Graph) => Array<[string, string]>;
  checkLayers: (root: string) => { failed: boolean; lines: string[] };
}

// A plain script, not a typed module: imported by URL and given its shape here.
const script = new URL("../../../scripts/check-layers.mjs", import.meta.url).href;
const { importSpecifiers, findCycles, commandImports, checkLayers } = (await import(script)) as LayerCheck;

const graph = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges));

describe("findCycles", () => {
  it("finds none in a graph that only goes down", () => {
    expect(findCycles(graph({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });

  it("names each circle once, from its first node back to it", () => {
    const cycles = findCycles(
      graph({ "x.ts": ["y.ts"], "y.ts": ["z.ts"], "z.ts": ["x.ts"], "p.ts": ["q.ts"], "q.ts": ["p.ts"] }),
    );
    expect(cycles).toEqual([
      ["p.ts", "q.ts", "p.ts"],
      ["x.ts", "y.ts", "z.ts", "x.ts"],
    ]);
  });

  it("gives the shortest way round when a component has several", () => {
    const cycles = findCycles(graph({ a: ["b"], b: ["c", "a"], c: ["a"] }));
    expect(cycles).toEqual([["a", "b", "a"]]);
  });

  it("counts a file that imports itself", () => {
    expect(findCycles(graph({ a: ["a"] }))).toEqual([["a", "a"]]);
  });
});

describe("commandImports", () => {
  it("refuses a command imported by another command or any file but the dispatcher", () => {
    const command = (name: string) => join("cli", "commands", `${name}.ts`);
    const found = commandImports(
      graph({
        [join("cli", "main.ts")]: [command("show"), command("runs")],
        [command("show")]: [command("runs"), join("cli", "step-figures.ts")],
        [join("cli", "serve-source.ts")]: [command("report")],
      }),
    );
    expect(found).toEqual([
      [command("show"), command("runs")],
      [join("cli", "serve-source.ts"), command("report")],
    ]);
  });
});

describe("importSpecifiers", () => {
  it("reads value, type-only, re-export, bare and dynamic imports, relative ones only", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'export type { C } from "./c.js";',
      'export {\n  d,\n  e,\n} from "./d.js";',
      'import "./side-effect.js";',
      'import { readFileSync } from "node:fs";',
      'const later = () => import("./lazy.js");',
    ].join("\n");
    expect(importSpecifiers(text)).toEqual([
      "./a.js",
      "../b.js",
      "./c.js",
      "./d.js",
      "./side-effect.js",
      "./lazy.js",
    ]);
  });
});

describe("checkLayers on a fake tree", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function tree(files: Record<string, string>): string {
    root = mkdtempSync(join(tmpdir(), "check-layers-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it("passes a tree without circles", () => {
    const result = checkLayers(
      tree({ "a/x.ts": 'import { y } from "../b/y.js";\n', "b/y.ts": "export const y = 1;\n" }),
    );
    expect(result.failed).toBe(false);
  });

  it("fails on a circle made of type-only imports, naming the files and the folders", () => {
    const result = checkLayers(
      tree({
        "a/x.ts": 'import type { Y } from "../b/y.js";\nexport type X = Y;\n',
        "b/y.ts": 'import type { X } from "../a/x.js";\nexport type Y = X | 1;\n',
      }),
    );
    expect(result.failed).toBe(true);
    expect(result.lines).toContain(
      `check-layers: file cycle: ${join("a", "x.ts")} → ${join("b", "y.ts")} → ${join("a", "x.ts")}`,
    );
    expect(result.lines).toContain("check-layers: folder cycle: a → b → a");
  });
});
