/**
 * Workload 5's driver memory at a small size, to find what the RSS growth is (bench/README.md,
 * "Workload 5"): flower alone, one or more variants one after another (never at the same time, the
 * machine is shared), a memory sample every `--bucket` sub-tasks. A variant is extra environment for
 * the driver process only, e.g. MALLOC_ARENA_MAX=2, FLOWER_BENCH_SQLITE_COUNT=1 or
 * FLOWER_BENCH_SQLITE_CACHE_KIB=16000 (the SQLite page cache before 7091c8e).
 *
 *   node bench/dist/horizon-memory.js [--subtasks 300] [--bucket 25] [--window 90000]
 *                                     [--variant name:KEY=VALUE,KEY=VALUE]... [--parallel]
 *
 * Prints one line per sample and per variant, and the RSS at the end over the RSS at the first sample.
 */
import { integerArgument } from "./args.js";
import { forkHorizonMode } from "./horizon-mode.js";

function variants(): Array<{ name: string; env: Record<string, string> }> {
  const found: Array<{ name: string; env: Record<string, string> }> = [];
  process.argv.forEach((argument, index) => {
    if (argument !== "--variant") return;
    const value = process.argv[index + 1] ?? "";
    const [name, assignments = ""] = value.split(":", 2);
    const env: Record<string, string> = {};
    for (const assignment of assignments.split(",").filter((part) => part !== "")) {
      const equals = assignment.indexOf("=");
      if (equals < 1) throw new Error(`--variant: ${JSON.stringify(assignment)} is not KEY=VALUE`);
      env[assignment.slice(0, equals)] = assignment.slice(equals + 1);
    }
    if (!name) throw new Error(`--variant needs name[:KEY=VALUE,...], got ${JSON.stringify(value)}`);
    found.push({ name, env });
  });
  return found.length > 0 ? found : [{ name: "default", env: {} }];
}

const subtasks = integerArgument("subtasks", 300);
const bucket = integerArgument("bucket", 25);
const window = integerArgument("window", 90_000);
// --parallel: the variants at the same time (memory does not depend on it; only the wall time does).
const parallel = process.argv.includes("--parallel");
const results = parallel
  ? await Promise.all(variants().map(async (variant) => ({ variant, result: await run(variant) })))
  : [];
for (const variant of parallel ? [] : variants()) results.push({ variant, result: await run(variant) });

function run(variant: { name: string; env: Record<string, string> }) {
  return forkHorizonMode({
    label: `mem-${variant.name}`,
    mode: "flower",
    window,
    subtasks,
    bucket,
    driverEnv: variant.env,
  });
}

for (const { variant, result } of results) {
  console.log(
    `${variant.name} ${JSON.stringify(variant.env)}: ${result.ok ? "ok" : `FAILED ${result.error}`}, ` +
      `generations ${result.generations}, ${Math.round(result.wallMs / 1000)} s`,
  );
  for (const entry of result.buckets) console.log(`  ${entry.upTo}\t${JSON.stringify(entry.memory)}`);
  const samples = result.buckets.flatMap((entry) => (entry.memory ? [entry.memory] : []));
  const first = samples[0];
  const last = samples.at(-1);
  if (first && last)
    console.log(
      `  RSS ${first.rssMb} → ${last.rssMb} MB (${(last.rssMb / first.rssMb).toFixed(3)}×), ` +
        `anon ${first.rssAnonMb} → ${last.rssAnonMb}, heap total ${first.heapTotalMb} → ${last.heapTotalMb}, ` +
        `fds ${first.fds} → ${last.fds}`,
    );
}
