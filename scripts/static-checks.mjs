#!/usr/bin/env node
/**
 * Runs the steps before the tests of `npm test` / `npm run check` at the same time instead of one after
 * another: the build, typecheck, lint and the format check are independent (none of them reads `dist/`)
 * and each mostly single-threaded, so on two cores they take about the longest one's time (lint's), not
 * the sum. Each one's output is printed whole, in the order given, after all have ended; the exit code is
 * the first failing one's.
 *
 *   node scripts/static-checks.mjs build typecheck lint format:check
 */
import { spawn } from "node:child_process";

const KNOWN = new Set(["build", "typecheck", "lint", "format:check"]);
const names = process.argv.slice(2);
const unknown = names.filter((name) => !KNOWN.has(name));
if (names.length === 0 || unknown.length > 0) {
  console.error(
    `static-checks: name the checks to run, from ${[...KNOWN].join(", ")}` +
      (unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""),
  );
  process.exit(2);
}

/** One `npm run <name>`, its stdout and stderr kept together in arrival order. */
function run(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npm", ["run", "-s", name], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) =>
      resolve({ name, code: 1, output: `${output}${error.message}\n`, ms: Date.now() - started }),
    );
    child.on("close", (code, signal) =>
      resolve({ name, code: code ?? (signal ? 1 : 0), output, ms: Date.now() - started }),
    );
  });
}

const results = await Promise.all(names.map(run));
for (const { name, code, output, ms } of results) {
  process.stdout.write(
    `> ${name}: ${code === 0 ? "ok" : `failed (exit ${code})`} in ${(ms / 1000).toFixed(1)} s\n`,
  );
  if (output.trim() !== "") process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
}
const failed = results.find((result) => result.code !== 0);
process.exit(failed ? failed.code : 0);
