/**
 * One self-contained HTML file for a run: people would rather look at a long run than read it. No
 * server, no network, no script: inline CSS and inline SVG only, and a Content-Security-Policy that
 * forbids loading anything, so the file opens the same from a mail attachment as from the disk.
 */
import { formatTokensShort } from "../handoff/handoff-document-text.js";
import type { Locale } from "../locale/locale.js";
import { activityChart } from "./activity-chart.js";
import { contextChart, contextScale } from "./context-chart.js";
import { escapeHtml } from "./escape.js";
import {
  validateReportInput,
  type ReportCheck,
  type ReportGeneration,
  type ReportInput,
  type ReportStep,
} from "./report-input.js";
import { REPORT_TEXT, type ReportText } from "./report-text.js";
import { REPORT_STYLE } from "./report-style.js";
import { formatCost, runOverview, statusBadge, typedText, verdictBox } from "./run-overview.js";

export interface HtmlReportOptions {
  /** Language of the labels. @default "en" */
  locale?: Locale;
}

export { formatCost };

function stepCost(step: ReportStep): number {
  return step.generations.reduce((sum, generation) => sum + generation.costUsd, 0);
}

function stepHandoffs(step: ReportStep): number {
  return step.generations.filter((generation) => generation.handoff).length;
}

function sum(step: ReportStep, field: "spills" | "denials"): number {
  return step.turns.reduce((total, turn) => total + (turn[field] ?? 0), 0);
}

