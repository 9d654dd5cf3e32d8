/**
 * The top of a run's page (docs/cli.md, "The report"): the task as the person typed it, the steps in order
 * with their status, each frozen document's sections as the steps read them (a section a person changed
 * after the freeze marked, with a note saying who read the change),
 * the goal's checks run by run with a link to each log, and the verdict of a step that ended goal-not-met
 * with the checks that failed and why. The steps' charts and tables follow (html-report.ts).
 */
import { escapeHtml } from "./escape.js";
import type { ReportCheck, ReportGuardRound, ReportInput, ReportRun, ReportStep } from "./report-input.js";
import type { ReportText } from "./report-text.js";

/** Dollars with enough digits for a cheap run: $0.0123, $1.23. */
export function formatCost(usd: number): string {
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** A status word as a badge; its class gives it its colour. */
export function statusBadge(status: string): string {
  return `<span class="status status-${escapeHtml(status.replace(/[^a-z-]/gi, ""))}">${escapeHtml(status)}</span>`;
}

function logLink(check: ReportCheck, label: string): string {
  return check.log ? ` <a class="log" href="${escapeHtml(check.log)}">${escapeHtml(label)}</a>` : "";
}

/** The task (or a prompt) as written: line breaks kept, nothing folded into one paragraph. */
export function typedText(label: string, value: string, klass: string): string {
  return `<div class="${klass}"><span class="label">${escapeHtml(label)}</span><div class="typed">${escapeHtml(value)}</div></div>`;
}

/**
 * A goal-not-met step's verdict: why, and each check that failed in the last run with its reason,
 * the last lines of its output and its log. Empty for any other step.
 */
export function verdictBox(step: ReportStep, text: ReportText): string {
  if (step.status !== "goal-not-met") return "";
  const last: ReportGuardRound | undefined = step.guard?.at(-1);
  const checks = last?.checks ?? [];
  const failing = checks.filter((check) => !check.passed);
  return (
    `<div class="verdict-box" data-verdict="goal-not-met" data-step="${escapeHtml(step.step)}">` +
    `<p><strong>${escapeHtml(text.goalNotMet)}</strong>${step.why ? ` <span class="why">${escapeHtml(step.why)}</span>` : ""}</p>` +
    (failing.length > 0
      ? `<p>${escapeHtml(text.failingChecks(failing.length, checks.length))}</p><ul class="checks failing">` +
        failing
          .map(
            (check) =>
              `<li class="failed" data-check="${escapeHtml(check.name)}"><span class="mark">✗</span> <code>${escapeHtml(check.name)}</code>` +
              (check.detail ? ` — <span class="reason">${escapeHtml(check.detail)}</span>` : "") +
              logLink(check, text.log) +
              (check.tail ? `<pre class="tail">${escapeHtml(check.tail)}</pre>` : "") +
              `</li>`,
          )
          .join("") +
        `</ul>`
      : "") +
    `</div>`
  );
}

/** Each check a row, each run of the checks a column: ✓ or ✗, linked to that run's log. */
function goalChecks(step: ReportStep, text: ReportText): string {
  const runs = step.guard ?? [];
  if (runs.length === 0 || !runs.some((run) => (run.checks ?? []).length > 0)) return "";
  const names = [...new Set(runs.flatMap((run) => (run.checks ?? []).map((check) => check.name)))];
  const head = runs.map((run) => `<th>${escapeHtml(text.checkRun(run.round))}</th>`).join("");
  const rows = names
    .map((name) => {
      const cells = runs
        .map((run, index) => {
          const check = run.checks?.find((candidate) => candidate.name === name);
          if (!check) return `<td></td>`;
          const mark = check.passed ? "✓" : "✗";
          const inner = check.log ? `<a href="${escapeHtml(check.log)}">${mark}</a>` : mark;
          return (
            `<td class="${check.passed ? "passed" : "failed"}" data-run="${index + 1}" data-passed="${check.passed}"` +
            `${check.detail ? ` title="${escapeHtml(check.detail)}"` : ""}>${inner}</td>`
          );
        })
        .join("");
      return `<tr data-check="${escapeHtml(name)}"><th scope="row"><code>${escapeHtml(name)}</code></th>${cells}</tr>`;
    })
    .join("");
  return (
    `<table class="goal-checks" data-step="${escapeHtml(step.step)}"><caption>${escapeHtml(`${text.goalChecksTitle} · ${step.step}`)}</caption>` +
    `<thead><tr><th>${escapeHtml(text.checkColumn)}</th>${head}</tr></thead><tbody>${rows}</tbody></table>`
  );
}

function documents(run: ReportRun, text: ReportText): string {
  if (run.documents.length === 0) return "";
  return (
    `<h2>${escapeHtml(text.documentsTitle)}</h2>` +
    run.documents
      .map(
        (document) =>
          `<section class="document" data-document="${escapeHtml(document.title)}">` +
          `<h3>${escapeHtml(document.title)} <span class="muted">${escapeHtml(text.documentFrozenBy(document.step))}</span></h3>` +
          `<p class="path">${escapeHtml(document.path)}</p>` +
          document.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join("") +
          `<dl class="sections">` +
          document.sections
            .map(
              (section) =>
                (section.changed
                  ? `<div class="changed" data-changed="true"><dt>${escapeHtml(section.label)} <span class="changed-mark">${escapeHtml(text.sectionChanged)}</span></dt>`
                  : `<div><dt>${escapeHtml(section.label)}</dt>`) +
                `<dd class="typed">${escapeHtml(section.text.trim())}</dd></div>`,
            )
            .join("") +
          `</dl></section>`,
      )
      .join("")
  );
}

/** The run's overview; empty when the page draws steps, not a run. */
export function runOverview(
  input: ReportInput,
  text: ReportText,
  turnsOf: (step: ReportStep) => number,
): string {
  const run = input.run;
  if (!run) return "";
  const steps = input.steps
    .map(
      (step, index) =>
        `<li data-step="${escapeHtml(step.step)}" data-status="${escapeHtml(step.status ?? "")}"><a href="#step-${index + 1}">${escapeHtml(step.step)}</a> ` +
        `${step.status ? statusBadge(step.status) : ""} <span class="muted">${escapeHtml(
          `${formatCost(step.generations.reduce((sum, generation) => sum + generation.costUsd, 0))} · ${turnsOf(step)} ${text.turns}`,
        )}</span></li>`,
    )
    .join("");
  return (
    `<section class="run" data-run="${escapeHtml(run.id)}">` +
    typedText(text.task, run.task, "task") +
    `<h2>${escapeHtml(text.stepsTitle)} ${statusBadge(run.status)}</h2><ol class="run-steps">${steps}</ol>` +
    input.steps.map((step) => verdictBox(step, text)).join("") +
    documents(run, text) +
    input.steps.map((step) => goalChecks(step, text)).join("") +
    `</section>`
  );
}
