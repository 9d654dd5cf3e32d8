/**
 * Context economy benchmark: the same tool-heavy work (12 commands of ~29k chars output each) done
 * by a plain agent and by a coordinator with a worker, through the real `claude` binary and the
 * offline model kit. Reports the main thread's final context of both (tokens, as measured by the kit
 * from what the CLI sent), their ratio, and the prompt-cache hit ratio of each main thread.
 * Target (issue: context economy): layered / plain below 20%.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Runtime, coordinator, worker } from "../dist/index.js";
import { startFakeModel, text, toolUse } from "../dist/testing/index.js";

const COMMANDS = Array.from({ length: 12 }, (_, i) => `seq ${i + 1} ${i + 6000}`);

function work(request) {
  const n = request.countToolResults("Bash");
  return n < COMMANDS.length ? toolUse("Bash", { command: COMMANDS[n] }) : text(`ran ${n} commands`);
}

function policy(request) {
  if (request.firstUserText().includes("PLAIN") || request.isSubagent) return work(request);
  return request.countToolResults("Agent") === 0
    ? toolUse("Agent", { description: "run all", prompt: "Run the 12 commands.", subagent_type: "engineer" })
    : text("delegated and done");
}

/** cache_read / all prompt tokens over one kind of request. */
function cacheHitRatio(exchanges, predicate) {
  let read = 0;
  let total = 0;
  for (const exchange of exchanges) {
    if (!exchange.usage || !predicate(exchange)) continue;
    read += exchange.usage.cache_read_input_tokens;
    total += exchange.promptTokens;
  }
  return total === 0 ? 0 : read / total;
}

export async function run() {
  const root = mkdtempSync(join(tmpdir(), "flower-bench-context-"));
  const model = await startFakeModel({ policy });
  try {
    const plainRt = new Runtime({
      workspace: root,
      runDir: join(root, "runs-plain"),
      env: model.env(),
      handoff: false,
      locale: "en",
    });
    const started = Date.now();
    const plain = await plainRt.run(
      "plain",
      { name: "plain", instructions: "", tools: ["Bash", "Read"] },
      "PLAIN: run the 12 commands.",
    );
    const plainMs = Date.now() - started;
    plainRt.close();
    const plainExchanges = [...model.exchanges];

    const engineer = worker("Runs commands.", "Run what the brief says.", { tools: ["Bash", "Read"] });
    const layeredRt = new Runtime({
      workspace: root,
      runDir: join(root, "runs-layered"),
      env: model.env(),
      workbench: true,
      handoff: false,
      locale: "en",
    });
    const layeredStart = Date.now();
    const layered = await layeredRt.run(
      "layered",
      coordinator("lead", "Run the commands.", { engineer }),
      "Run the 12 commands through a worker.",
    );
    const layeredMs = Date.now() - layeredStart;
    layeredRt.close();
    const layeredExchanges = model.exchanges.slice(plainExchanges.length);

    const ratio = layered.context / plain.context;
    return {
      plainMainContext: plain.context,
      layeredMainContext: layered.context,
      layeredOverPlain: Number(ratio.toFixed(4)),
      spills: layered.spills,
      spilledChars: layered.spilledChars,
      plainMainCacheHit: Number(cacheHitRatio(plainExchanges, (e) => e.kind === "main").toFixed(4)),
      layeredMainCacheHit: Number(cacheHitRatio(layeredExchanges, (e) => e.kind === "main").toFixed(4)),
      layeredWallOverPlain: Number((layeredMs / plainMs).toFixed(2)),
      target: "layeredOverPlain < 0.2",
      pass: ratio < 0.2,
    };
  } finally {
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
