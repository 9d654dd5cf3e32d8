/**
 * `flower forget <step>`: retention. Deletes the step's sessions from the run's session store; the
 * manifest keeps its record, so `flower show` still tells what it cost and where its handoffs are.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { deleteStepSessions } from "../../runtime/retention.js";
import { SqliteRunRecords } from "../../records/sqlite-records.js";
import { SqliteSessionStore } from "../../store/sqlite-store.js";
import { parseNonEmpty, UsageError, type ParsedCommand } from "../args.js";
import { EXIT } from "./live.js";

export async function forgetCommand(parsed: ParsedCommand): Promise<number> {
  const [step, extra] = parsed.positionals;
  if (step === undefined)
    throw new UsageError("flower forget: name the step whose sessions to delete (see flower runs)");
  if (extra !== undefined)
    throw new UsageError(`flower forget: unexpected argument "${extra}" (see flower forget --help)`);
  const runDir = resolve(parseNonEmpty("--run-dir", parsed.values["run-dir"]) ?? "runs");
  const database = join(runDir, "sessions.db");
  if (!existsSync(database)) throw new UsageError(`flower forget: no session store in ${runDir}`);
  const records = new SqliteRunRecords(runDir);
  const store = new SqliteSessionStore({ path: database });
  try {
    const deleted = await deleteStepSessions(records, store, step);
    process.stdout.write(
      `deleted ${deleted} session${deleted === 1 ? "" : "s"} of "${step}" from ${database}\n`,
    );
  } finally {
    store.close();
    records.close();
  }
  return EXIT.ok;
}
