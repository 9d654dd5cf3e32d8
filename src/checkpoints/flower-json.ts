/**
 * A repository's `flower.json`, at its top level: what it asks of flower's work.
 *
 * - `setup`: a command run in every new working tree of a run (installing dependencies), run-workspace.ts;
 * - `carry`: untracked files that look like secrets and go with the run all the same (secret-files.ts),
 *   as names or globs: `{ "carry": [".env", "config/*.pem"] }`.
 *
 * Read and checked in one place, so a bad value is one error naming the file, the key and the value,
 * whichever part of flower reads it first.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { WorkError } from "../errors.js";
import { CARRY_NOTHING, carryRule, type CarryRule } from "./secret-files.js";

export interface FlowerJson {
  /** The setup command; null when there is none. */
  setup: string | null;
  /** Whether `carry` names a path (relative to the repository's top). */
  carry: CarryRule;
}

const NONE: FlowerJson = { setup: null, carry: CARRY_NOTHING };

/** The `flower.json` in `dir`; nothing asked when there is none. Throws a WorkError naming a bad value. */
export function readFlowerJson(dir: string): FlowerJson {
  const file = join(dir, "flower.json");
  if (!existsSync(file) || !statSync(file).isFile()) return NONE;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new WorkError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new WorkError(
      `${file} must hold an object ({ "setup": …, "carry": […] }), got ${JSON.stringify(parsed)}`,
    );
  const { setup, carry } = parsed as { setup?: unknown; carry?: unknown };
  if (setup !== undefined && (typeof setup !== "string" || setup.trim() === ""))
    throw new WorkError(
      `${file}: "setup" must be a command (a non-empty string), got ${JSON.stringify(setup)}`,
    );
  let rule: CarryRule;
  try {
    rule = carryRule(carry);
  } catch (error) {
    throw new WorkError(`${file}: ${(error as Error).message}`);
  }
  return { setup: setup ?? null, carry: rule };
}
