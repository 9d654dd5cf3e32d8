/**
 * The system's Chromium for browser tests (Debian's `chromium` package). Playwright's own browser
 * download is never used: this machine and CI reach only the npm registry and Debian's packages. A
 * missing browser is a failure with the command that installs it, never a skipped test.
 */
import { existsSync } from "node:fs";

export const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.FLOWER_CHROMIUM?.trim();
  if (override) {
    if (!existsSync(override)) throw new Error(`FLOWER_CHROMIUM=${override} does not exist.`);
    return override;
  }
  const found = CHROMIUM_CANDIDATES.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `Chromium is not installed (looked for ${CHROMIUM_CANDIDATES.join(", ")}). ` +
        "Install it with: apt-get update && apt-get install -y --no-install-recommends chromium " +
        "(or set FLOWER_CHROMIUM to a Chromium binary).",
    );
  }
  return found;
}

/** Flags for a headless Chromium run as root in a container: no sandbox (root), no GPU. */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"];
