/**
 * `serveRuns` on a real port: read-only by default, every action refused without the right token (and
 * nothing changed), a foreign Host or Origin refused, bound to 127.0.0.1 unless told otherwise, and the
 * event stream sending a snapshot at once and another when a run changes. The source is an in-memory
 * list the test changes; the browser test (test/e2e/cli/serve-browser.test.ts) drives real runs.
 */
import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { serveRuns, type RunRow, type RunSource, type ServedRuns } from "../../../src/serve/index.js";

function row(name: string, context: number, status = "running"): RunRow {
  return {
    name,
    status,
    step: "work",
    machine: "pid 1@here",
    gauge: { context, window: 200_000, at: 180_000, warnAt: 150_000 },
    generations: 1,
    costUsd: 0.01,
    checks: [{ name: "npm test", passed: false }],
    documents: ["requirements", "goal"],
    task: "<script>alert(1)</script>",
    updatedAt: new Date(0).toISOString(),
    report: true,
    can: { approve: status === "paused", cancel: true },
  };
}

/** A source whose rows the test sets; counts what the actions did. */
function memorySource(rows: RunRow[]) {
  const done: string[] = [];
  const source: RunSource & { rows: RunRow[]; closed: boolean } = {
    where: "memory",
    rows,
    closed: false,
    runs: async () => source.rows,
    report: async (name) =>
      source.rows.some((run) => run.name === name) ? `<p>report of ${name}</p>` : null,
    log: async (name, path) => (name === "a" && path === "/logs/check-1.log" ? "exit 1\n" : null),
    close: async () => {
      source.closed = true;
    },
  };
  const actions = {
    approve: async (name: string) => void done.push(`approve ${name}`),
    cancel: async (name: string) => void done.push(`cancel ${name}`),
  };
  return { source, actions, done };
}

const open: ServedRuns[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

async function serve(options: Partial<Parameters<typeof serveRuns>[0]> & { source: RunSource }) {
  const served = await serveRuns({ port: 0, intervalMs: 50, ...options });
  open.push(served);
  return served;
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function call(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time (no keep-alive): a call after close() must find nothing listening.
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers ?? {}, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Reads `count` `runs` events off /events (fewer when the server ends the stream first). */
function events(url: string, count: number, onFirst?: () => void): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const seen: unknown[] = [];
    const req = request(`${url}events`, (res) => {
      expect(res.headers["content-type"]).toContain("text/event-stream");
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^event: runs\ndata: (.*)$/s.exec(frame)?.[1];
          if (data === undefined) continue;
          seen.push(JSON.parse(data));
          if (seen.length === 1) onFirst?.();
          if (seen.length === count) {
            req.destroy();
            resolve(seen);
          }
        }
      });
    });
    req.on("error", reject);
    req.on("response", (res) => res.on("end", () => resolve(seen)));
    req.end();
  });
}

