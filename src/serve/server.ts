/**
 * `serveRuns`: one local page of every run, live. A plain node:http server (no framework: five routes)
 *
 *   GET  /                  the page (page-html.ts), its /page.css and /page.js
 *   GET  /events            server-sent events: a snapshot of the runs whenever it changes (live-feed.ts)
 *   GET  /api/runs          the same snapshot once, as JSON
 *   GET  /runs/<run>/report the run's whole report page (the one `flower report` writes)
 *   GET  /runs/<run>/log?path=…  a check's log the report links to (only a file the run's records name)
 *   POST /runs/<run>/approve | /cancel   only with allowActions, and only with the token (access.ts)
 *   POST /runs/<run>/say    the same, with `{ "text": "…" }`: a person's message to the run (flower say)
 *
 * Read-only unless told otherwise, bound to 127.0.0.1 unless told otherwise.
 */
import { typed } from "../locale/invocation.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { allowedHosts, hostAllowed, newToken, originAllowed, TOKEN_HEADER, tokenMatches } from "./access.js";
import { LiveFeed } from "./live-feed.js";
import { PAGE_CSP, pageHtml, REPORT_CSP } from "./page-html.js";
import { PAGE_SCRIPT } from "./page-script.js";
import { PAGE_STYLE } from "./page-style.js";
import { resolveServeOptions, type ServeOptions } from "./serve-options.js";

export interface ServedRuns {
  /** The page's address (`http://127.0.0.1:7733/`). */
  url: string;
  /** The page with the token in its fragment (with allowActions): the one line to open to act. */
  actionsUrl: string | null;
  /** The token every action request must carry (`x-flower-token`); null when read-only. */
  token: string | null;
  /** Ends every open page's stream, stops listening, closes the source. */
  close(): Promise<void>;
}

export async function serveRuns(options: ServeOptions): Promise<ServedRuns> {
  const resolved = resolveServeOptions(options);
  const { source, actions, allowActions, locale } = resolved;
  const token = allowActions ? (resolved.token ?? newToken()) : null;
  const feed = new LiveFeed(source, { actions: allowActions, intervalMs: resolved.intervalMs });
  const page = pageHtml(locale);
  let hosts: ReturnType<typeof allowedHosts> = new Set();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    // DNS rebinding: a page under another name reaching this server reads nothing and does nothing.
    if (!hostAllowed(request, hosts)) return reply(response, 421, "text/plain", "unknown host name\n");
    const url = parsedUrl(request.url ?? "/");
    if (url === null) return reply(response, 400, "text/plain", "malformed URL\n");
    const path = url.pathname;
    const method = request.method ?? "GET";
    const runRoute = /^\/runs\/([^/]+)\/(report|log|approve|cancel|say)$/.exec(path);
    // A malformed %-escape (`/runs/%E0%A4%A/report`) is the request's fault: 400, not a 500.
    const name = runRoute ? decoded(runRoute[1]!) : null;
    if (runRoute && name === null)
      return reply(response, 400, "text/plain", "malformed %-escape in the URL\n");
    if (runRoute && method === "POST") {
      const action = runRoute[2] as "approve" | "cancel" | "say" | "report" | "log";
      if (action === "report" || action === "log") return reply(response, 405, "text/plain", "GET only\n");
      // Every check before anything is read or changed; each refusal changes nothing.
      if (!allowActions || !actions || token === null)
        return reply(response, 403, "text/plain", `actions are off (${typed("serve --allow-actions")})\n`);
      if (!originAllowed(request)) return reply(response, 403, "text/plain", "foreign origin\n");
      if (!tokenMatches(token, request.headers[TOKEN_HEADER]))
        return reply(response, 403, "text/plain", "missing or wrong token\n");
      let text: string | null = null;
      if (action === "say") {
        if (!actions.say) return reply(response, 403, "text/plain", "no messages from this page\n");
        text = await sayText(request);
        if (text === null)
          return reply(response, 400, "text/plain", 'a JSON body { "text": "…" } with something to say\n');
      }
      try {
        if (action === "say") await actions.say!(name!, text!);
        else await actions[action](name!);
      } catch (error) {
        return reply(response, 409, "text/plain", `${error instanceof Error ? error.message : error}\n`);
      }
      await feed.refresh();
      return reply(response, 200, "text/plain", "ok\n");
    }
    if (method !== "GET" && method !== "HEAD")
      return reply(response, 405, "text/plain", "method not allowed\n");
    if (path === "/") return reply(response, 200, "text/html", page, PAGE_CSP);
    if (path === "/page.js") return reply(response, 200, "text/javascript", PAGE_SCRIPT);
    if (path === "/page.css") return reply(response, 200, "text/css", PAGE_STYLE);
    // The browser asks for an icon by itself: none, rather than a 404 in its console.
    if (path === "/favicon.ico") return reply(response, 204, "image/x-icon", "");
    if (path === "/events") return feed.attach(response);
    if (path === "/api/runs") return reply(response, 200, "application/json", await feed.snapshot());
    if (runRoute?.[2] === "report") {
      const html = await source.report(name!);
      if (html === null) return reply(response, 404, "text/plain", "no such run\n");
      return reply(response, 200, "text/html", html, REPORT_CSP);
    }
    if (runRoute?.[2] === "log") {
      const file = url.searchParams.get("path");
      const text = file && source.log ? await source.log(name!, file) : null;
      if (text === null) return reply(response, 404, "text/plain", "no such log\n");
      return reply(response, 200, "text/plain", text);
    }
    return reply(response, 404, "text/plain", "not found\n");
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return response.end();
      reply(response, 500, "text/plain", `${error instanceof Error ? error.message : error}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(resolved.host, port);
  const shown = ["0.0.0.0", "::", "[::]"].includes(resolved.host) ? "127.0.0.1" : resolved.host;
  const url = `http://${shown.includes(":") && !shown.startsWith("[") ? `[${shown}]` : shown}:${port}/`;
  let closing: Promise<void> | null = null;
  return {
    url,
    actionsUrl: token === null ? null : `${url}#token=${token}`,
    token,
    close: () =>
      (closing ??= (async () => {
        feed.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await source.close();
      })()),
  };
}

/** The most a message's body may be: a person's words, not a file. */
const SAY_BODY_BYTES = 64 * 1024;

/** The text of a `say` request's JSON body; null when it is too long, not JSON, or says nothing. */
async function sayText(request: IncomingMessage): Promise<string | null> {
  let body = "";
  for await (const chunk of request as AsyncIterable<Buffer>) {
    body += chunk.toString("utf8");
    if (body.length > SAY_BODY_BYTES) return null;
  }
  try {
    const parsed = JSON.parse(body) as { text?: unknown };
    return typeof parsed.text === "string" && parsed.text.trim() !== "" ? parsed.text : null;
  } catch {
    return null;
  }
}

/** The request's URL; null when it cannot be parsed (the request's fault: 400). */
function parsedUrl(target: string): URL | null {
  try {
    return new URL(target, "http://localhost");
  } catch {
    return null;
  }
}

/** A path segment's %-escapes decoded; null when one is malformed. */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function reply(response: ServerResponse, status: number, type: string, body: string, csp?: string): void {
  response.writeHead(status, {
    "content-type": `${type}; charset=utf-8`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    ...(csp ? { "content-security-policy": csp } : {}),
  });
  response.end(body);
}
