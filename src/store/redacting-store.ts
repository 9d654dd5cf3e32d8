/**
 * A layer over any session store that redacts the credentials flower passes to the `claude` child from
 * every entry before it is stored (secret-redactor.ts says why and how). It sits directly on the backend
 * (SQLite, Postgres's roaming layer, a user's adapter), below the rewrite layers, so nothing written to
 * the rows — appends of a live session and the local tail recovered after a kill alike — carries a secret.
 * Reads pass through: what was stored is already clean.
 */
import type { SessionKey, SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError, StoreError } from "../errors.js";
import type { BlobStore } from "./blob-store.js";
import type { FlowerSessionStore } from "./flower-store.js";
import type { SecretRedactor } from "./secret-redactor.js";

export class RedactingSessionStore implements FlowerSessionStore {
  readonly inner: SessionStore;
  readonly #redactor: SecretRedactor;

  constructor(inner: SessionStore, redactor: SecretRedactor) {
    if (typeof inner !== "object" || inner === null || typeof inner.append !== "function")
      throw new ConfigurationError("inner", inner, "a SessionStore (with append and load)");
    this.inner = inner;
    this.#redactor = redactor;
  }

  /** The wrapped store's spill blobs, so the trimming layer above still finds them. */
  get blobs(): BlobStore | undefined {
    return (this.inner as { blobs?: BlobStore }).blobs;
  }

  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    await this.inner.append(
      key,
      this.#redactor.active ? entries.map((entry) => this.#redactor.value(entry)) : entries,
    );
  }

  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    return this.inner.load(key);
  }

  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    if (this.inner.listSessions === undefined) throw missing("listSessions");
    return this.inner.listSessions(projectKey);
  }

  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return this.inner.listSubkeys === undefined ? [] : this.inner.listSubkeys(key);
  }

  async delete(key: SessionKey): Promise<void> {
    if (this.inner.delete === undefined) throw missing("delete");
    await this.inner.delete(key);
  }

  projectKeysOf(sessionId: string): string[] | Promise<string[]> {
    const inner = this.inner as Partial<FlowerSessionStore>;
    if (typeof inner.projectKeysOf !== "function") throw missing("projectKeysOf");
    return inner.projectKeysOf(sessionId);
  }

  async close(): Promise<void> {
    const inner = this.inner as Partial<FlowerSessionStore>;
    if (typeof inner.close === "function") await inner.close();
  }
}

function missing(method: string): StoreError {
  return new StoreError(`The wrapped session store has no ${method}() method`);
}
