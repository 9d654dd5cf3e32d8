/**
 * What flower needs from a session store beyond the SDK's `SessionStore`: the optional methods made
 * required (resume lists subagent transcripts, retention deletes), a way to find the project keys a session
 * was stored under (retention knows session ids, not the sanitised cwd), and closing. SQLite answers
 * synchronously, a network store asynchronously; callers await either.
 */
import type { SessionKey, SessionStore } from "@anthropic-ai/claude-agent-sdk";

export interface FlowerSessionStore extends SessionStore {
  listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>>;
  listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]>;
  delete(key: SessionKey): Promise<void>;
  /** The project keys a session was stored under (normally one: the sanitised cwd of the run). */
  projectKeysOf(sessionId: string): string[] | Promise<string[]>;
  /** Releases the store's connections or file handles. Idempotent. */
  close(): void | Promise<void>;
}
