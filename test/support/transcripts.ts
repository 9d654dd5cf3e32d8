/**
 * The two copies of every transcript: the JSONL files the `claude` binary writes under
 * `<CLAUDE_CONFIG_DIR>/projects/`, and the rows the session store (sessions.db) holds. Crash tests
 * compare them: every entry the CLI wrote locally must be in the store.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import Database from "better-sqlite3";

/** `<sessionId>` or `<sessionId>/subagents/agent-<id>`. */
export type TranscriptName = string;

export interface LocalTranscripts {
  /** The uuids of each transcript's entries, in file order. */
  uuids: Map<TranscriptName, string[]>;
  /** Lines that did not parse (a write cut by a kill), per transcript. */
  torn: Map<TranscriptName, number>;
}

function* jsonlFiles(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* jsonlFiles(path);
    else if (name.endsWith(".jsonl")) yield path;
  }
}

/** Every transcript under `<configDir>/projects/<project>/`. */
export function localTranscripts(configDir: string): LocalTranscripts {
  const uuids = new Map<TranscriptName, string[]>();
  const torn = new Map<TranscriptName, number>();
  const projects = join(configDir, "projects");
  if (!existsSync(projects)) return { uuids, torn };
  for (const project of readdirSync(projects)) {
    const root = join(projects, project);
    for (const file of jsonlFiles(root)) {
      const name = relative(root, file)
        .split(sep)
        .join("/")
        .replace(/\.jsonl$/, "");
      const found: string[] = [];
      let bad = 0;
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        try {
          const entry = JSON.parse(line) as { uuid?: unknown };
          if (typeof entry.uuid === "string" && entry.uuid !== "") found.push(entry.uuid);
        } catch {
          bad += 1;
        }
      }
      uuids.set(name, found);
      if (bad > 0) torn.set(name, bad);
    }
  }
  return { uuids, torn };
}

/** The uuids of each transcript in the session store, in the order they were stored. */
export function storedTranscripts(databasePath: string): Map<TranscriptName, string[]> {
  const stored = new Map<TranscriptName, string[]>();
  if (!existsSync(databasePath)) return stored;
  const db = new Database(databasePath, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT t.session_id AS session, t.subpath AS subpath, e.body AS body
           FROM entries e JOIN transcripts t ON t.id = e.transcript_id ORDER BY e.seq`,
      )
      .all() as Array<{ session: string; subpath: string; body: string }>;
    for (const row of rows) {
      const name = row.subpath === "" ? row.session : `${row.session}/${row.subpath}`;
      const entry = JSON.parse(row.body) as { uuid?: unknown };
      const list = stored.get(name) ?? [];
      if (typeof entry.uuid === "string" && entry.uuid !== "") list.push(entry.uuid);
      stored.set(name, list);
    }
  } finally {
    db.close();
  }
  return stored;
}

/**
 * What the local copy has and the store lacks, per transcript (empty when nothing is missing), and
 * the counts of both sides for the message.
 */
export function missingFromStore(
  local: Map<TranscriptName, string[]>,
  stored: Map<TranscriptName, string[]>,
  skip: (name: TranscriptName) => boolean = () => false,
): { missing: Record<TranscriptName, string[]>; counts: Record<TranscriptName, [number, number]> } {
  const missing: Record<TranscriptName, string[]> = {};
  const counts: Record<TranscriptName, [number, number]> = {};
  for (const [name, uuids] of local) {
    if (skip(name)) continue;
    const inStore = new Set(stored.get(name) ?? []);
    counts[name] = [new Set(uuids).size, inStore.size];
    const lacking = uuids.filter((uuid) => !inStore.has(uuid));
    if (lacking.length > 0) missing[name] = lacking;
  }
  return { missing, counts };
}
