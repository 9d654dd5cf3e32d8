/**
 * The shape of src/'s imports that the lint rule (eslint.config.js) cannot see. The rule fixes the
 * direction between layers one pair at a time; it cannot say "never in a circle", nor "a command is
 * imported only by the dispatcher". This reads every relative import under src/ and fails, naming what it
 * found, on:
 *
 * - a folder cycle: the imports folded to top-level folders (a top file such as errors.ts counts as its
 *   own folder) go round in a circle, so no folder of the circle can be read, or moved, first;
 * - a file cycle: files whose imports go round in a circle. Type-only imports (`import type`,
 *   `export type`) count too: they are erased at run time, but a reader still cannot understand either
 *   file first, and one edit (an `instanceof`, a constant beside the type) turns a type import into a
 *   value import, when the circle shows up as a half-initialised module at load time;
 * - a command imported by anything but the dispatcher: a file under src/cli/commands/ is one command,
 *   reached from cli/main.ts; what two commands (or a command and the live page) share belongs in a named
 *   module outside commands/, so a command can be read, changed or removed on its own.
 *
 *   node scripts/check-layers.mjs
 *
 * The pieces are exported (and the check runs only when this file is the script), so a unit test can
 * give them a small graph.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * A static import or re-export (`import`, `import type`, `export … from`, `export type … from`, a bare
 * `import "./x.js"`) starts a line; a dynamic `import("./x.js")` (also in a type position) may be
 * anywhere. Only relative specifiers: packages are outside src/.
 */
const STATIC_IMPORT = /^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|^import\s+"(\.[^"]+)"/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*"(\.[^"]+)"\s*\)/g;

const COMMANDS = ["cli", "commands"].join(sep) + sep;
const DISPATCHER = ["cli", "main.ts"].join(sep);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** The relative specifiers a source text imports, in order, each once. */
export function importSpecifiers(text) {
  const found = [];
  for (const match of text.matchAll(STATIC_IMPORT)) found.push(match[1] ?? match[2]);
  for (const match of text.matchAll(DYNAMIC_IMPORT)) found.push(match[1]);
  return [...new Set(found)];
}

/** `./x.js` from src/a/b.ts → "a/x.ts" (relative to src/, with the platform's separator). */
function resolveImport(root, file, specifier) {
  const target = resolve(dirname(file), specifier);
  const typescript = target.replace(/\.js$/, ".ts");
  if (existsSync(typescript)) return relative(root, typescript);
  if (existsSync(join(target, "index.ts"))) return relative(root, join(target, "index.ts"));
  return relative(root, typescript);
}

/**
 * The import graph of a source tree: file (relative to `root`) → the files it imports (same form).
 * Imports that leave the tree are left out.
 */
export function importGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const targets = new Set();
    for (const specifier of importSpecifiers(readFileSync(file, "utf8"))) {
      const target = resolveImport(root, file, specifier);
      if (!target.startsWith("..")) targets.add(target);
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

/** "session-layers/passes/x.ts" → "session-layers"; "errors.ts" → "errors.ts". */
export function folderOf(file) {
  return file.split(sep)[0];
}

/**
 * The graph folded to folders: folder → the folders it imports (not itself), each with one example
 * import (`from → to`) to name in a message.
 */
export function folderGraph(graph) {
  const folders = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Map());
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from && !folders.get(from).has(to)) folders.get(from).set(to, `${file} → ${target}`);
    }
  }
  return folders;
}

/**
 * Every circle in a graph (node → iterable of nodes), one per strongly connected component that has one:
 * each is a path `[a, b, …, a]`, the shortest from the component's first node (in sorted order) back to
 * itself. Sorted, so the same tree always gives the same message. Nodes only named as targets count.
 */
export function findCycles(graph) {
  const next = (node) => [...(graph.get(node) ?? [])].sort();
  const nodes = new Set(graph.keys());
  for (const targets of graph.values()) for (const target of targets) nodes.add(target);

  // Tarjan's strongly connected components, iterative so a deep tree cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let counter = 0;
  for (const start of [...nodes].sort()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, position] = frame;
      const targets = next(node);
      if (position < targets.length) {
        frame[1] += 1;
        const target = targets[position];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        components.push(component);
      }
    }
  }

  const cycles = [];
  for (const component of components) {
    const members = new Set(component);
    const first = [...component].sort()[0];
    if (component.length === 1 && !next(first).includes(first)) continue;
    // Breadth-first inside the component: the shortest way from `first` back to it.
    const cameFrom = new Map();
    const queue = [first];
    let closing = null;
    while (queue.length > 0 && closing === null) {
      const node = queue.shift();
      for (const target of next(node)) {
        if (!members.has(target)) continue;
        if (target === first) {
          closing = node;
          break;
        }
        if (!cameFrom.has(target)) {
          cameFrom.set(target, node);
          queue.push(target);
        }
      }
    }
    const path = [first];
    for (let node = closing; node !== first; node = cameFrom.get(node)) path.splice(1, 0, node);
    cycles.push([...path, first]);
  }
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Imports of a command (a file under cli/commands/) from any file but the dispatcher: `[from, to]`. */
export function commandImports(graph) {
  const found = [];
  for (const [file, targets] of graph) {
    if (file === DISPATCHER) continue;
    for (const target of targets) if (target.startsWith(COMMANDS)) found.push([file, target]);
  }
  return found.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
}

/** The check over a source tree: the lines to print, and whether it failed. */
export function checkLayers(root) {
  const graph = importGraph(root);
  const folders = folderGraph(graph);
  const problems = [];
  const folderEdges = new Map([...folders].map(([folder, targets]) => [folder, [...targets.keys()]]));
  for (const cycle of findCycles(folderEdges)) {
    problems.push(`folder cycle: ${cycle.join(" → ")}`);
    for (let i = 0; i < cycle.length - 1; i++) problems.push(`  ${folders.get(cycle[i]).get(cycle[i + 1])}`);
  }
  for (const cycle of findCycles(graph)) problems.push(`file cycle: ${cycle.join(" → ")}`);
  for (const [from, to] of commandImports(graph)) {
    problems.push(
      `command imported outside cli/main.ts: ${from} → ${to} (move what they share out of commands/)`,
    );
  }
  return {
    failed: problems.length > 0,
    lines:
      problems.length > 0
        ? problems.map((line) => `check-layers: ${line}`)
        : [
            `check-layers: ${graph.size} files in ${folders.size} folders of src/: no folder or file cycle, ` +
              `no command imported outside cli/main.ts`,
          ],
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const src = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");
  const { failed, lines } = checkLayers(src);
  for (const line of lines) (failed ? console.error : console.log)(line);
  process.exit(failed ? 1 : 0);
}
