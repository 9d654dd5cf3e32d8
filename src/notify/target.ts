/**
 * Where a notification goes, from the one string a person gives (`--notify`, `notify:`): an `http://`
 * or `https://` URL is a webhook (a POST of the JSON); any other text is a shell command. A value with
 * another scheme (`ftp://…`, `mailto:` is text) is refused rather than run as a command: `ftp://host`
 * typed as a URL would otherwise be a shell command that fails at the end of every run.
 */

export type NotifyTarget = { kind: "command"; command: string } | { kind: "webhook"; url: string };

/** What a notify value must be, for the library's ConfigurationError. */
export const NOTIFY_EXPECTED = "a shell command, or an http:// or https:// URL for a webhook";

/** Why a value names no target: empty, another scheme than http(s) (named), or a URL that does not parse. */
export type NotifyRefusal = { refused: "empty" } | { refused: "scheme"; scheme: string } | { refused: "url" };

/** The target a value names, or why it names none. */
export function parseNotifyTarget(value: unknown): NotifyTarget | NotifyRefusal {
  if (typeof value !== "string" || value.trim() === "") return { refused: "empty" };
  const text = value.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: "command", command: text };
  if (scheme !== "http" && scheme !== "https") return { refused: "scheme", scheme };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refused: "url" };
  }
  if (url.hostname === "") return { refused: "url" };
  return { kind: "webhook", url: url.toString() };
}

/**
 * A value as a message may show it: a URL as its scheme and host only (a webhook's address often
 * carries its secret in the path, the query or the user part: Slack's does), a command cut to one line.
 */
export function shownTarget(value: NotifyTarget | string): string {
  if (typeof value === "string") {
    const target = parseNotifyTarget(value);
    if (!("refused" in target)) return shownTarget(target);
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? maskUrl(value.trim()) : cut(value.trim(), 60);
  }
  if (value.kind === "command") return cut(value.command.replace(/\s+/g, " "), 60);
  const url = new URL(value.url);
  const more = url.pathname !== "/" || url.search !== "" || url.hash !== "";
  return `${url.protocol}//${url.host}${more ? "/…" : ""}`;
}

/** A refused URL: its scheme and host (a user and password masked), the rest left out. */
function maskUrl(value: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(?:[^/@?#]*@)?([^/?#]*)(.*)$/i.exec(value);
  if (!match) return cut(value, 60);
  const [, scheme, host, rest] = match;
  const masked = /^[^/?#]*@/.test(value.slice(scheme!.length));
  return cut(`${scheme}${masked ? "***@" : ""}${host}${rest ? "/…" : ""}`, 80);
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}
