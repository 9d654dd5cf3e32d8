/**
 * The entries the binary sends when it resumes a transcript: the resumed chain. A transcript file holds
 * more than that: what came before a compaction (the summary stands in for it), abandoned branches (a
 * rewind, an edited prompt), and in transcripts of older CLI versions the subagents' sidechains inline.
 * Counting "the newest 6 glances" over the whole file let entries the binary never sends shield the ones
 * it does, and rewrote entries nobody reads (on 38 real transcripts, 66 of 85 expiries landed there). So
 * every pass counts and rewrites on this chain only; off the chain nothing is changed.
 *
 * The rule, as CLI 2.1.332 loads a transcript (its loader, read in the bundled binary; docs/handoffs.md):
 * - The leaf. In a main transcript: the newest checkpoint (`last-prompt.leafUuid`) when it is explicit
 *   (a rewind writes one) or the last non-sidechain row in the file does not descend from it, else that
 *   row; from there up to the nearest user or assistant entry. In a subagent transcript (every entry a sidechain): the newest entry by timestamp
 *   that is no entry's parent and not a compact boundary.
 * - The chain. From the leaf along `parentUuid` until `null` (a compact boundary has `parentUuid: null`
 *   and keeps the old leaf only as `logicalParentUuid`, which the binary does not follow). Entries
 *   before the last compact boundary are dropped, except those its `compactMetadata` preserves: they are
 *   hung between the summary (the anchor) and what followed it, so they are on the chain.
 * - The rest of a response. The other entries of a chain response (same `message.id`) and the tool
 *   results hanging off them are sent with it (the binary recovers parallel calls that way).
 */
import { isRecord, toolResults, type Entry } from "./transcript-entries.js";

interface Row {
  index: number;
  entry: Entry;
}

/** Entry types that take part in the chain (the binary's transcript rows); markers have no uuid. */
const ROW_TYPES = new Set(["user", "assistant", "attachment", "system"]);

/** The uuids of the entries the binary sends on resume (see the module comment). */
export function resumedChain(entries: readonly Entry[]): ReadonlySet<string> {
  const sidechainFile = !entries.some(
    (entry) => (entry.type === "user" || entry.type === "assistant") && entry["isSidechain"] !== true,
  );
  // uuid → row; a uuid written twice is the later row, as the binary's map keeps it.
  const rows = new Map<string, Row>();
  let boundary = -1;
  let checkpoint: { uuid: string; explicit: boolean } | undefined;
  entries.forEach((entry, index) => {
    if (entry.type === "last-prompt" && typeof entry["leafUuid"] === "string")
      checkpoint = { uuid: entry["leafUuid"], explicit: entry["explicit"] === true };
    if (typeof entry.uuid !== "string" || !ROW_TYPES.has(entry.type)) return;
    rows.set(entry.uuid, { index, entry });
    if (isCompactBoundary(entry) && (sidechainFile || entry["isSidechain"] !== true)) boundary = index;
  });
  const parents = new Map<string, string | null>();
  for (const [uuid, { entry }] of rows) parents.set(uuid, parentOf(entry));

  const preserved = boundary < 0 ? [] : preservedUuids(entries[boundary] as Entry, rows, parents);
  const kept = new Set(preserved.map(({ uuid }) => uuid));
  for (const [uuid, row] of rows) if (row.index < boundary && !kept.has(uuid)) rows.delete(uuid);
  if (preserved.length > 0) {
    // The binary's re-link: anchor → preserved… → what hung off the anchor.
    const last = (preserved.at(-1) as { uuid: string }).uuid;
    const anchor = (preserved[0] as { anchor: string }).anchor;
    for (const [uuid, parent] of parents) if (parent === anchor && !kept.has(uuid)) parents.set(uuid, last);
    preserved.forEach(({ uuid }, position) =>
      parents.set(uuid, position === 0 ? anchor : (preserved[position - 1] as { uuid: string }).uuid),
    );
  }

  const leaf = sidechainFile ? sidechainLeaf(rows, parents) : mainLeaf(entries, rows, parents, checkpoint);
  const chain = new Set<string>();
  for (let uuid: string | null = leaf ?? null; uuid !== null && rows.has(uuid) && !chain.has(uuid);) {
    chain.add(uuid);
    uuid = parents.get(uuid) ?? null;
  }
  addRestOfResponses(chain, rows);
  return chain;
}

function isCompactBoundary(entry: Entry): boolean {
  return entry.type === "system" && entry["subtype"] === "compact_boundary";
}

function parentOf(entry: Entry): string | null {
  const parent = entry["parentUuid"];
  return typeof parent === "string" ? parent : null;
}

/**
 * The uuids a compact boundary keeps, in order, each with the anchor it hangs from: the list in
 * `preservedMessages`, else the walk from `preservedSegment.tailUuid` up to its `headUuid`. None when
 * the list names a missing entry or the walk breaks (the binary then keeps none either).
 */
