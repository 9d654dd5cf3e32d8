/**
 * `flower serve`'s log route over a real run directory (cli/page/serve-source.ts under serveRuns): a goal
 * check's log the run's record names is served as it is; once that log is replaced by a symbolic link to
 * a file outside the workspace, by a hard link to one, or its folder by a link to another folder, the
 * page answers 404 and the outside file's content is never sent.
 */
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { coordinator, Runtime, subagent } from "../../../src/index.js";
import { openServeSource } from "../../../src/cli/page/serve-source.js";
import { serveRuns, type ServedRuns } from "../../../src/serve/index.js";
import { init, response, result, scriptedQuery } from "../../support/scripted-query.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();
const open: ServedRuns[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

const SECRET = "TOP-SECRET-ssh-key-material";

/** A project with one guarded step run to the end: its record names its check's log. */
async function guardedRun(): Promise<{ root: string; runDir: string; logPath: string }> {
  const root = temp.make("flower-serve-logs-");
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  const runDir = join(workspace, "runs");
  const scripted = scriptedQuery([
    () => [init("s1"), ...response("s1", 5_000), result("s1", { text: "Done." })],
  ]);
  const rt = new Runtime({ workspace, runDir, locale: "en", _internal: { query: scripted.query } });
  try {
    const lead = coordinator("lead", "Goal.", { helper: subagent("Helps.", "Help.") });
    const step = await rt.run("guarded", lead, "Do it.", {
      goal: { checks: [{ command: "echo the-check-ran" }] },
    });
    expect(step.status).toBe("done");
    const logPath = step.guard!.checkRuns[0]!.results[0]!.logPath;
    // Outside the workspace: what a link must not reach.
    writeFileSync(join(root, "secret.txt"), `${SECRET}\n`);
    return { root, runDir, logPath };
  } finally {
    rt.close();
  }
}

async function serve(runDir: string): Promise<ServedRuns> {
  const { source } = openServeSource({ "run-dir": runDir }, "en");
  const served = await serveRuns({ source, port: 0 });
  open.push(served);
  return served;
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const logUrl = (served: ServedRuns, path: string) =>
  `${served.url}runs/guarded/log?path=${encodeURIComponent(path)}`;

describe("flower serve's check logs", () => {
  it("serves the log the record names, as a regular file in its folder", async () => {
    const { runDir, logPath } = await guardedRun();
    const served = await serve(runDir);
    const answer = await get(logUrl(served, logPath));
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("the-check-ran");
  });

  it("does not follow a log replaced by a symbolic link to a file outside the workspace: 404", async () => {
    const { root, runDir, logPath } = await guardedRun();
    rmSync(logPath);
    symlinkSync(join(root, "secret.txt"), logPath);
    const served = await serve(runDir);
    const answer = await get(logUrl(served, logPath));
    expect(answer.status).toBe(404);
    expect(answer.body).toBe("no such log\n");
    expect(answer.body).not.toContain(SECRET);
  });

  it("does not serve a hard link to a file outside, nor a log folder that is a link: 404", async () => {
    const { root, runDir, logPath } = await guardedRun();
    rmSync(logPath);
    linkSync(join(root, "secret.txt"), logPath);
    const served = await serve(runDir);
    const hard = await get(logUrl(served, logPath));
    expect(hard.status).toBe(404);
    expect(hard.body).not.toContain(SECRET);

    // The log's folder swapped for a link to a folder outside holding a file of the log's name.
    const folder = dirname(logPath);
    renameSync(folder, `${folder}.moved`);
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, logPath.slice(folder.length + 1)), `${SECRET}\n`);
    symlinkSync(elsewhere, folder);
    const linked = await get(logUrl(served, logPath));
    expect(linked.status).toBe(404);
    expect(linked.body).not.toContain(SECRET);
  });

  it("serves no path the record does not name, and answers a malformed %-escape with 400", async () => {
    const { root, runDir } = await guardedRun();
    const served = await serve(runDir);
    expect((await get(logUrl(served, join(root, "secret.txt")))).status).toBe(404);
    const malformed = await get(`${served.url}runs/%E0%A4%A/log?path=x`);
    expect(malformed.status).toBe(400);
    expect((await get(`${served.url}runs/%E0%A4%A/report`)).status).toBe(400);
  });
});
