/**
 * Who may act through the page. The page itself is read-only; approve and cancel need the token printed
 * at start, on every request, in a header (a cross-site form cannot set one, and a cross-site script
 * that tries needs a CORS preflight this server never answers). Two more checks close DNS rebinding,
 * where a hostile site's name is pointed at 127.0.0.1 to make the browser treat this server as that
 * site: a request whose Host is not a name this server listens under is refused, and so is a POST whose
 * Origin is not the page's own.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const TOKEN_HEADER = "x-flower-token";

/** 192 random bits, URL-safe: printed once, carried in the URL's fragment (never sent in a request line). */
export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

/** Compares in constant time, so the answer's timing tells nothing about how much of a guess was right. */
export function tokenMatches(expected: string, given: string | string[] | undefined): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK = ["127.0.0.1", "localhost", "[::1]"];
const WILDCARD = ["0.0.0.0", "::", "[::]"];

/**
 * The Host values this server answers to. Bound to a loopback address: the loopback names only, so a
 * rebound name is refused. Bound to a named address: that name too. Bound to every interface: the
 * machine's names are not known here, so any Host is let through and the token alone guards the actions.
 */
export function allowedHosts(host: string, port: number): ReadonlySet<string> | "any" {
  if (WILDCARD.includes(host)) return "any";
  const named = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return new Set([...LOOPBACK, named].map((name) => `${name.toLowerCase()}:${port}`));
}

export function hostAllowed(request: IncomingMessage, allowed: ReadonlySet<string> | "any"): boolean {
  if (allowed === "any") return true;
  const host = request.headers.host?.toLowerCase();
  return host !== undefined && allowed.has(host);
}

/**
 * A browser sends Origin on every POST: it must be this page (`http://<Host>`). A client without one is
 * not a browser, cannot be steered by another site, and still needs the token.
 */
export function originAllowed(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === `http://${request.headers.host ?? ""}`;
}
