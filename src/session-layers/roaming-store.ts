/**
 * A session that moves between machines (docs/shared-store.md). The SDK keys a transcript by the sanitised
 * cwd (`projectKey`), so the same session resumed from a checkout at another path asks for a key the store
 * never saw; and the transcript carries absolute paths of the first machine's workbench (the spill guard's
 * pointers). This layer, between the rewrite layers and a shared store:
 * - gives every session one home: the project key it was first stored under. Loads, appends and subagent
 *   listings of that session id go there from any workspace, so a transcript continued elsewhere stays one
 *   transcript (session ids are random UUIDs: one id never names two sessions);
 * - in what `load()` returns (rows are never changed), points `<other workspace>/.flower/` at this
 *   workspace's `.flower/`: the agent's Read of a spill pointer must name a file that exists here;
 * - writes back every spill file such a pointer names that this workspace lacks, from the store's
 *   workspace files (the runtime saves each spill there when the guard writes it).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SessionKey, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError, StoreError } from "../errors.js";
import { writeFileAtomically } from "../fs/atomic-write.js";
import type { BlobStore } from "./blob-store.js";
import type { FlowerSessionStore } from "./flower-store.js";
import { ForwardingSessionStore } from "./forwarding-store.js";
import type { WorkspaceFiles } from "./workspace-files.js";

export interface RoamingSessionStoreOptions {
  /** The shared store. Closing this layer closes it. */
  inner: FlowerSessionStore;
  /** This machine's workspace (the cwd the agent runs in). */
  workspace: string;
  /** Where spill files are kept for other machines; null: pointers are only relocated. */
  files: WorkspaceFiles | null;
}

/** A spill file named in a transcript: `.flower/spill/<name>.txt` (names the spill guard and trim make). */
const SPILL_POINTER = /\.flower\/spill\/([A-Za-z0-9_-][A-Za-z0-9._-]*\.txt)/g;

export class RoamingSessionStore extends ForwardingSessionStore<FlowerSessionStore> {
  readonly workspace: string;
  readonly #files: WorkspaceFiles | null;
  /** session id → its home project key, once known. */
  readonly #homes = new Map<string, Promise<string>>();

  constructor(options: RoamingSessionStoreOptions) {
    if (typeof options !== "object" || options === null)
      throw new ConfigurationError("options", options, "an options object");
    if (typeof options.workspace !== "string" || options.workspace === "")
      throw new ConfigurationError("workspace", options.workspace, "a directory path");
    super(options.inner);
    this.workspace = resolve(options.workspace);
    this.#files = options.files;
  }

  /** The wrapped store's spill blobs (the trimming layer above finds them here). */
  get blobs(): BlobStore | undefined {
    return (this.inner as { blobs?: BlobStore }).blobs;
  }

  override async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    await this.inner.append(await this.#home(key), entries);
  }

  override async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    const entries = await this.inner.load(await this.#home(key));
    if (entries === null) return null;
    const relocated = this.#relocate(entries);
    await this.#restoreSpills(relocated);
    return relocated;
  }

  override async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return this.inner.listSubkeys(await this.#home(key));
  }

  override async delete(key: SessionKey): Promise<void> {
    await this.inner.delete(await this.#home(key));
  }

  /** The key with the session's home project key (the asked-for one when the store has none yet). */
  async #home<K extends { projectKey: string; sessionId: string }>(key: K): Promise<K> {
    let home = this.#homes.get(key.sessionId);
    if (home === undefined) {
      home = Promise.resolve(this.inner.projectKeysOf(key.sessionId)).then((keys) =>
        keys.includes(key.projectKey) ? key.projectKey : (keys[0] ?? key.projectKey),
      );
      this.#homes.set(key.sessionId, home);
      // A failed lookup is not remembered: the next call asks again.
      home.catch(() => this.#homes.delete(key.sessionId));
    }
    return { ...key, projectKey: await home };
  }

  /** Entries whose `<cwd>/.flower/` paths of other workspaces now name this workspace's `.flower/`. */
  #relocate(entries: SessionStoreEntry[]): SessionStoreEntry[] {
    const others = new Set<string>();
    for (const entry of entries) {
      const cwd = (entry as { cwd?: unknown }).cwd;
      if (typeof cwd === "string" && cwd !== "" && resolve(cwd) !== this.workspace) others.add(cwd);
    }
    if (others.size === 0) return entries;
    const here = jsonText(join(this.workspace, DEFAULTS.workbenchDir) + "/");
    const patterns = [...others].map((cwd) => jsonText(join(cwd, DEFAULTS.workbenchDir) + "/"));
    return entries.map((entry) => {
      const text = JSON.stringify(entry);
      let changed = text;
      for (const pattern of patterns) changed = changed.replaceAll(pattern, here);
      return changed === text ? entry : (JSON.parse(changed) as SessionStoreEntry);
    });
  }

  async #restoreSpills(entries: SessionStoreEntry[]): Promise<void> {
    if (this.#files === null) return;
    const names = new Set<string>();
    for (const entry of entries)
      for (const match of JSON.stringify(entry).matchAll(SPILL_POINTER)) names.add(match[1]!);
    const dir = join(this.workspace, DEFAULTS.workbenchDir, "spill");
    for (const name of names) {
      const path = join(dir, name);
      if (existsSync(path)) continue;
      let content: Buffer | null;
      try {
        content = await this.#files.get(`${DEFAULTS.workbenchDir}/spill/${name}`);
      } catch (error) {
        throw new StoreError(`Cannot restore the spill file ${path}: ${(error as Error).message}`, {
          cause: error,
        });
      }
      // Not kept by the store (a trim spill: the blob layer restores it; or text that looks like one).
      if (content !== null) writeFileAtomically(path, content);
    }
  }
}

/** How `text` appears inside a JSON string. */
function jsonText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