function formatTime(iso: string): string {
  return new Date(iso).toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

function totals(step: ReportStep, text: ReportText): string {
  const peak = Math.max(0, ...step.turns.map((turn) => turn.context));
  const generations = new Set([
    ...step.turns.map((turn) => turn.generation),
    ...step.generations.map((generation) => generation.generation),
  ]).size;
  const items: Array<[string, string, string]> = [
    ["generations", text.generations, String(generations)],
    ["turns", text.turns, String(step.turns.length)],
    ["cost", text.cost, formatCost(stepCost(step))],
    ...(step.budget
      ? [
          [
            "budget",
            text.budget,
            text.spentOf(formatCost(step.budget.spentUsd), formatCost(step.budget.budgetUsd)),
          ] as [string, string, string],
        ]
      : []),
    ["handoffs", text.handoffs, String(stepHandoffs(step))],
    ["spills", text.spills, String(sum(step, "spills"))],
    ["denials", text.denials, String(sum(step, "denials"))],
    ["peak", text.peak, `${formatTokensShort(peak)} / ${formatTokensShort(step.window)}`],
  ];
  return (
    `<dl class="totals">` +
    items
      .map(
        ([key, label, value]) =>
          `<div data-total="${key}"><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`,
      )
      .join("") +
    `</dl>`
  );
}

/** At most this many files are named in a generation's row; the rest fold under "and N more". */
const FILES_NAMED = 8;

/** The files a generation changed: the first few named, the rest folded (no script: a `<details>`). */
function filesCell(files: readonly string[] | undefined, words: ReportText["generationTable"]): string {
  if (files === undefined) return `<td class="files"></td>`;
  if (files.length === 0)
    return `<td class="files" data-files="0"><span class="muted">${escapeHtml(words.noFiles)}</span></td>`;
  const names = (list: readonly string[]) =>
    list.map((file) => `<code>${escapeHtml(file)}</code>`).join(", ");
  const rest = files.slice(FILES_NAMED);
  return (
    `<td class="files" data-files="${files.length}">${names(files.slice(0, FILES_NAMED))}` +
    (rest.length > 0
      ? ` <details><summary>${escapeHtml(words.moreFiles(rest.length))}</summary>${names(rest)}</details>`
      : "") +
    `</td>`
  );
}

/** The table's rows; a rewound generation's turns are not in the step's series, so it has no peak. */
function generationRows(
  generations: readonly ReportGeneration[],
  step: ReportStep,
  text: ReportText,
  options: { files: boolean; checks: boolean; rewound: boolean },
): string {
  const words = text.generationTable;
  return [...generations]
    .sort((a, b) => a.generation - b.generation)
    .map((generation) => {
      const contexts = options.rewound
        ? []
        : step.turns.filter((turn) => turn.generation === generation.generation).map((turn) => turn.context);
      const peak = contexts.length > 0 ? formatTokensShort(Math.max(...contexts)) : "—";
      const handoff = generation.handoff;
      const ended = handoff ? (handoff.degraded ? words.degraded : words.handoff) : words.running;
      const classes = [...(handoff?.degraded ? ["degraded"] : []), ...(options.rewound ? ["rewound"] : [])];
      return (
        `<tr data-generation="${generation.generation}"${options.rewound ? ' data-rewound="true"' : ""}` +
        `${classes.length > 0 ? ` class="${classes.join(" ")}"` : ""}>` +
        `<td>${generation.generation}</td>` +
        `<td class="number">${generation.numTurns}</td>` +
        `<td class="number">${escapeHtml(formatCost(generation.costUsd))}</td>` +
        `<td class="number">${escapeHtml(peak)}</td>` +
        `<td>${escapeHtml(options.rewound ? `${handoff ? ended : ""}${handoff ? " · " : ""}${words.rewound}` : ended)}</td>` +
        `<td class="path">${handoff?.path ? escapeHtml(handoff.path) : ""}</td>` +
        (options.files ? filesCell(generation.files, words) : "") +
        (options.checks ? checksCell(generation, words) : "") +
        `</tr>`
      );
    })
    .join("");
}

/** Where the run stood at the generation's handoff: the goal's checks run then (the drift watch). */
function checksCell(generation: ReportGeneration, words: ReportText["generationTable"]): string {
  const checks = generation.checks;
  if (!checks) return `<td class="checks"></td>`;
  return (
    `<td class="checks" data-passing="${checks.passing}" data-newly="${checks.newly}">` +
    `${escapeHtml(words.checksCell(checks.passing, checks.total, checks.newly))}</td>`
  );
}

function generationHead(text: ReportText, columns: { files: boolean; checks: boolean }): string {
  const words = text.generationTable;
  const heads = [words.generation, words.turns, words.cost, words.peak, words.ended, words.handoffPath];
  if (columns.files) heads.push(words.files);
  if (columns.checks) heads.push(words.checks);
  return `<thead><tr>${heads.map((head) => `<th>${escapeHtml(head)}</th>`).join("")}</tr></thead>`;
}

/**
 * Cost and turns per generation (with the files each changed, for a run that kept checkpoints, and the
 * goal's checks at each handoff, for a step with a goal); then each rewind's generations, marked as taken
 * back.
 */
function generationTable(step: ReportStep, text: ReportText): string {
  const words = text.generationTable;
  const rewound = step.rewound ?? [];
  const all = [...step.generations, ...rewound.flatMap((entry) => entry.generations)];
  const files = all.some((generation) => generation.files !== undefined);
  const checks = all.some((generation) => generation.checks !== undefined);
  const columns = { files, checks };
  return (
    `<table class="generations"><caption>${escapeHtml(words.caption)}</caption>` +
    generationHead(text, columns) +
    `<tbody>${generationRows(step.generations, step, text, { ...columns, rewound: false })}</tbody></table>` +
    (step.drift
      ? `<p class="note" data-drift="${step.drift.generations.join(",")}">${escapeHtml(
          words.driftPaused(
            step.drift.generations,
            formatTime(step.drift.at),
            step.drift.measures ?? { checks: true, files: true },
          ),
        )}</p>`
      : "") +
    workNotes(step, text) +
    rewound
      .map(
        (entry) =>
          `<table class="generations rewound" data-rewound-to="${entry.to}">` +
          `<caption>${escapeHtml(words.rewoundCaption(formatTime(entry.at), entry.to))}</caption>` +
          generationHead(text, columns) +
          `<tbody>${generationRows(entry.generations, step, text, { ...columns, rewound: true })}</tbody></table>`,
      )
      .join("")
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The files the checkpoints left out, and the checkpoints that failed: said once for the step. */
function workNotes(step: ReportStep, text: ReportText): string {
  const words = text.work;
  const leftOut = step.leftOut ?? [];
  const names = leftOut.map(
    (entry) =>
      `<code>${escapeHtml(entry.path)}</code>${escapeHtml(
        entry.why === "too-large"
          ? words.tooLarge(entry.bytes === undefined ? null : formatSize(entry.bytes))
          : entry.why === "secret"
            ? words.secret(entry.sign)
            : words.nestedRepository,
      )}`,
  );
  return (
    (names.length > 0
      ? `<p class="note" data-work="left-out">${escapeHtml(words.leftOut)} ${names.join(", ")}</p>`
      : "") +
    (step.workWarnings ?? [])
      .map(
        (warning) =>
          `<p class="note" data-work="warning">${escapeHtml(words.warning)} ${escapeHtml(warning)}</p>`,
      )
      .join("")
  );
}

/** A person's messages the step's sessions were given: who, when, which generation, their words. */
function saidList(step: ReportStep, text: ReportText): string {
  const messages = step.messages ?? [];
  if (messages.length === 0) return "";
  return (
    `<h3>${escapeHtml(text.saidTitle)}</h3><ul class="said">` +
    messages
      .map(
        (message) =>
          `<li data-message data-generation="${message.generation}">` +
          `<span class="detail">${escapeHtml(text.said(message.by, formatTime(message.at), message.generation, formatTime(message.given)))}</span> ` +
          `<span class="typed">${escapeHtml(message.text)}</span></li>`,
      )
      .join("") +
    `</ul>`
  );
}

function checkList(checks: readonly ReportCheck[], text: ReportText): string {
  return (
    `<ul class="checks">` +
    checks
      .map(
        (check) =>
          `<li class="${check.passed ? "passed" : "failed"}" data-check="${escapeHtml(check.name)}" data-passed="${check.passed}">` +
          `<span class="mark">${check.passed ? "✓" : "✗"}</span> ${escapeHtml(check.name)}` +
          ` <span class="verdict">${escapeHtml(check.passed ? text.passed : text.failed)}</span>` +
          (check.detail ? ` <span class="detail">${escapeHtml(check.detail)}</span>` : "") +
          `</li>`,
      )
      .join("") +
    `</ul>`
  );
}

function guardTable(step: ReportStep, text: ReportText): string {
  if (!step.guard || step.guard.length === 0) return "";
  const rows = step.guard
    .map(
      (round) =>
        `<tr class="${round.passed ? "passed" : "failed"}" data-round="${round.round}" data-passed="${round.passed}">` +
        `<td>${escapeHtml(text.checkRun(round.round))}</td><td>${escapeHtml(round.verdict)}</td>` +
        `<td>${round.time ? escapeHtml(formatTime(round.time)) : ""}</td>` +
        `<td>${round.checks && round.checks.length > 0 ? checkList(round.checks, text) : ""}</td></tr>`,
    )
    .join("");
  return (
    `<h3>${escapeHtml(text.guardTitle)}</h3><table class="guard">` +
    `<thead><tr><th>${escapeHtml(text.guardRound)}</th><th>${escapeHtml(text.guardVerdict)}</th><th>${escapeHtml(text.guardTime)}</th><th>${escapeHtml(text.guardChecks)}</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>`
  );
}

function caption(step: ReportStep, text: ReportText): string {
  const { top, zoomed } = contextScale(step);
  const window = formatTokensShort(step.window);
  return zoomed ? text.contextCaptionZoomed(formatTokensShort(top), window) : text.contextCaption(window);
}

function stepSection(step: ReportStep, index: number, text: ReportText, inRun: boolean): string {
  const times = step.turns.map((turn) => turn.time).filter((time): time is string => time !== undefined);
  const span =
    times.length >= 2 ? ` ${text.timeSpan(formatTime(times[0]!), formatTime(times.at(-1)!))}.` : "";
  const activity = activityChart(step, text);
  return (
    `<section class="step" id="step-${index + 1}" data-step="${escapeHtml(step.step)}">` +
    `<h2>${escapeHtml(step.step)}${step.status ? ` ${statusBadge(step.status)}` : ""}</h2>` +
    (step.task ? typedText(text.task, step.task, "task") : "") +
    (step.prompt
      ? `<details class="prompt"><summary>${escapeHtml(text.prompt)}</summary><div class="typed">${escapeHtml(step.prompt)}</div></details>`
      : "") +
    // On a run's page the verdict is at the top, with the run's steps.
    (inRun ? "" : verdictBox(step, text)) +
    totals(step, text) +
    `<figure><figcaption><strong>${escapeHtml(text.contextTitle)}</strong> ${escapeHtml(caption(step, text) + span)}</figcaption>` +
    (step.turns.length > 0 ? contextChart(step, text) : `<p class="empty">${escapeHtml(text.noTurns)}</p>`) +
    `</figure>` +
    generationTable(step, text) +
    saidList(step, text) +
    `<figure><figcaption><strong>${escapeHtml(text.activityTitle)}</strong> ${escapeHtml(text.activityCaption)}</figcaption>` +
    (activity ?? `<p class="empty" data-activity="none">${escapeHtml(text.noActivity)}</p>`) +
    `</figure>` +
    guardTable(step, text) +
    (step.checks && step.checks.length > 0
      ? `<h3>${escapeHtml(text.checksTitle)}</h3>${checkList(step.checks, text)}`
      : "") +
    `</section>`
  );
}

/** The whole page. Validates the input first; the error names the bad field. */
export function renderHtmlReport(input: ReportInput, options: HtmlReportOptions = {}): string {
  validateReportInput(input);
  const text = REPORT_TEXT[options.locale ?? "en"];
  const turns = input.steps.reduce((total, step) => total + step.turns.length, 0);
  const cost = input.steps.reduce((total, step) => total + stepCost(step), 0);
  const handoffs = input.steps.reduce((total, step) => total + stepHandoffs(step), 0);
  return [
    "<!doctype html>",
    `<html lang="${text.lang}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Nothing may be fetched: no script, font, image or stylesheet from anywhere.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(input.title)} · flower</title>`,
    `<style>${REPORT_STYLE}</style>`,
    "</head>",
    "<body>",
    `<header><h1>${escapeHtml(input.title)}</h1><p class="summary">${escapeHtml(text.summary(input.steps.length, turns, formatCost(cost), handoffs))}</p></header>`,
    "<main>",
    runOverview(input, text, (step) => step.turns.length),
    ...input.steps.map((step, index) => stepSection(step, index, text, input.run !== undefined)),
    "</main>",
    `<footer>${escapeHtml(text.footer(input.generatedAt ? formatTime(input.generatedAt) : undefined))}</footer>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
