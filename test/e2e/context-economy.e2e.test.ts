import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { coordinator, subagent, type AgentSpec } from "../../src/index.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { rig, type Rig } from "./runtime-helpers.js";
import { delegateOnce } from "../support/delegate.js";

let current: Rig | undefined;

const engineer = subagent("Runs commands, tests and edits files.", "Do what the brief says.", {
  tools: ["Bash", "Read", "Write", "Edit"],
});
const lead = () => coordinator("lead", "Goal: check the project.", { engineer });

function gitRepo(workspace: string): void {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, stdio: "ignore" });
  git("init", "-q");
  git("config", "user.email", "t@example.com");
  git("config", "user.name", "t");
  writeFileSync(
    join(workspace, "package.json"),
    JSON.stringify({ scripts: { test: "echo WORKER-TESTS-RAN" } }),
  );
  git("add", ".");
  git("commit", "-qm", "first commit of the fixture");
  writeFileSync(join(workspace, "dirty.txt"), "changed\n");
}

/** A small valid PNG, padded with a comment chunk so it is longer than the spill threshold. */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(64, 0);
  header.writeUInt32BE(64, 4);
  header[8] = 8;
  header[9] = 2;
  const rows = Buffer.alloc(64 * (1 + 64 * 3), 0x7f);
  for (let y = 0; y < 64; y++) rows[y * (1 + 64 * 3)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("tEXt", Buffer.from(`Comment\0${"padding ".repeat(800)}`)),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("layers 1-3 through the real binary", () => {
  it("denies hands-on Bash on the coordinator, lets glances through, and never lets a subagent be stopped", async () => {
    const glance = 'git status -s && echo "--- LOG ---" && git log --oneline -10';
    current = await rig({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) {
          return request.countToolResults("Bash") === 0
            ? toolUse("Bash", { command: "npm test" })
            : text(
                `worker: ${request.lastToolResult()!.text.includes("WORKER-TESTS-RAN") ? "tests ran" : "no"}`,
              );
        }
        const step = request.countToolResults();
        if (step === 0) return toolUse("Bash", { command: "npm test" });
        if (step === 1) return toolUse("Bash", { command: glance });
        if (step === 2) return toolUse("Bash", { command: "git status && rm -rf x" });
        if (step === 3)
          return toolUse("Agent", {
            description: "run tests",
            prompt: "Run npm test.",
            subagent_type: "engineer",
          });
        return text("checked");
      },
    });
    gitRepo(current.workspace);
    mkdirSync(join(current.workspace, "x"));
    const rt = current.runtime({ workbench: true });
    const result = await rt.run("check", lead(), "Check the project.");
    expect(result.result).toBe("checked");

    const results = current.model.exchanges
      .filter((e) => e.kind === "main")
      .at(-1)!
      .request.toolResults();
    expect(results[0]!.isError).toBe(true);
    expect(results[0]!.text).toContain("send a subagent via the Agent tool");
    expect(results[1]!.isError).toBe(false);
    expect(results[1]!.text).toContain("?? dirty.txt");
    expect(results[1]!.text).toContain("--- LOG ---");
    expect(results[1]!.text).toContain("first commit of the fixture");
    expect(results[2]!.isError).toBe(true);
    expect(existsSync(join(current.workspace, "x"))).toBe(true);
    expect(results[3]!.text).toContain("worker: tests ran");
    expect(result.denials).toBe(2);
    const denied = current.events
      .filter((e) => e.type === "tool-denied")
      .map((e) => (e.type === "tool-denied" ? e.command : ""));
    expect(denied).toEqual(["npm test", "git status && rm -rf x"]);
  });

  it("spills a subagent's long output to disk, never re-spills a spill file, and leaves images alone", async () => {
    current = await rig({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) {
          const n = request.countToolResults();
          if (n === 0) return toolUse("Bash", { command: "seq 1 20000" });
          if (n === 1) {
            const pointer = /saved to (\S+?\.txt);/.exec(request.lastToolResult()!.text)!;
            return toolUse("Read", { file_path: pointer[1]! });
          }
          if (n === 2) return toolUse("Read", { file_path: join(current!.workspace, "picture.png") });
          return text("worker done");
        }
        return delegateOnce(
          request,
          { subagent_type: "engineer", description: "count", prompt: "Count to 20000." },
          "lead done",
        );
      },
    });
    writeFileSync(join(current.workspace, "picture.png"), png());
    const rt = current.runtime({ workbench: true });
    const result = await rt.run("spill", lead(), "Count.");
    expect(result.result).toBe("lead done");

    const last = current.model.exchanges.filter((e) => e.kind === "subagent").at(-1)!.request;
    const [seq, readBack, image] = last.toolResults();
    const expected = Array.from({ length: 20000 }, (_, i) => String(i + 1)).join("\n");
    // The model sees one pointer line + the first 400 characters.
    expect(seq!.text.split("\n")[0]).toMatch(
      /^\[Full text \(\d+ chars\) saved to .*\.flower\/spill\/.*\.txt; read it with Read if needed/,
    );
    // (The CLI strips the trailing newline when it renders the result; the 400th char is one.)
    expect(seq!.text).toContain(expected.slice(0, 399));
    expect(seq!.text.length).toBeLessThan(1000);
    // The spill file holds the whole output, byte for byte.
    const spillDir = join(current.workspace, ".flower", "spill");
    const files = readdirSync(spillDir);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(spillDir, files[0]!), "utf8")).toBe(expected);
    // Reading the spill file gets text, not a new pointer.
    expect(readBack!.text).not.toContain("saved to");
    expect(readBack!.text.length).toBeGreaterThan(4000);
    expect(readBack!.text).toContain("1500");
    // The PNG reaches the model as an image.
    expect(image!.text).toContain("[image]");
    expect(result.spills).toBe(1);
    expect(result.spilledChars).toBe(expected.length);
  });

  it("a script a subagent writes into the workbench shows up in the coordinator's index", async () => {
    current = await rig({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) {
          return request.countToolResults() === 0
            ? toolUse("Write", {
                file_path: join(current!.workspace, ".flower", "scripts", "count.sh"),
                content: "#!/bin/sh\n# Counts the lines of every text file in the workspace.\nwc -l *.txt\n",
              })
            : text("wrote .flower/scripts/count.sh");
        }
        if (request.systemText.includes("count.sh")) return text("index lists count.sh");
        return delegateOnce(
          request,
          { subagent_type: "engineer", description: "write script", prompt: "Write count.sh." },
          "script written",
        );
      },
    });
    const rt = current.runtime({ workbench: true });
    expect((await rt.run("write", lead(), "Write the script.")).result).toBe("script written");
    // The index guard refreshed INDEX.md as soon as the Write landed.
    expect(readFileSync(join(current.workspace, ".flower", "INDEX.md"), "utf8")).toContain(
      "Counts the lines of every text file",
    );
    expect((await rt.run("use", lead(), "Use the script.")).result).toBe("index lists count.sh");
  });

  it("keeps the coordinator's main thread under 20% of a plain agent doing the same tool-heavy work", async () => {
    const commands = Array.from({ length: 12 }, (_, i) => `seq ${i + 1} ${i + 6000}`);
    const work = (request: ModelRequest) => {
      const n = request.countToolResults("Bash");
      return n < commands.length ? toolUse("Bash", { command: commands[n]! }) : text(`ran ${n} commands`);
    };
    current = await rig({
      policy: (request: ModelRequest) => {
        if (request.firstUserText().includes("PLAIN")) return work(request);
        if (request.isSubagent) return work(request);
        return delegateOnce(
          request,
          { subagent_type: "engineer", description: "run all", prompt: "Run the 12 commands." },
          "delegated and done",
        );
      },
    });
    const plain: AgentSpec = { name: "plain", instructions: "", tools: ["Bash", "Read"] };
    const rt = current.runtime({ workbench: false, handoff: false });
    const plainResult = await rt.run("plain", plain, "PLAIN: run the 12 commands yourself.");
    const layered = current.runtime({ workbench: true, handoff: false });
    const layeredResult = await layered.run("layered", lead(), "Run the 12 commands through a worker.");
    const ratio = layeredResult.context / plainResult.context;
    console.log(
      `main-thread context: layered ${layeredResult.context} vs plain ${plainResult.context} tokens -> ratio ${(ratio * 100).toFixed(1)}%`,
    );
    expect(plainResult.result).toBe("ran 12 commands");
    expect(ratio).toBeLessThan(0.2);
  });
});
