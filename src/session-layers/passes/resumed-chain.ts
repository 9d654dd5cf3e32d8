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
import { isRecord, toolResults, type Entry, type ResumedChain } from "./transcript-entries.js";

export type { ResumedChain } from "./transcript-entries.js";

/** Entry types that take part in the chain (the binary's transcript rows); markers have no uuid. */
const ROW_TYPES = new Set(["user", "assistant", "attachment", "system"]);

const NONE = -1;

/**
 * The entries the binary sends on resume (see the module comment). Worked out on entry indexes in a few
 * flat walks, and asked by uuid through the index the walk needed anyway: every load of a 20k-entry
 * session runs it (a set of the chain's uuids alone cost a third of it).
 */
export function resumedChain(entries: readonly Entry[]): ResumedChain {
  if (isOneChain(entries)) return EVERY_ROW;
  const count = entries.length;
  const sidechainFile = !entries.some(
    (entry) => (entry.type === "user" || entry.type === "assistant") && entry["isSidechain"] !== true,
  );
  // uuid → index; a uuid written twice is the later row, as the binary's map keeps it.
  const indexOf = new Map<string, number>();
  let boundary = NONE;
  let checkpoint: { uuid: string; explicit: boolean } | undefined;
  for (let index = 0; index < count; index += 1) {
    const entry = entries[index] as Entry;
    if (entry.type === "last-prompt" && typeof entry["leafUuid"] === "string")
      checkpoint = { uuid: entry["leafUuid"], explicit: entry["explicit"] === true };
    if (typeof entry.uuid !== "string" || !ROW_TYPES.has(entry.type)) continue;
    indexOf.set(entry.uuid, index);
    if (isCompactBoundary(entry) && (sidechainFile || entry["isSidechain"] !== true)) boundary = index;
  }

  // A row is what the binary keeps: the last copy of its uuid, not before the last compact boundary
  // unless the boundary preserves it.
  const row = new Uint8Array(count);
  for (const index of indexOf.values()) if (index >= boundary) row[index] = 1;
  const parent = new Int32Array(count).fill(NONE);
  const parentOf = (index: number): number => {
    const uuid = (entries[index] as Entry)["parentUuid"];
    const found = typeof uuid === "string" ? indexOf.get(uuid) : undefined;
    return found === undefined ? NONE : found;
  };
  for (const index of indexOf.values()) parent[index] = parentOf(index);

  if (boundary !== NONE) {
    const preserved = preservedIndexes(entries[boundary] as Entry, indexOf, parent);
    if (preserved !== null) {
      // The binary's re-link: anchor → preserved… → what hung off the anchor.
      const { anchor, indexes } = preserved;
      const last = indexes.at(-1) as number;
      for (let index = 0; index < count; index += 1)
        if (row[index] === 1 && parent[index] === anchor) parent[index] = last;
      indexes.forEach((index, position) => {
        row[index] = 1;
        parent[index] = position === 0 ? anchor : (indexes[position - 1] as number);
      });
    }
  }

  const leaf = sidechainFile
    ? sidechainLeaf(entries, row, parent)
    : mainLeaf(
        entries,
        row,
        parent,
        checkpoint === undefined ? undefined : { ...checkpoint, index: indexOf.get(checkpoint.uuid) },
      );
  const onChain = new Uint8Array(count);
  for (
    let index = leaf;
    index !== NONE && row[index] === 1 && onChain[index] === 0;
    index = parent[index] as number
  )
    onChain[index] = 1;
  addRestOfResponses(entries, row, parent, onChain);

  return { has: (uuid) => onChain[indexOf.get(uuid) ?? NONE] === 1 };
}

/** What a transcript without branches sends: all of it (the passes ask only about rows). */
const EVERY_ROW: ResumedChain = { has: () => true };

/**
 * Most transcripts are one chain: each row hangs from the row before it, all of one side (a main
 * transcript without inline sidechains, or a subagent's), no compaction, a message last and no rewind.
 * The binary then sends every row, and the walk above would find exactly that; this answers it without
 * allocating (a load of many small subagent transcripts adds up).
 */
function isOneChain(entries: readonly Entry[]): boolean {
  let previous: string | null = null;
  let last: Entry | undefined;
  let side: boolean | undefined;
  for (const entry of entries) {
    if (entry.type === "last-prompt" && entry["explicit"] === true) return false;
    if (typeof entry.uuid !== "string" || !ROW_TYPES.has(entry.type)) continue;
    const sidechain = entry["isSidechain"] === true;
    if ((side ??= sidechain) !== sidechain || isCompactBoundary(entry)) return false;
    if ((entry["parentUuid"] ?? null) !== previous) return false;
    previous = entry.uuid;
    last = entry;
  }
  return last !== undefined && (last.type === "user" || last.type === "assistant");
}

function isCompactBoundary(entry: Entry): boolean {
  return entry.type === "system" && entry["subtype"] === "compact_boundary";
}

/**
 * The rows a compact boundary keeps, in order, and the anchor they hang from: the list in
 * `preservedMessages`, else the walk from `preservedSegment.tailUuid` up to its `headUuid`. Null when
 * the list names a missing entry or the walk breaks (the binary then keeps none either).
 */