function preservedUuids(
  boundary: Entry,
  rows: ReadonlyMap<string, Row>,
  parents: ReadonlyMap<string, string | null>,
): Array<{ uuid: string; anchor: string }> {
  const metadata = boundary["compactMetadata"];
  if (!isRecord(metadata)) return [];
  const messages = metadata["preservedMessages"];
  const segment = metadata["preservedSegment"];
  let anchor: unknown;
  let uuids: string[] = [];
  if (isRecord(messages) && Array.isArray(messages["uuids"])) {
    anchor = messages["anchorUuid"];
    uuids = messages["uuids"].filter((uuid): uuid is string => typeof uuid === "string");
    if (uuids.some((uuid) => !rows.has(uuid))) return [];
  } else if (isRecord(segment) && typeof segment["tailUuid"] === "string") {
    anchor = segment["anchorUuid"];
    const walked: string[] = [];
    let uuid: string | null = segment["tailUuid"];
    while (uuid !== null && rows.has(uuid) && !walked.includes(uuid)) {
      walked.push(uuid);
      if (uuid === segment["headUuid"]) break;
      uuid = parents.get(uuid) ?? null;
    }
    if (walked.at(-1) !== segment["headUuid"]) return [];
    uuids = walked.reverse();
  }
  if (typeof anchor !== "string") return [];
  return uuids.map((uuid) => ({ uuid, anchor }));
}

/** Whether walking up from `uuid` reaches `ancestor` (itself included). */
function descends(uuid: string, ancestor: string, parents: ReadonlyMap<string, string | null>): boolean {
  const seen = new Set<string>();
  for (let at: string | null = uuid; at !== null && !seen.has(at); at = parents.get(at) ?? null) {
    if (at === ancestor) return true;
    seen.add(at);
  }
  return false;
}

function mainLeaf(
  entries: readonly Entry[],
  rows: ReadonlyMap<string, Row>,
  parents: ReadonlyMap<string, string | null>,
  checkpoint: { uuid: string; explicit: boolean } | undefined,
): string | undefined {
  let lastRow: string | undefined;
  for (let index = entries.length - 1; index >= 0 && lastRow === undefined; index -= 1) {
    const entry = entries[index] as Entry;
    const uuid = entry.uuid;
    if (typeof uuid === "string" && rows.get(uuid)?.index === index && entry["isSidechain"] !== true)
      if (!(entry.type === "system" && entry["subtype"] === "file_snapshot")) lastRow = uuid;
  }
  let start = lastRow;
  if (checkpoint !== undefined && rows.has(checkpoint.uuid))
    if (checkpoint.explicit || lastRow === undefined || !descends(lastRow, checkpoint.uuid, parents))
      start = checkpoint.uuid;
  // The leaf is the nearest message at or above the start.
  const seen = new Set<string>();
  for (let at: string | null = start ?? null; at !== null && rows.has(at) && !seen.has(at);) {
    const type = rows.get(at)?.entry.type;
    if (type === "user" || type === "assistant") return at;
    seen.add(at);
    at = parents.get(at) ?? null;
  }
  return undefined;
}

function sidechainLeaf(
  rows: ReadonlyMap<string, Row>,
  parents: ReadonlyMap<string, string | null>,
): string | undefined {
  const hasChild = new Set<string>();
  for (const parent of parents.values()) if (parent !== null) hasChild.add(parent);
  let leaf: string | undefined;
  let newest = -Infinity;
  for (const [uuid, { entry }] of rows) {
    if (hasChild.has(uuid) || isCompactBoundary(entry)) continue;
    const parsed = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
    const time = Number.isNaN(parsed) ? -Infinity : parsed;
    // The binary's choice: strictly newer wins; while no entry had a time, each later one does.
    if (time > newest || newest === -Infinity) {
      newest = time;
      leaf = uuid;
    }
  }
  return leaf;
}

/** Adds the other entries of each chain response (same `message.id`) and the results hanging off them. */
function addRestOfResponses(chain: Set<string>, rows: ReadonlyMap<string, Row>): void {
  const responses = new Set<string>();
  for (const uuid of chain) {
    const id = responseId(rows.get(uuid)?.entry);
    if (id !== undefined) responses.add(id);
  }
  if (responses.size === 0) return;
  const owners = new Set<string>();
  for (const [uuid, { entry }] of rows) {
    const id = responseId(entry);
    if (id !== undefined && responses.has(id)) {
      chain.add(uuid);
      owners.add(uuid);
    }
  }
  for (const [uuid, { entry }] of rows) {
    const parent = parentOf(entry);
    if (parent !== null && owners.has(parent) && toolResults(entry).length > 0) chain.add(uuid);
  }
}

function responseId(entry: Entry | undefined): string | undefined {
  if (entry?.type !== "assistant") return undefined;
  const message = entry["message"];
  return isRecord(message) && typeof message["id"] === "string" ? message["id"] : undefined;
}
