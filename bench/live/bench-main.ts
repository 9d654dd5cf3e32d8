/**
 * `npm run bench -- --live` (bench/run.ts hands `--live` here before anything else runs): the live
 * bench's tasks with auto-compact and with flower's handoff, through the real API with your key. The
 * table goes to stdout and the results, with the model and the date, to `live` in bench/results.json
 * (the rest of the file is kept). Without a way to reach Claude it says so in one line and exits 0:
 * nothing is measured, nothing written.
 *
 *   npm run bench -- --live [--model haiku] [--window 50000] [--budget-per-run 0.75] [--tasks fix-chain,logs] [--no-write]
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { liveCredentials, skippedLine, type Environment } from "./credentials.js";
import { runLiveBench, type LiveBenchOptions, type LiveBenchResults } from "./live-bench.js";

interface LiveBenchArguments {
  model?: string;
  window?: number;
  budgetUsd?: number;
  tasks?: string[];
  write: boolean;
}

export function parseLiveBenchArguments(argv: readonly string[]): LiveBenchArguments {
  const parsed: LiveBenchArguments = { write: true };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const value = () => {
      const next = argv[++index];
      if (next === undefined || next.startsWith("--")) throw new Error(`${argument} needs a value`);
      return next;
    };
    const number = (text: string, integer: boolean) => {
      const parsedNumber = Number(text);
      if (!Number.isFinite(parsedNumber) || parsedNumber <= 0 || (integer && !Number.isInteger(parsedNumber)))
        throw new Error(`${argument} must be a positive ${integer ? "integer" : "number"}, got ${text}`);
      return parsedNumber;
    };
    if (argument === "--live") continue;
    else if (argument === "--model") parsed.model = value();
    else if (argument === "--window") parsed.window = number(value(), true);
    else if (argument === "--budget-per-run") parsed.budgetUsd = number(value(), false);
    else if (argument === "--tasks") parsed.tasks = value().split(",").filter(Boolean);
    else if (argument === "--no-write") parsed.write = false;
    else
      throw new Error(
        `unknown option ${argument} with --live (--model NAME, --window N, --budget-per-run USD, --tasks a,b, --no-write)`,
      );
  }
  return parsed;
}

/** Keeps the results under `live` in the results file, the rest of it as it was; written whole or not at all. */
export function keepLiveResults(file: string, live: LiveBenchResults): void {
  const results = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  results.live = live;
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(temporary, file);
}

export async function liveBenchMain(
  argv: readonly string[],
  options: {
    env?: Environment;
    out?: (line: string) => void;
    resultsFile: string;
    /** For the run against the offline kit: its environment for the `claude` children. */
    childEnv?: LiveBenchOptions["env"];
  },
): Promise<number> {
  const out = options.out ?? ((line: string) => console.log(line));
  const env = options.env ?? process.env;
  let parsed: LiveBenchArguments;
  try {
    parsed = parseLiveBenchArguments(argv);
  } catch (error) {
    out(`flower live bench: ${(error as Error).message}`);
    return 2;
  }
  if (liveCredentials(env) === null) {
    out(skippedLine("flower live bench"));
    return 0;
  }
  const results = await runLiveBench({
    model: parsed.model ?? env.FLOWER_LIVE_MODEL ?? "haiku",
    out,
    ...(parsed.window !== undefined ? { window: parsed.window } : {}),
    ...(parsed.budgetUsd !== undefined ? { budgetUsd: parsed.budgetUsd } : {}),
    ...(parsed.tasks ? { only: parsed.tasks } : {}),
    ...(options.childEnv ? { env: options.childEnv } : {}),
  });
  if (parsed.write) {
    keepLiveResults(options.resultsFile, results);
    out(`wrote the results to ${options.resultsFile} (live)`);
  }
  return 0;
}
