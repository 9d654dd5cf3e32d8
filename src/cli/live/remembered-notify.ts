/**
 * `--notify` outlives the command that was given it: a run started with `--notify …` and stopped
 * (Ctrl-C, a drift pause, a crash) tells the same target when `flower continue` goes on without the
 * flag, as a person who set it once expects. The targets are kept per run (or step) in
 * `<runDir>/notify.json`, owner-only like the rest of the run directory (a webhook URL can carry a
 * token), and only on this machine: a continue elsewhere (`--store`) takes `--notify` again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomically } from "../../fs/atomic-write.js";
import { parseNotifyTarget, type NotifyTarget } from "../../notify/index.js";

const FILE = "notify.json";

/** The text a target was given as (what `parseNotifyTarget` takes back). */
function textOf(target: NotifyTarget): string {
  return target.kind === "command" ? target.command : target.url;
}

function read(runDir: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(runDir, FILE), "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    // None yet, or a file a person broke: nothing is remembered (the flag still works).
    return {};
  }
}

/** The target for `name`: the one given now (and kept for later), else the one kept from before. */
export function notifyFor(
  runDir: string,
  name: string,
  given: NotifyTarget | undefined,
): NotifyTarget | undefined {
  const kept = read(runDir);
  if (given !== undefined) {
    if (kept[name] !== textOf(given)) {
      try {
        writeFileAtomically(join(runDir, FILE), JSON.stringify({ ...kept, [name]: textOf(given) }, null, 2));
      } catch {
        // A run directory that cannot be written fails the run elsewhere, with its own words.
      }
    }
    return given;
  }
  // A workflow step continued by its own name (`<run>/work`) is told as its run was.
  const text = kept[name] ?? kept[name.split("/")[0]!];
  if (text === undefined) return undefined;
  const target = parseNotifyTarget(text);
  return "refused" in target ? undefined : target;
}

/** `flower forget`: a forgotten run's name may be taken again, by a run that was never given a target. */
export function forgetNotify(runDir: string, names: readonly string[]): void {
  const kept = read(runDir);
  const left = Object.fromEntries(Object.entries(kept).filter(([name]) => !names.includes(name)));
  if (Object.keys(left).length === Object.keys(kept).length) return;
  writeFileAtomically(join(runDir, FILE), JSON.stringify(left, null, 2));
}
