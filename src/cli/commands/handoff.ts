/**
 * `flower handoff <step> [--next "…"]`: asks the step's live driver — in this run directory, or on any
 * machine of a shared store (`--store`, FLOWER_STORE) — to hand off at its next message boundary, with
 * the person's words first in the handoff's next step (handoff/person.ts).
 *
 * It writes no step record: the record has one writer, the driver (records/handoff-requests.ts says why).
 * It leaves a request addressed to the lease it found live, and returns; the driver acts on it and says
 * so in its own terminal. Without a live driver (no lease, or its owner is gone by the rules a takeover
 * uses) it says so and exits 1: a stopped step starts its next generation with `flower continue`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { EXIT, UsageError } from "../../errors.js";
import { resolveLocale } from "../../locale/locale.js";
import { PostgresRunRecords } from "../../storage/postgres/run-records.js";
import { RECORDS_FILE } from "../../storage/files.js";
import { SqliteRunRecords } from "../../storage/sqlite/run-records.js";
import { requestHandoff, type RequestTarget } from "../../runtime/request-handoff.js";
import { connectPostgres } from "../../storage/backing-store.js";
import { runDirectory as runDirectoryPath } from "../../storage/files.js";
import { quoteIdentifier } from "../../storage/postgres/migrate.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../args.js";
import { HANDOFF_TEXT, type HandoffText } from "../handoff-text.js";
import { storeOption } from "../store-option.js";

/** Either store, as the request needs it, with where it is (for messages) and how to let go of it. */
interface Records extends RequestTarget {
  where: string;
  close(): Promise<void>;
}

export async function handoffCommand(parsed: ParsedCommand): Promise<number> {
  // --workspace comes with a line carried from another command: taken, not needed here.
  const text = HANDOFF_TEXT[resolveLocale(parseLang(parsed.values.lang))];
  const [step, extra] = parsed.positionals;
  if (step === undefined) throw new UsageError(text.which);
  if (extra !== undefined) throw new UsageError(text.unexpected(extra));
  const given = parsed.values.next;
  if (typeof given === "string" && given.trim() === "") throw new UsageError(text.emptyNext);
  const next = typeof given === "string" ? given.trim() : null;
  const runDir = runDirectoryPath(parseNonEmpty("--run-dir", parsed.values["run-dir"]));
  const store = storeOption(parsed.values);
  const records = store.spec.kind === "postgres" ? openShared(store.spec) : openLocal(runDir);
  try {
    return await ask(records, step, next, text);
  } finally {
    await records.close();
  }
}

async function ask(records: Records, step: string, next: string | null, text: HandoffText): Promise<number> {
  const asked = await requestHandoff(records, step, { next: next ?? undefined });
  if (asked.kind === "unknown") throw new UsageError(text.unknown(step, records.where, asked.known));
  if (asked.kind === "no-driver") {
    process.stderr.write(`${text.noDriver(step, asked.status)}\n`);
    return EXIT.failed;
  }
  process.stdout.write(`${text.asked(step, asked.holder.pid, asked.holder.host, next)}\n`);
  return EXIT.ok;
}

/** The run directory's records.db; an absent one is read as empty (nothing is created). */
function openLocal(runDir: string): Records {
  const where = join(runDir, RECORDS_FILE);
  if (!existsSync(where)) {
    const none = () => Promise.resolve(undefined);
    return {
      where,
      step: none,
      lease: none,
      steps: () => Promise.resolve([]),
      requests: { put: () => undefined, get: () => null, take: () => undefined },
      close: () => Promise.resolve(),
    };
  }
  const records = new SqliteRunRecords(runDir);
  return {
    where,
    step: (name) => Promise.resolve(records.get(name)),
    steps: () => Promise.resolve(records.list()),
    lease: (name) => Promise.resolve(records.leases().find((row) => row.step === name)),
    requests: records.requests,
    close: () => Promise.resolve(records.close()),
  };
}

function openShared(spec: Parameters<typeof connectPostgres>[0]): Records {
  const { location, pool, sessions, ready } = connectPostgres(spec, 1);
  const records = new PostgresRunRecords(ready, quoteIdentifier(spec.schema), location);
  return {
    where: location,
    step: (name) => records.get(name),
    steps: () => records.list(),
    lease: async (name) => (await records.leases()).find((row) => row.step === name),
    requests: records.requests,
    close: async () => {
      await sessions.close();
      await pool.end();
    },
  };
}
