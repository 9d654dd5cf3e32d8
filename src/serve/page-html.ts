/**
 * The page's HTML shell: a table the script fills from the event stream. Everything it loads comes from
 * this server (`/page.css`, `/page.js`), and the Content-Security-Policy header (server.ts) forbids any
 * other host, inline script and frames: the page works offline and cannot be made to call elsewhere.
 */
import type { Locale } from "../locale/locale.js";
import { escapeHtml } from "../report/escape.js";
import { pageWords, SERVE_TEXT } from "./serve-text.js";

/** No script, style, image, font or connection outside this server; no inline script; no framing. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The report pages carry their own CSP meta (inline style only); the header says the same. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

export function pageHtml(locale: Locale): string {
  const text = SERVE_TEXT[locale];
  const columns = text.columns;
  const heads = [
    ["run", columns.run],
    ["status", columns.status],
    ["step", columns.step],
    ["machine", columns.machine],
    ["context", columns.context],
    ["generations", columns.generations],
    ["cost", columns.cost],
    ["checks", columns.checks],
    ["actions", columns.actions],
  ];
  // The words as JSON in a data block: not executed, read by the script. `<` is escaped so no text can
  // close the block.
  const words = JSON.stringify(pageWords(locale)).replace(/</g, "\\u003c");
  return [
    "<!doctype html>",
    `<html lang="${escapeHtml(text.lang)}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(text.title)}</title>`,
    '<link rel="stylesheet" href="/page.css">',
    `<script id="words" type="application/json">${words}</script>`,
    '<script src="/page.js" defer></script>',
    "</head>",
    "<body>",
    `<header><h1>${escapeHtml(text.title)}</h1>`,
    `<p class="where"><span>${escapeHtml(text.source)}</span> <code id="where"></code> <span id="state" class="state"></span></p>`,
    `<p id="message" class="message" role="status"></p></header>`,
    "<main>",
    `<table id="runs"><thead><tr>${heads.map(([key, label]) => `<th data-column="${key}">${escapeHtml(label!)}</th>`).join("")}</tr></thead><tbody></tbody></table>`,
    `<p id="empty" class="empty" hidden>${escapeHtml(text.noRuns)}</p>`,
    `<p id="read-only" class="muted" hidden>${escapeHtml(text.readOnly)}</p>`,
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
