/**
 * No folder cycle in src/: the lint rule (eslint.config.js) fixes the direction between layers, but
 * folders of one layer may import each other, and a rule per pair cannot say "never in a circle".
 * This reads every relative import under src/, folds it to top-level folders (a top file such as
 * errors.ts counts as its own folder), and fails naming the cycle if there is one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");
const IMPORT = /(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|import\(\s*"(\.[^"]+)"\s*\)/g;

/** src/store/passes/x.ts → "store"; src/errors.ts → "errors.ts". */
function folderOf(file) {
  const [first, ...rest] = relative(SRC, file).split(sep);
  return rest.length === 0 ? first.replace(/\.js$/, ".ts") : first;
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

const edges = new Map();
for (const file of sourceFiles(SRC)) {
  const from = folderOf(file);
  for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const target = resolve(dirname(file), match[1] ?? match[2]);
    if (relative(SRC, target).startsWith("..")) continue;
    const to = folderOf(target);
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    // One example import per edge, to name in the message.
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${relative(SRC, file)} → ${match[1] ?? match[2]}`);
  }
}

/** Depth-first search; a back edge to a folder on the current path closes a cycle. */
const state = new Map();
const path = [];
function visit(folder) {
  state.set(folder, "open");
  path.push(folder);
  for (const next of edges.get(folder)?.keys() ?? []) {
    if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
    if (!state.has(next)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
  }
  path.pop();
  state.set(folder, "done");
  return null;
}

for (const folder of [...edges.keys()].sort()) {
  if (state.has(folder)) continue;
  const cycle = visit(folder);
  if (cycle) {
    console.error(`check-layers: folder cycle in src/: ${cycle.join(" → ")}`);
    for (let i = 0; i < cycle.length - 1; i++) console.error(`  ${edges.get(cycle[i]).get(cycle[i + 1])}`);
    process.exit(1);
  }
}
console.log(`check-layers: ${edges.size} folders of src/, no folder cycle`);
