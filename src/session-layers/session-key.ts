import type { SessionKey } from "@anthropic-ai/claude-agent-sdk";
import { StoreError } from "../errors.js";

/** The main transcript's subpath in a table. The SDK forbids an empty subpath, so it cannot collide. */
export const MAIN_SUBPATH = "";

/** Throws a StoreError unless `key` is a session key the SDK could have produced. */
export function checkSessionKey(key: { projectKey: string; sessionId: string; subpath?: string }): void {
  if (
    typeof key !== "object" ||
    key === null ||
    typeof key.projectKey !== "string" ||
    typeof key.sessionId !== "string"
  )
    throw new StoreError("A session key needs a string projectKey and sessionId");
  if (key.subpath !== undefined && (typeof key.subpath !== "string" || key.subpath === ""))
    throw new StoreError(
      "A session key's subpath must be a non-empty string or absent (absent = main transcript)",
    );
}

/** The table's subpath for a key: the subagent's subpath, or MAIN_SUBPATH. */
export function subpathOf(key: SessionKey): string {
  return key.subpath ?? MAIN_SUBPATH;
}
