/**
 * Records test/unit/session-layers/fixtures/coordinator-denied-bash.jsonl: a real transcript in which
 * flower's delegate guard denies a coordinator's Bash call, twice, through the bundled `claude` binary
 * against the offline kit, exactly as the session store holds it. No public transcript carries
 * `toolDenialKind`, so the denial pass is tested on this recording. Run it again after an SDK upgrade:
 *
 *   npm run build && node test/support/record-denial-fixture.mjs
 *
 * Only what would tie the file to one machine or run is replaced (the temporary workspace, the kit's
 * config directory, the session id, the kernel version); everything else is kept byte for byte, key order
 * included.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Runtime, coordinator, subagent } from "../../dist/index.js";
import { SqliteSessionStore } from "../../dist/public/stores.js";
import { startFakeModel, text, toolUse } from "../../dist/testing/index.js";

const OUT = join(
  dirname(fileURLToPath(import.meta.url)),
  "../unit/session-layers/fixtures/coordinator-denied-bash.jsonl",
);
const WORKSPACE = "/home/user/project";
const CONFIG_DIR = "/home/user/.claude";
const SESSION_ID = "00000000-0000-4000-8000-000000000001";

const root = mkdtempSync(join(tmpdir(), "flower-record-denial-"));
const workspace = join(root, "workspace");
mkdirSync(workspace);
const runDir = join(root, "runs");
// A sentence, then a Bash call the coordinator may not make, twice; then it gives up and answers.
const model = await startFakeModel({
  validation: "strict",
  policy: (request) => {
    if (request.kind !== "main") return undefined;
    const tries = request.countToolResults();
    if (tries < 2)
      return toolUse("Bash", { command: "npm test" }, { text: `Let me run the tests (try ${tries}).` });
    return text("I will send an engineer.");
  },
});
try {
  const runtime = new Runtime({ workspace, runDir, locale: "en", env: model.env() });
  const spec = coordinator("lead", "Goal: test.", { engineer: subagent("Runs tests.", "Run tests.") });
  const result = await runtime.run("deny", spec, "Run the tests.");
  if (result.denials !== 2) throw new Error(`expected 2 denials, got ${result.denials}`);
  const [projectKey] = await runtime.store.projectKeysOf(result.sessionId);
  runtime.close();
  const rows = new SqliteSessionStore({ path: join(runDir, "sessions.db") });
  const entries = await rows.load({ projectKey, sessionId: result.sessionId });
  rows.close();
  const scrub = (line) =>
    line
      .replaceAll(workspace, WORKSPACE)
      .replaceAll(projectKey, WORKSPACE.replaceAll("/", "-"))
      .replaceAll(model.configDir, CONFIG_DIR)
      .replaceAll(result.sessionId, SESSION_ID)
      .replace(/"osVersion":"[^"]*"/g, '"osVersion":"Linux"');
  const lines = entries.map((entry) => scrub(JSON.stringify(entry)));
  for (const leak of [root, tmpdir(), result.sessionId])
    if (lines.some((line) => line.includes(leak))) throw new Error(`the recording still names ${leak}`);
  writeFileSync(OUT, lines.join("\n") + "\n");
  console.log(`wrote ${entries.length} entries to ${OUT}`);
} finally {
  await model.close();
  rmSync(root, { recursive: true, force: true });
}
