/**
 * Runs every bench/*-bench.js in turn (each exports `run()` returning plain numbers) and writes
 * bench/results.json. `npm run bench` builds first; the benches import from ../dist.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here)
  .filter((file) => file.endsWith("-bench.js"))
  .sort();
const results = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  cpu: cpus()[0]?.model ?? "unknown",
  cpus: cpus().length,
  benches: {},
};
let failed = false;
for (const file of files) {
  const name = file.replace(/-bench\.js$/, "");
  process.stdout.write(`${name} … `);
  try {
    const module = await import(pathToFileURL(join(here, file)).href);
    if (typeof module.run !== "function") throw new Error(`${file} exports no run()`);
    const result = await module.run();
    results.benches[name] = result;
    console.log(JSON.stringify(result));
    if (result && result.pass === false) failed = true;
  } catch (error) {
    failed = true;
    results.benches[name] = { error: String(error?.stack ?? error) };
    console.log(`failed: ${error?.message ?? error}`);
  }
}
writeFileSync(join(here, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${join(here, "results.json")}`);
process.exitCode = failed ? 1 : 0;
