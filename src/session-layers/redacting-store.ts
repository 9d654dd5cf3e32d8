/**
 * A layer over any session store that redacts the credentials flower passes to the `claude` child from
 * every entry before it is stored (secret-redactor.ts says why and how). It sits directly on the backend
 * (SQLite, Postgres's roaming layer, a user's adapter), below the rewrite layers, so nothing written to
 * the rows — appends of a live session and the local tail recovered after a kill alike — carries a secret.
 * Reads pass through: what was stored is already clean.
 */
import type { SessionKey, SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError } from "../errors.js";
import type { BlobStore } from "./blob-store.js";
import { ForwardingSessionStore } from "./forwarding-store.js";
import type { SecretRedactor } from "../secret-redactor.js";

export class RedactingSessionStore extends ForwardingSessionStore {
  readonly #redactor: SecretRedactor;

  constructor(inner: SessionStore, redactor: SecretRedactor) {
    if (typeof inner !== "object" || inner === null || typeof inner.append !== "function")
      throw new ConfigurationError("inner", inner, "a SessionStore (with append and load)");
    super(inner);
    this.#redactor = redactor;
  }

  /** The wrapped store's spill blobs, so the trimming layer above still finds them. */
  get blobs(): BlobStore | undefined {
    return (this.inner as { blobs?: BlobStore }).blobs;
  }

  override async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    await this.inner.append(
      key,
      this.#redactor.active ? entries.map((entry) => this.#redactor.value(entry)) : entries,
    );
  }
}
