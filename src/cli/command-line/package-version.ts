/**
 * The version `flower --version` prints: read from the package.json that ships beside `dist/`, so an
 * installed copy reports the version that was packed, never a constant that was forgotten on a bump.
 */
import { readFileSync } from "node:fs";

export function packageVersion(): string {
  // src/cli/ and dist/cli/ are both two levels below the package root.
  const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
    version?: unknown;
  };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
