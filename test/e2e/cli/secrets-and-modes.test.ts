/**
 * Security through the real CLI: a recognisable API key and auth token are planted, a whole session is
 * run with -v (a subagent's Bash, a spill, a handoff, a frozen file, a continue, a report), and every byte
 * flower wrote — the run directory with both databases and their WAL files, the workbench, stdout and
 * stderr of every command, the --json events — is searched for them. And everything flower created is
 * readable by the owner only: folders 0700, files 0600.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { cleanEnv, runFlower, type Finished, useCliTest } from "./helpers.js";
import { dirsUnder, filesUnder, noSecretOf } from "./secrets.js";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;

const API_KEY = "sk-ant-api03-PLANTEDKEY-Zq7Xw9Vt3Rs1";
const AUTH_TOKEN = "sk-ant-oat01-PLANTEDTOKEN-Hb4Nm8Kp2Lj6";

const expectNoSecret = noSecretOf([API_KEY, AUTH_TOKEN]);

const mode = (path: string) => statSync(path).mode & 0o777;

describe("credentials and file modes", () => {
  it("no credential reaches a file, an event or -v output; runDir and the workbench are owner-only", async () => {
    const root = temp.make("flower-secret-");
    const workspace = join(root, "ws");
    const runDir = join(root, "runs");
    const handoff = handoffMarkdown({ doing: "GEN-1: looked around.", next: ["Say it is finished."] });
    writeFileSync(join(root, ".keep"), "");
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) {
          return request.countToolResults("Bash") === 0
            ? toolUse("Bash", { command: "echo checked" })
            : text("Ran echo: checked.");
        }
        if (request.isHandoffTurn) return text(handoff);
        if (request.lastUserText().includes("Continue the task.")) return text("Continued.");
        if (request.firstUserText().includes("GEN-1")) return text("Finished in generation 2.");
        const done = request.countToolResults();
        if (done === 0) return toolUse("Read", { file_path: join(workspace, "big.txt") });
        if (done === 1)
          return toolUse("Agent", { subagent_type: "analyst", description: "Check", prompt: "Run echo." });
        // Crosses the handoff line (window 100K, handoff at 50K).
        return { ...toolUse("Read", { file_path: join(workspace, "small.txt") }), outputTokens: 70_000 };
      },
    });
    mkdirSync(workspace);
    writeFileSync(join(workspace, "big.txt"), `${"a long line of text\n".repeat(600)}`);
    writeFileSync(join(workspace, "small.txt"), "small\n");
    const outputs: Array<[string, Finished]> = [];
    const flower = async (name: string, args: string[], env: Record<string, string>) => {
      const where = ["show", "report", "runs"].includes(args[0]!) ? [] : ["--workspace", workspace];
      const finished = await runFlower([...args, ...where, "--run-dir", runDir], {
        env: cleanEnv(model!.env(env)),
        cwd: root,
        timeoutMs: 45_000,
      });
      outputs.push([name, finished]);
      expect(finished.code, `${name}: ${finished.stdout}${finished.stderr}`).toBe(0);
      return finished;
    };

    const run = await flower(
      "run -v",
      ["-v", "--direct", "--window", "100000", "--step", "s", "Look around"],
      {
        ANTHROPIC_API_KEY: API_KEY,
      },
    );
    expect(run.stdout).toContain("auth      sk-a**** (ANTHROPIC_API_KEY)");
    expect(run.stdout).toContain("spill");
    const continued = await flower("continue -v --json", ["continue", "s", "-v", "--json"], {
      ANTHROPIC_API_KEY: "",
      ANTHROPIC_AUTH_TOKEN: AUTH_TOKEN,
    });
    expect(continued.stdout).toContain('"type":"result"');
    expect(model.requests.at(-1)!.headers.authorization).toBe(`Bearer ${AUTH_TOKEN}`);
    await flower("show", ["show", "s"], { ANTHROPIC_API_KEY: API_KEY });
    await flower("report", ["report", "s"], { ANTHROPIC_API_KEY: API_KEY });
    await flower("runs", ["runs"], { ANTHROPIC_API_KEY: API_KEY });

    for (const [name, finished] of outputs) {
      expectNoSecret(`${name} stdout`, finished.stdout);
      expectNoSecret(`${name} stderr`, finished.stderr);
    }
    const written = [...filesUnder(runDir), ...filesUnder(join(workspace, ".flower"))];
    expect(written.some((path) => path.endsWith("sessions.db"))).toBe(true);
    expect(written.some((path) => path.includes(`${join(".flower", "spill")}`))).toBe(true);
    expect(written.some((path) => path.includes(`${join(".flower", "notes")}`))).toBe(true);
    for (const path of written) expectNoSecret(path, readFileSync(path));

    // Owner only: every folder flower made, every file in the run directory and the workbench.
    for (const dir of [...dirsUnder(runDir), ...dirsUnder(join(workspace, ".flower"))])
      expect(mode(dir).toString(8), dir).toBe("700");
    // Files 0600; git's objects in the checkpoints' shadow repository are 0400 (owner only, read-only).
    for (const path of written) expect(mode(path).toString(8), path).toMatch(/^[46]00$/);
  }, 120_000);
});