describe("serveRuns", () => {
  it("listens on 127.0.0.1 by default and not on the machine's other addresses", async () => {
    const { source } = memorySource([row("a", 1000)]);
    const served = await serve({ source });
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(served.token).toBeNull();
    const port = new URL(served.url).port;
    const other = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal);
    if (other) await expect(call(`http://${other.address}:${port}/`)).rejects.toThrow(/ECONNREFUSED/);
    const page = await call(served.url);
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
  });

  it("is read-only by default: an action is refused with 403 whatever token it carries", async () => {
    const { source } = memorySource([row("a", 1000)]);
    const served = await serve({ source });
    for (const headers of [{}, { "x-flower-token": "x".repeat(32) }] as Array<Record<string, string>>) {
      const refused = await call(`${served.url}runs/a/cancel`, { method: "POST", headers });
      expect(refused.status).toBe(403);
      expect(refused.body).toContain("--allow-actions");
    }
  });

  it("with allowActions: 403 without the token or with a wrong one, and nothing is done; 200 with it", async () => {
    const { source, actions, done } = memorySource([row("a", 1000, "paused")]);
    const served = await serve({ source, actions, allowActions: true });
    const token = served.token!;
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(served.actionsUrl).toBe(`${served.url}#token=${token}`);
    const tries: Array<Record<string, string>> = [
      {},
      { "x-flower-token": "" },
      { "x-flower-token": `${token.slice(0, -1)}x` },
      { "x-flower-token": token.slice(0, -1) },
      // The token in the wrong place (a query string is no header) is no token.
      { cookie: `token=${token}` },
      // The right token from another site's page (DNS rebinding or a cross-site fetch).
      { "x-flower-token": token, origin: "http://evil.example" },
    ];
    for (const headers of tries) {
      for (const action of ["approve", "cancel"]) {
        const refused = await call(`${served.url}runs/a/${action}?token=${token}`, {
          method: "POST",
          headers,
        });
        expect(refused.status, JSON.stringify(headers)).toBe(403);
      }
    }
    expect(done).toEqual([]);
    const host = new URL(served.url).host;
    const approved = await call(`${served.url}runs/a/approve`, {
      method: "POST",
      headers: { "x-flower-token": token, origin: `http://${host}` },
    });
    expect(approved.status).toBe(200);
    expect(done).toEqual(["approve a"]);
  });

  it("answers no request under a name it does not listen as (DNS rebinding)", async () => {
    const { source } = memorySource([row("a", 1000)]);
    const served = await serve({ source });
    for (const path of ["", "api/runs", "runs/a/report", "events"]) {
      const refused = await call(`${served.url}${path}`, { headers: { host: "evil.example" } });
      expect(refused.status).toBe(421);
      expect(refused.body).not.toContain("report of");
    }
    const localhost = await call(`${served.url}api/runs`, {
      headers: { host: `localhost:${new URL(served.url).port}` },
    });
    expect(localhost.status).toBe(200);
  });

  it("sends a snapshot at once and another when a run's gauge changes", async () => {
    const { source } = memorySource([row("a", 1000), row("b", 5000, "done")]);
    const served = await serve({ source });
    const [first, second] = (await events(served.url, 2, () => {
      source.rows = [row("a", 2500), row("b", 5000, "done")];
    })) as Array<{ where: string; actions: boolean; runs: RunRow[] }>;
    expect(first!.where).toBe("memory");
    expect(first!.actions).toBe(false);
    expect(first!.runs.map((run) => [run.name, run.gauge?.context])).toEqual([
      ["a", 1000],
      ["b", 5000],
    ]);
    expect(second!.runs[0]!.gauge?.context).toBe(2500);
    const once = JSON.parse((await call(`${served.url}api/runs`)).body) as { runs: RunRow[] };
    expect(once.runs[0]!.gauge?.context).toBe(2500);
  });

  it("serves a run's report and the logs it names, 404 for anything else; close() ends streams and closes the source", async () => {
    const { source } = memorySource([row("a", 1000)]);
    const served = await serveRuns({ source, port: 0 });
    expect((await call(`${served.url}runs/a/report`)).body).toBe("<p>report of a</p>");
    expect((await call(`${served.url}runs/zz/report`)).status).toBe(404);
    expect((await call(`${served.url}runs/a/log?path=%2Flogs%2Fcheck-1.log`)).body).toBe("exit 1\n");
    expect((await call(`${served.url}runs/a/log?path=%2Fetc%2Fpasswd`)).status).toBe(404);
    let closed: Promise<void> | undefined;
    // Closed after the first snapshot: the stream ends there, with no second one.
    const seen = await events(served.url, 2, () => {
      closed = served.close();
    });
    await closed;
    expect(seen).toHaveLength(1);
    expect(source.closed).toBe(true);
    await expect(call(served.url)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("refuses bad options naming the option and the value", async () => {
    const { source, actions } = memorySource([]);
    await expect(serveRuns({ source, port: 70_000 })).rejects.toThrow(ConfigurationError);
    await expect(serveRuns({ source, port: -1 })).rejects.toThrow(/port: got -1/);
    await expect(serveRuns({ source, host: " " })).rejects.toThrow(/host/);
    await expect(serveRuns({ source, allowActions: true })).rejects.toThrow(/actions/);
    await expect(serveRuns({ source, actions, locale: "fr" as "en" })).rejects.toThrow(/locale: got "fr"/);
    // A misspelt option is refused, not served read-only without a word.
    await expect(serveRuns({ source, actions, allowActons: true } as never)).rejects.toThrow(
      /Invalid option allowActons: got true, expected a known option/,
    );
  });

  it("answers a malformed %-escape in a run's name with 400, reading and changing nothing", async () => {
    const { source, actions, done } = memorySource([row("a", 1000, "paused")]);
    const asked: string[] = [];
    source.report = async (name) => (asked.push(name), null);
    source.log = async (name) => (asked.push(name), null);
    const served = await serve({ source, actions, allowActions: true });
    const headers = { "x-flower-token": served.token!, origin: `http://${new URL(served.url).host}` };
    for (const path of [
      "runs/%E0%A4%A/report",
      "runs/%E0%A4%A/log?path=%2Flogs%2Fcheck-1.log",
      "runs/%ZZ/report",
    ]) {
      const answer = await call(`${served.url}${path}`);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toBe("malformed %-escape in the URL\n");
    }
    for (const action of ["approve", "cancel"]) {
      const answer = await call(`${served.url}runs/%E0%A4%A/${action}`, { method: "POST", headers });
      expect(answer.status).toBe(400);
    }
    expect(asked).toEqual([]);
    expect(done).toEqual([]);
    // A well-formed escape still reaches the source, decoded.
    expect((await call(`${served.url}runs/%E0%A4%A4/report`)).status).toBe(404);
    expect(asked).toEqual(["\u0924"]);
  });
});
