/**
 * The API's own words for a failed request, from the child's local transcript. When the driver cuts the
 * binary's retries short (a 401 that cannot pass), the binary never gets to its error message; the
 * `system/api_retry` message on the stream carries only the status and a label. The transcript's
 * `system/api_error` entry, written before the retry is announced, has the API's message
 * (`error.formatted`, e.g. "401 invalid x-api-key"). Best effort: a file that cannot be read gives null.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The last `system/api_error` entry's formatted error in `sessionId`'s local transcript, or null. */
export function lastApiError(projectsDir: string, sessionId: string): string | null {
  if (!/^[0-9A-Za-z-]+$/.test(sessionId) || !existsSync(projectsDir)) return null;
  try {
    for (const project of readdirSync(projectsDir)) {
      const file = join(projectsDir, project, `${sessionId}.jsonl`);
      if (!existsSync(file)) continue;
      const lines = readFileSync(file, "utf8").split("\n").reverse();
      for (const line of lines) {
        if (!line.includes('"api_error"')) continue;
        const entry = JSON.parse(line) as { subtype?: string; error?: { formatted?: unknown } };
        if (entry.subtype === "api_error" && typeof entry.error?.formatted === "string")
          return entry.error.formatted.trim() || null;
      }
    }
  } catch {
    // A torn last line or an unreadable file: the status alone will have to do.
  }
  return null;
}
