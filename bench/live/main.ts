/**
 * `npm run test:live`: the live suite through the real API with your key (or any provider flower
 * supports), each case under a budget of its own. Without a way to reach Claude it says so in one line
 * and exits 0 — skipped, never passed.
 *
 *   node bench/dist/live/main.js [--model haiku] [--only handoff,say] [--budget-scale 2] [--keep]
 *
 * Exit codes: 0 every case passed (or skipped: no key), 1 a case failed, 2 a bad option.
 */
import { fileURLToPath } from "node:url";
import { liveCredentials, skippedLine, type Environment } from "./credentials.js";
import { runLiveSuite } from "./suite.js";

export interface LiveArguments {
  model?: string;
  only?: string[];
  budgetScale?: number;
  keep: boolean;
}

/** The options on the command line; an unknown or malformed one throws naming it. */
export function parseLiveArguments(argv: readonly string[]): LiveArguments {
  const parsed: LiveArguments = { keep: false };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const value = () => {
      const next = argv[++index];
      if (next === undefined || next.startsWith("--")) throw new Error(`${argument} needs a value`);
      return next;
    };
    if (argument === "--model") parsed.model = value();
    else if (argument === "--only") parsed.only = value().split(",").filter(Boolean);
    else if (argument === "--budget-scale") {
      const text = value();
      const scale = Number(text);
      if (!Number.isFinite(scale) || scale <= 0)
        throw new Error(`--budget-scale must be a positive number, got ${text}`);
      parsed.budgetScale = scale;
    } else if (argument === "--keep") parsed.keep = true;
    else throw new Error(`unknown option ${argument} (--model NAME, --only a,b, --budget-scale N, --keep)`);
  }
  return parsed;
}

/** Runs the suite as `npm run test:live` does; returns the exit code. */
export async function liveMain(
  argv: readonly string[],
  env: Environment = process.env,
  out: (line: string) => void = (line) => console.log(line),
): Promise<number> {
  let options: LiveArguments;
  try {
    options = parseLiveArguments(argv);
  } catch (error) {
    out(`flower live check: ${(error as Error).message}`);
    return 2;
  }
  if (liveCredentials(env) === null) {
    out(skippedLine("flower live check"));
    return 0;
  }
  const model = options.model ?? env.FLOWER_LIVE_MODEL ?? "haiku";
  const result = await runLiveSuite({
    model,
    out,
    keep: options.keep,
    ...(options.only ? { only: options.only } : {}),
    ...(options.budgetScale !== undefined ? { budgetScale: options.budgetScale } : {}),
  });
  return result.failed === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await liveMain(process.argv.slice(2));
}
