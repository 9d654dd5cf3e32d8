/**
 * Before a session is resumed, the transcript entries its `claude` child wrote locally but never
 * mirrored to the session store are appended to the store.
 *
 * The SDK mirrors a turn to the store in batches at the end of the turn. A driver killed mid-turn
 * (SIGKILL, the OOM killer, a power cut) takes its child with it, and the turn's entries exist only in
 * the child's JSONL under `<CLAUDE_CONFIG_DIR>/projects/`. Resuming from the store alone silently drops
 * them: measured, 10 of 15 main-thread entries and all 8 of a subagent's were gone after a kill during a
 * spill write. What is appended is the local tail from the first entry the store lacks (uuids decide;
 * entries without one in that tail come along, in file order), so nothing is stored twice and the order
 * stays the CLI's. A local copy that cannot be read is skipped: the store's copy is then all there is.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import type { SessionKey, SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";

/** Where the `claude` child keeps its transcripts, from the environment it gets (its HOME, too). */
export function claudeProjectsDir(env: Readonly<Record<string, string | undefined>>): string {
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  const home = env.HOME?.trim();
  return join(configDir ? configDir : join(home ? home : homedir(), ".claude"), "projects");
}

export interface RecoveredTail {
  /** Transcripts (main, subagents) that got entries. */
  transcripts: number;
  /** Entries appended. */
  entries: number;
}

/** Appends what `sessionId`'s local JSONL files hold beyond the store's copy. */
export async function recoverLocalTail(
  store: SessionStore,
  sessionId: string,
  projectsDir: string,
): Promise<RecoveredTail> {
  const recovered: RecoveredTail = { transcripts: 0, entries: 0 };
  if (!/^[0-9A-Za-z-]+$/.test(sessionId) || !existsSync(projectsDir)) return recovered;
  for (const project of readdirSync(projectsDir)) {
    const root = join(projectsDir, project);
    const main = join(root, `${sessionId}.jsonl`);
    if (!existsSync(main)) continue;
    const files: Array<{ file: string; key: SessionKey }> = [
      { file: main, key: { projectKey: project, sessionId } },
    ];
    const subagents = join(root, sessionId, "subagents");
    if (existsSync(subagents)) {
      for (const name of readdirSync(subagents).sort()) {
        if (!name.endsWith(".jsonl")) continue;
        files.push({
          file: join(subagents, name),
          key: { projectKey: project, sessionId, subpath: `subagents/${basename(name, ".jsonl")}` },
        });
      }
    }
    for (const { file, key } of files) {
      const tail = missingTail(readEntries(file), (await store.load(key)) ?? []);
      if (tail.length === 0) continue;
      await store.append(key, tail);
      recovered.transcripts += 1;
      recovered.entries += tail.length;
    }
  }
  return recovered;
}

/** The entries of a JSONL file; a line cut by a kill (the last one, normally) is left out. */
function readEntries(file: string): SessionStoreEntry[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const entries: SessionStoreEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line) as unknown;
      if (typeof entry === "object" && entry !== null && !Array.isArray(entry))
        entries.push(entry as SessionStoreEntry);
    } catch {
      // A torn line: it never reached the store either, and half an entry is not worth keeping.
    }
  }
  return entries;
}

/** The local entries from the first one with a uuid the store lacks; nothing when it lacks none. */
export function missingTail(
  local: readonly SessionStoreEntry[],
  stored: readonly SessionStoreEntry[],
): SessionStoreEntry[] {
  const known = new Set(stored.map((entry) => entry.uuid).filter((uuid) => typeof uuid === "string"));
  const first = local.findIndex(
    (entry) => typeof entry.uuid === "string" && entry.uuid !== "" && !known.has(entry.uuid),
  );
  if (first === -1) return [];
  return local.slice(first).filter((entry) => typeof entry.uuid !== "string" || !known.has(entry.uuid));
}
