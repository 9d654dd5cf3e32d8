/**
 * Where `flower show` and `flower report` read step records: the run directory, or — with `--store` or
 * FLOWER_STORE naming a shared store — the run directory and the store together. A step recorded on
 * another machine is only in the store; one that ran here has a local copy, and of the two the newer
 * record counts (a step continued elsewhere is newer in the store; a live local driver's write may
 * not have reached it yet). Files a record names (frozen documents, handoffs) are read where they are
 * on this machine, else from the store's copy (`flower_files`).
 */
import { existsSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { DEFAULTS } from "../../defaults.js";
import type { LeaseHolder } from "../../errors.js";
import { writeFileAtomically } from "../../fs/atomic-write.js";
import { safeFileName } from "../../fs/safe-file-name.js";
import type { Locale } from "../../locale/locale.js";
import type { PersonMessage } from "../../records/person-messages.js";
import type { StepRecord } from "../../records/step-record.js";
import { runDirectory as runDirectoryPath } from "../../storage/files.js";
import { effectiveStatus, RunDirectory, type HandoffFiles } from "../../storage/run-directory.js";
import { openStoreView, statusInStore, type StoreView } from "../../storage/store-view.js";
import { parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { storeOption, type StoreOption } from "../command-line/store-option.js";

export type ShownStatus = StepRecord["status"] | "interrupted" | "paused";

/** A file a record names, as this machine can read it. */
export interface LocatedFile {
  /** A readable file with its content; null when it is nowhere to be found. */
  file: string | null;
  /** How to name it to a person: the recorded path, or the store's path with a note. */
  shown: string;
}

export interface StepSource {
  /** For messages: the records file, or the store (and the records file). */
  where: string;
  runDirectory: RunDirectory;
  store: StoreOption;
  /** Every step, oldest update first. */
  steps: StepRecord[];
  statusOf(record: StepRecord): ShownStatus;
  step(name: string): StepRecord | undefined;
  /** Step names of steps run on their own, and run ids: what `show` accepts by name. */
  knownNames(): string[];
  /** Makes the files these records name readable here (fetching the store's copies); sync after. */
  prepareFiles(records: readonly StepRecord[]): Promise<void>;
  locate(path: string): LocatedFile;
  handoffFiles(record: StepRecord): HandoffFiles;
  /** A person's messages to `run` no session has been given yet (`flower say`), oldest first. */
  waitingMessages(run: string): Promise<PersonMessage[]>;
  close(): Promise<void>;
}

const IN_STORE: Record<Locale, string> = { en: "from the store", zh: "取自共享存储" };

export async function openStepSource(values: ParsedCommand["values"], locale: Locale): Promise<StepSource> {
  const runDirectory = new RunDirectory(runDirectoryPath(parseNonEmpty("--run-dir", values["run-dir"])));
  const store = storeOption(values);
  if (store.spec.kind !== "postgres") return localSource(runDirectory, store);
  const view = openStoreView(store.spec);
  try {
    return await storeSource(runDirectory, store, view, locale);
  } catch (error) {
    await view.close();
    throw error;
  }
}

function localSource(runDirectory: RunDirectory, store: StoreOption): StepSource {
  const steps = runDirectory.steps();
  return {
    where: runDirectory.recordsPath,
    runDirectory,
    store,
    steps,
    statusOf: effectiveStatus,
    step: (name) => steps.find((record) => record.step === name),
    knownNames: () => namesOf(steps),
    prepareFiles: async () => undefined,
    locate: (path) => ({ file: existsSync(path) ? path : null, shown: path }),
    handoffFiles: (record) => runDirectory.handoffFiles(record),
    waitingMessages: async (run) => runDirectory.messages(run),
    close: async () => undefined,
  };
}

async function storeSource(
  runDirectory: RunDirectory,
  store: StoreOption,
  view: StoreView,
  locale: Locale,
): Promise<StepSource> {
  const stored = await view.steps();
  const holders: Map<string, LeaseHolder> = await view.holders();
  const fromStore = new Set<string>();
  const merged = new Map<string, StepRecord>();
  for (const record of runDirectory.steps()) merged.set(record.step, record);
  for (const record of stored) {
    const local = merged.get(record.step);
    if (local && local.updatedAt > record.updatedAt) continue;
    merged.set(record.step, record);
    fromStore.add(record.step);
  }
  const steps = [...merged.values()].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
  // The store's copies of the files this machine lacks, under their store path in a private temp dir.
  let copies: string | null = null;
  const fetched = new Map<string, string>();
  let storedNotes: string[] = [];
  const located = (path: string): LocatedFile => {
    if (existsSync(path)) return { file: path, shown: path };
    const key = storeKey(path);
    const copy = key === null ? undefined : fetched.get(key);
    return copy === undefined
      ? { file: null, shown: path }
      : { file: copy, shown: `${key} (${IN_STORE[locale]})` };
  };
  return {
    where: view.location,
    runDirectory,
    store,
    steps,
    statusOf: (record) =>
      fromStore.has(record.step) ? statusInStore(record, holders.get(record.step)) : effectiveStatus(record),
    step: (name) => merged.get(name),
    knownNames: () => namesOf(steps),
    prepareFiles: async (records) => {
      const notes = await view.files.list(`${DEFAULTS.workbenchDir}/notes/`);
      storedNotes = notes.map((file) => file.path);
      const saved = new Map(notes.map((file) => [file.path, file.savedAt]));
      const wanted = records.flatMap((record) => [
        ...(record.frozen ? [record.frozen.path] : []),
        ...record.handoffs.slice(-1),
      ]);
      for (const path of wanted) {
        const key = storeKey(path);
        if (existsSync(path) || key === null || fetched.has(key) || !saved.has(key)) continue;
        const content = await view.files.get(key);
        if (content === null) continue;
        copies ??= mkdtempSync(join(tmpdir(), "flower-show-"));
        const copy = join(copies, ...key.split("/"));
        writeFileAtomically(copy, content);
        // Its time is when it was saved: a document of a kind the CLI cannot render tells an edit by it.
        const savedAt = new Date(saved.get(key)!);
        utimesSync(copy, savedAt, savedAt);
        fetched.set(key, copy);
      }
    },
    locate: located,
    handoffFiles: (record) => {
      const local = runDirectory.handoffFiles(record);
      const archived = new Set(local.archived);
      // Archived generations saved from other machines: notes/archive/<kind>/<step>-<timestamp>.md.
      const prefix = `${safeFileName(record.step)}-`;
      for (const path of record.handoffs.slice(-1)) {
        const key = storeKey(path);
        if (key === null) continue;
        const name = basename(key);
        const folder = `${dirname(key)}/archive/${name.slice(0, name.indexOf("-"))}/`;
        for (const note of storedNotes) {
          const rest = note.startsWith(folder) ? note.slice(folder.length) : "";
          if (
            rest.startsWith(prefix) &&
            rest.endsWith(".md") &&
            /^\d{4}-\d\d-\d\dT/.test(rest.slice(prefix.length))
          )
            if (![...archived].some((local) => local.endsWith(`/${note}`)))
              archived.add(`${note} (${IN_STORE[locale]})`);
        }
      }
      return { current: local.current, archived: [...archived].sort() };
    },
    waitingMessages: (run) => view.messages(run),
    close: async () => {
      if (copies !== null) rmSync(copies, { recursive: true, force: true });
      await view.close();
    },
  };
}

/** `/any/checkout/.flower/notes/x.md` → `.flower/notes/x.md`, the file's key in the store. */
export function storeKey(path: string): string | null {
  const at = path.lastIndexOf(`/${DEFAULTS.workbenchDir}/`);
  return at === -1 ? null : path.slice(at + 1);
}

function namesOf(steps: readonly StepRecord[]): string[] {
  const names: string[] = [];
  for (const record of steps) {
    const name = record.run ?? record.step;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
