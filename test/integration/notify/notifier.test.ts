/**
 * The Notifier with real child processes and a real HTTP server: a command gets the JSON on stdin and
 * in FLOWER_NOTIFY_* variables; a webhook gets it as a POST; a failure of any kind (exit code, HTTP 500,
 * a refused connection, no answer in time) never rejects and is said once for the run, however many
 * notifications fail; a command that hangs is ended with everything it started.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { groupAlive } from "../../../src/goal/process-group.js";
import { Notifier, type Notification } from "../../../src/notify/index.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const NOTICE: Omit<Notification, "at"> = {
  event: "paused",
  run: "fix-the-clock",
  step: "requirements",
  status: "paused",
  why: "paused after requirements for you to read runs/需求-fix.md (1 open question), then go on",
  continue: "flower continue fix-the-clock",
};

/** A notifier whose failures are collected. */
function notifier(targets: ConstructorParameters<typeof Notifier>[0], timeoutMs?: number) {
  const failures: string[] = [];
  const made = new Notifier(targets, {
    locale: "en",
    onFailure: (line) => failures.push(line),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  return { notifier: made, failures };
}

/** An HTTP server on port 0 that answers each request with `handle`; its requests' bodies are kept. */
async function receiver(
  handle: (request: IncomingMessage, response: ServerResponse, body: string) => void,
): Promise<{ url: string; bodies: { headers: IncomingMessage["headers"]; body: string }[] }> {
  const bodies: { headers: IncomingMessage["headers"]; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      bodies.push({ headers: request.headers, body });
      handle(request, response, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook/SECRET`, bodies };
}

describe("a command notifier", () => {
  it("gets the JSON on stdin and each field in FLOWER_NOTIFY_*; exit 0 is no failure", async () => {
    const dir = temp.make("flower-notify-");
    const out = join(dir, "got.txt");
    const { notifier: told, failures } = notifier([
      {
        kind: "command",
        command: `cat > ${out}.json; printf '%s|%s|%s|%s' "$FLOWER_NOTIFY_EVENT" "$FLOWER_NOTIFY_RUN" "$FLOWER_NOTIFY_STEP" "$FLOWER_NOTIFY_CONTINUE" > ${out}`,
      },
    ]);
    await told.send(NOTICE);
    expect(failures).toEqual([]);
    const payload = JSON.parse(readFileSync(`${out}.json`, "utf8")) as Notification;
    expect(Object.keys(payload)).toEqual(["event", "run", "step", "status", "why", "continue", "at"]);
    expect(payload).toMatchObject(NOTICE);
    expect(new Date(payload.at).toISOString()).toBe(payload.at);
    expect(readFileSync(out, "utf8")).toBe("paused|fix-the-clock|requirements|flower continue fix-the-clock");
  });

  it("that exits 1 on every notification is said once, with its last stderr line", async () => {
    const { notifier: told, failures } = notifier([
      { kind: "command", command: "echo 'hook: no route to chat' >&2; exit 1" },
    ]);
    await told.send(NOTICE);
    await told.send({ ...NOTICE, event: "done", status: "done", continue: null });
    expect(failures).toEqual([
      "flower: notifying echo 'hook: no route to chat' >&2; exit 1 failed (exit code 1: hook: no route to chat); the run is not affected",
    ]);
  });

  it("that hangs is ended at the time limit with what it started, and said once", async () => {
    const dir = temp.make("flower-notify-hang-");
    const pidFile = join(dir, "group");
    const endedFile = join(dir, "ended");
    // The shell and a background sleep in one group: both must go. Told to end, the shell notes it.
    const { notifier: told, failures } = notifier(
      [
        {
          kind: "command",
          command: `trap 'echo TERM > ${endedFile}; exit 143' TERM; sleep 60 & echo $$ > ${pidFile}; wait`,
        },
      ],
      500,
    );
    await told.send(NOTICE);
    // Ended by the notifier (the sleep would have run a minute), not a duration: a busy machine stretches those.
    expect(readFileSync(endedFile, "utf8")).toBe("TERM\n");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(
      /^flower: notifying trap .*… failed \(no answer within 0\.5 s, ended\); the run is not affected$/,
    );
    const group = Number(readFileSync(pidFile, "utf8"));
    expect(groupAlive(group)).toBe(false);
  });

  it("gets a long why cut to 1,000 characters, in the JSON and the variable alike", async () => {
    const dir = temp.make("flower-notify-long-");
    const out = join(dir, "why");
    const { notifier: told, failures } = notifier([
      { kind: "command", command: `printf '%s' "$FLOWER_NOTIFY_WHY" > ${out}; cat > ${out}.json` },
      // A command that reads nothing of its stdin is no failure either.
      { kind: "command", command: "true" },
    ]);
    await told.send({ ...NOTICE, why: "x".repeat(200_000) });
    expect(failures).toEqual([]);
    const why = readFileSync(out, "utf8");
    expect(why).toBe(`${"x".repeat(999)}…`);
    expect((JSON.parse(readFileSync(`${out}.json`, "utf8")) as Notification).why).toBe(why);
  });
});

describe("a webhook notifier", () => {
  it("gets one POST of the JSON", async () => {
    const hook = await receiver((_request, response) => response.writeHead(204).end());
    const { notifier: told, failures } = notifier([{ kind: "webhook", url: hook.url }]);
    await told.send(NOTICE);
    expect(failures).toEqual([]);
    expect(hook.bodies).toHaveLength(1);
    expect(hook.bodies[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(hook.bodies[0]!.body)).toMatchObject(NOTICE);
  });

  it("answering 500 is said once, its address without the path that holds the secret", async () => {
    const hook = await receiver((_request, response) => response.writeHead(500).end("boom"));
    const { notifier: told, failures } = notifier([{ kind: "webhook", url: hook.url }]);
    await told.send(NOTICE);
    await told.send(NOTICE);
    expect(hook.bodies).toHaveLength(2);
    const host = new URL(hook.url).host;
    expect(failures).toEqual([
      `flower: notifying http://${host}/… failed (HTTP 500); the run is not affected`,
    ]);
  });

  it("that refuses the connection, or never answers, is said once", async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const silent = await receiver(() => undefined);
    const refused = notifier([{ kind: "webhook", url: `http://127.0.0.1:${port}/` }], 2_000);
    await refused.notifier.send(NOTICE);
    expect(refused.failures).toEqual([
      `flower: notifying http://127.0.0.1:${port} failed (not reached: ECONNREFUSED); the run is not affected`,
    ]);
    const hung = notifier([{ kind: "webhook", url: silent.url }], 400);
    // It returns (the receiver never answers), with the reason it gave up.
    await hung.notifier.send(NOTICE);
    expect(hung.failures).toEqual([
      `flower: notifying http://${new URL(silent.url).host}/… failed (no answer within 0.4 s, ended); the run is not affected`,
    ]);
  });
});

describe("two targets", () => {
  it("both are told; one failing is said once, the other still gets every notification", async () => {
    const dir = temp.make("flower-notify-two-");
    const out = join(dir, "events");
    writeFileSync(out, "");
    const hook = await receiver((_request, response) => response.writeHead(500).end());
    const { notifier: told, failures } = notifier([
      { kind: "command", command: `printf '%s\\n' "$FLOWER_NOTIFY_EVENT" >> ${out}` },
      { kind: "webhook", url: hook.url },
    ]);
    await told.send(NOTICE);
    await told.send({ ...NOTICE, event: "done", status: "done", continue: null });
    expect(readFileSync(out, "utf8")).toBe("paused\ndone\n");
    expect(hook.bodies.map((one) => (JSON.parse(one.body) as Notification).event)).toEqual([
      "paused",
      "done",
    ]);
    expect(failures).toHaveLength(1);
    expect(existsSync(out)).toBe(true);
  });
});
