/**
 * The base of flower's store decorators (redacting, roaming, trimming and, through trimming, pruning):
 * every `FlowerSessionStore` method forwards to `inner`, so a decorator overrides only what it changes.
 * The SDK's `SessionStore` makes listing and deleting optional; a wrapped store without them answers as
 * flower needs: no subagent transcripts to list, and a StoreError naming the missing method where there
 * is no sensible answer (listing sessions, deleting, finding a session's project keys).
 */
import type { SessionKey, SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { StoreError } from "../errors.js";
import type { FlowerSessionStore } from "./flower-store.js";

export class ForwardingSessionStore<Inner extends SessionStore = SessionStore> implements FlowerSessionStore {
  /** The wrapped store; rows live there. Closing the decorator closes it. */
  readonly inner: Inner;

  constructor(inner: Inner) {
    this.inner = inner;
  }

  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    await this.inner.append(key, entries);
  }

  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    return this.inner.load(key);
  }

  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    if (this.inner.listSessions === undefined) throw missing("listSessions");
    return this.inner.listSessions(projectKey);
  }

  /** A wrapped store without `listSubkeys` has no subagent transcripts to offer: resume loads the main one. */
  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return this.inner.listSubkeys === undefined ? [] : this.inner.listSubkeys(key);
  }

  async delete(key: SessionKey): Promise<void> {
    if (this.inner.delete === undefined) throw missing("delete");
    await this.inner.delete(key);
  }

  async projectKeysOf(sessionId: string): Promise<string[]> {
    const inner = this.inner as Partial<FlowerSessionStore>;
    if (typeof inner.projectKeysOf !== "function") throw missing("projectKeysOf");
    return inner.projectKeysOf(sessionId);
  }

  /** Closes the wrapped store (if it can be closed). */
  async close(): Promise<void> {
    const inner = this.inner as Partial<FlowerSessionStore>;
    if (typeof inner.close === "function") await inner.close();
  }
}

function missing(method: string): StoreError {
  return new StoreError(`The wrapped session store has no ${method}() method`);
}
