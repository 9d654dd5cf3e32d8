/**
 * `flower rewind <step> --to N`: the step back to the start of generation N (or a turn of it), then the
 * `flower continue` line. Options: command-line/command-options.ts `rewind`, parsed by command-line/args.ts;
 * the step, checkout, store and runtime: work-commands/work-runtime.ts; the continue line:
 * live/live-settings.ts; words: work-commands/work-text.ts.
 */
import { EXIT, UsageError } from "../../errors.js";
import type { ParsedCommand } from "../command-line/args.js";
import { continueCommand } from "../live/live-settings.js";
import { displayPath } from "../live/live-run.js";
import { storeOption } from "../command-line/store-option.js";
import { workCommand } from "../work-commands/work-runtime.js";
import { WORK_TEXT } from "../work-commands/work-text.js";
import { resolveLocale } from "../../locale/locale.js";
import { parseGeneration, parseLang } from "../command-line/args.js";

/**
 * `flower rewind <step> --to N [--force]`: the step goes back to the start of generation N — its files,
 * its history (later generations archived, still listed), and the handoff that started N is current
 * again, to edit before `flower continue`. A file you changed since the run's last checkpoint refuses
 * the rewind, named (exit 2), unless --force.
 */
export async function rewindCommand(parsed: ParsedCommand): Promise<number> {
  const generation = parseGeneration(parsed.values.to, "--to");
  const turn = parseGeneration(parsed.values.turn, "--turn");
  if (generation === undefined)
    throw new UsageError(WORK_TEXT[resolveLocale(parseLang(parsed.values.lang))].needsTo);
  const { rt, name, text, runDir, workspace, locale } = await workCommand(parsed, "rewind", "step");
  try {
    const rewound = await rt.rewind(name, {
      generation,
      ...(turn !== undefined ? { turn } : {}),
      force: parsed.values.force === true,
    });
    const say = (line: string) => process.stdout.write(`${line}\n`);
    say(
      rewound.turn === undefined
        ? text.rewound(rewound.step, rewound.generation, rewound.restored, rewound.archived)
        : text.rewoundToTurn(
            rewound.step,
            rewound.generation,
            rewound.turn,
            rewound.restored,
            rewound.archived,
          ),
    );
    if (rewound.overwritten.length > 0) say(text.overwritten(rewound.overwritten));
    if (rewound.turn === undefined)
      say(rewound.handoff === null ? text.fromTask : text.editHandoff(displayPath(rewound.handoff)));
    const run = rt.records.get(name)?.run ?? name;
    say(text.goOn(continueCommand(run, { runDir, workspace, store: storeOption(parsed.values), locale })));
    return EXIT.ok;
  } finally {
    rt.close();
  }
}