function preservedIndexes(
  boundary: Entry,
  indexOf: ReadonlyMap<string, number>,
  parent: Int32Array,
): { anchor: number; indexes: number[] } | null {
  const metadata = boundary["compactMetadata"];
  if (!isRecord(metadata)) return null;
  const messages = metadata["preservedMessages"];
  const segment = metadata["preservedSegment"];
  let anchorUuid: unknown;
  let indexes: number[] = [];
  if (isRecord(messages) && Array.isArray(messages["uuids"])) {
    anchorUuid = messages["anchorUuid"];
    for (const uuid of messages["uuids"]) {
      const index = typeof uuid === "string" ? indexOf.get(uuid) : undefined;
      if (index === undefined) return null;
      indexes.push(index);
    }
  } else if (isRecord(segment) && typeof segment["tailUuid"] === "string") {
    anchorUuid = segment["anchorUuid"];
    const head = typeof segment["headUuid"] === "string" ? indexOf.get(segment["headUuid"]) : undefined;
    let index = indexOf.get(segment["tailUuid"]) ?? NONE;
    while (index !== NONE && !indexes.includes(index)) {
      indexes.push(index);
      if (index === head) break;
      index = parent[index] as number;
    }
    if (head === undefined || indexes.at(-1) !== head) return null;
    indexes = indexes.reverse();
  }
  const anchor = typeof anchorUuid === "string" ? indexOf.get(anchorUuid) : undefined;
  return anchor === undefined || indexes.length === 0 ? null : { anchor, indexes };
}

/** Whether walking up from `index` reaches `ancestor` (itself included). */
function descends(index: number, ancestor: number, parent: Int32Array): boolean {
  for (
    let at = index, steps = 0;
    at !== NONE && steps <= parent.length;
    at = parent[at] as number, steps += 1
  )
    if (at === ancestor) return true;
  return false;
}

function mainLeaf(
  entries: readonly Entry[],
  row: Uint8Array,
  parent: Int32Array,
  checkpoint: { index: number | undefined; explicit: boolean } | undefined,
): number {
  let lastRow = NONE;
  for (let index = entries.length - 1; index >= 0 && lastRow === NONE; index -= 1) {
    const entry = entries[index] as Entry;
    if (row[index] === 1 && entry["isSidechain"] !== true && entry["subtype"] !== "file_snapshot")
      lastRow = index;
  }
  let start = lastRow;
  const mark = checkpoint?.index;
  if (mark !== undefined && row[mark] === 1)
    if (checkpoint?.explicit === true || lastRow === NONE || !descends(lastRow, mark, parent)) start = mark;
  // The leaf is the nearest message at or above the start.
  for (let at = start, steps = 0; at !== NONE && row[at] === 1 && steps <= parent.length; steps += 1) {
    const type = (entries[at] as Entry).type;
    if (type === "user" || type === "assistant") return at;
    at = parent[at] as number;
  }
  return NONE;
}

function sidechainLeaf(entries: readonly Entry[], row: Uint8Array, parent: Int32Array): number {
  const hasChild = new Uint8Array(entries.length);
  for (let index = 0; index < entries.length; index += 1)
    if (row[index] === 1 && parent[index] !== NONE) hasChild[parent[index] as number] = 1;
  let leaf = NONE;
  let newest = -Infinity;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    if (row[index] !== 1 || hasChild[index] === 1 || isCompactBoundary(entry)) continue;
    const parsed = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
    const time = Number.isNaN(parsed) ? -Infinity : parsed;
    // The binary's choice: strictly newer wins; while no entry had a time, each later one does.
    if (time > newest || newest === -Infinity) {
      newest = time;
      leaf = index;
    }
  }
  return leaf;
}

/** Marks the other entries of each chain response (same `message.id`) and the results hanging off them. */
function addRestOfResponses(
  entries: readonly Entry[],
  row: Uint8Array,
  parent: Int32Array,
  onChain: Uint8Array,
): void {
  const responses = new Set<string>();
  for (let index = 0; index < entries.length; index += 1) {
    if (onChain[index] !== 1) continue;
    const id = responseId(entries[index] as Entry);
    if (id !== undefined) responses.add(id);
  }
  if (responses.size === 0) return;
  const owner = new Uint8Array(entries.length);
  for (let index = 0; index < entries.length; index += 1) {
    if (row[index] !== 1) continue;
    const id = responseId(entries[index] as Entry);
    if (id !== undefined && responses.has(id)) onChain[index] = owner[index] = 1;
  }
  for (let index = 0; index < entries.length; index += 1) {
    const up = parent[index] as number;
    if (row[index] === 1 && up !== NONE && owner[up] === 1 && toolResults(entries[index] as Entry).length > 0)
      onChain[index] = 1;
  }
}

function responseId(entry: Entry): string | undefined {
  if (entry.type !== "assistant") return undefined;
  const message = entry["message"];
  return isRecord(message) && typeof message["id"] === "string" ? message["id"] : undefined;
}
