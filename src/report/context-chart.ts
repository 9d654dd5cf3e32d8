/**
 * The main chart: the main thread's context per turn across generations, as inline SVG. The `at` and
 * `warnAt` lines are drawn across it, generations are shaded bands, and each handoff is a vertical
 * marker. Every point, line and marker carries data attributes (`data-turn`, `data-context`,
 * `data-line`, `data-handoff`) so a test, or a person with the inspector, can read the numbers back.
 */
import { formatTokens, formatTokensShort } from "../handoff/handoff-document-text.js";
import { escapeHtml } from "./escape.js";
import type { ReportStep } from "./report-input.js";
import type { ReportText } from "./report-text.js";

/** Fixed drawing size; the SVG scales to the page width through its viewBox. */
export const CHART = { width: 960, height: 320, left: 64, right: 132, top: 28, bottom: 40 } as const;

/** The x scale shared by the context chart and the activity chart: turn index → centre of its slot. */
export function turnX(index: number, turns: number): number {
  const plot = CHART.width - CHART.left - CHART.right;
  return CHART.left + ((index + 0.5) * plot) / Math.max(1, turns);
}

/** The x of the boundary after turn `index` (between it and the next one). */
function boundaryX(index: number, turns: number): number {
  const plot = CHART.width - CHART.left - CHART.right;
  return CHART.left + ((index + 1) * plot) / Math.max(1, turns);
}

function round(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}

/** Turn-number ticks: about eight, on round steps. */
export function turnTicks(turns: number): number[] {
  const rough = turns / 8;
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(1, rough)));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough) ?? 1;
  const ticks: number[] = [];
  for (let turn = step; turn <= turns; turn += step) ticks.push(turn);
  if (ticks[0] !== 1) ticks.unshift(1);
  return ticks;
}

/** Index ranges of consecutive turns in one generation. */
export function generationSpans(
  step: ReportStep,
): Array<{ generation: number; first: number; last: number }> {
  const spans: Array<{ generation: number; first: number; last: number }> = [];
  step.turns.forEach((turn, index) => {
    const span = spans.at(-1);
    if (span && span.generation === turn.generation) span.last = index;
    else spans.push({ generation: turn.generation, first: index, last: index });
  });
  return spans;
}

function formatTime(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  return new Date(iso).toISOString().replace("T", " ").slice(0, 19);
}

/** Space one label line takes, in viewBox units, so two labels never touch. */
const LABEL_GAP = 15;

/**
 * Rough width of a label in viewBox units at the chart's 12px font: CJK characters are about a font
 * size wide, others about 0.6 of it. Only used to keep labels apart, so it errs wide.
 */
export function labelWidth(label: string): number {
  let width = 0;
  for (const char of label) width += char.codePointAt(0)! >= 0x2e80 ? 12.5 : 7.5;
  return width;
}

/** A round number at or just above `value` (1, 2, 2.5, 5 × 10^k), for a zoomed scale's top. */
export function roundUp(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(1, value)));
  return [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((top) => top >= value) ?? value;
}

/**
 * The scale's top: the window, unless the data stays far below the lines (under half the warning
 * line): then the scale zooms to the data, and the lines above it are named at the top edge instead.
 */
export function contextScale(step: ReportStep): { top: number; zoomed: boolean } {
  const peak = Math.max(0, ...step.turns.map((turn) => turn.context));
  const full = Math.max(step.window, peak, step.at, step.warnAt);
  if (peak === 0 || peak * 2 > Math.min(step.warnAt, step.at)) return { top: full, zoomed: false };
  return { top: roundUp(peak * 1.25), zoomed: true };
}

/**
 * Moves labels at the same x apart: each keeps its wanted y unless it would come closer than a line to
 * the one above it; the stack then moves up as a whole if it runs past `bottom`.
 */
export function spreadLabels(wanted: readonly number[], top: number, bottom: number): number[] {
  const order = wanted.map((y, index) => ({ y, index })).sort((a, b) => a.y - b.y || a.index - b.index);
  let previous = -Infinity;
  for (const label of order) {
    label.y = Math.max(label.y, top, previous + LABEL_GAP);
    previous = label.y;
  }
  const over = (order.at(-1)?.y ?? bottom) - bottom;
  if (over > 0) for (const label of order) label.y -= over;
  const placed: number[] = [];
  for (const label of order) placed[label.index] = label.y;
  return placed;
}

export function contextChart(step: ReportStep, text: ReportText): string {
  const n = step.turns.length;
  const { top, zoomed } = contextScale(step);
  const bottomY = CHART.height - CHART.bottom;
  const y = (tokens: number) => bottomY - (tokens / top) * (bottomY - CHART.top);
  const right = CHART.width - CHART.right;
  const parts: string[] = [];

  // Generation bands, so a generation reads as one stretch even where its points are sparse. A label
  // that would touch the one before it is left out (the band and the table still say which it is).
  let labelEnd = -Infinity;
  for (const span of generationSpans(step)) {
    const x0 = span.first === 0 ? CHART.left : boundaryX(span.first - 1, n);
    const x1 = boundaryX(span.last, n);
    parts.push(
      `<rect class="generation-band ${span.generation % 2 === 0 ? "even" : "odd"}" data-generation="${span.generation}" x="${round(x0)}" y="${CHART.top}" width="${round(x1 - x0)}" height="${bottomY - CHART.top}"/>`,
    );
    const label = text.generationBand(span.generation);
    const half = labelWidth(label) / 2;
    const centre = Math.min(right - half, Math.max(CHART.left + half, (x0 + x1) / 2));
    if (centre - half < labelEnd + 6) continue;
    labelEnd = centre + half;
    parts.push(
      `<text class="generation-label" x="${round(centre)}" y="${CHART.top - 8}" text-anchor="middle">${escapeHtml(label)}</text>`,
    );
  }

  // Y grid: quarters of the scale.
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    const tokens = top * fraction;
    const gy = round(y(tokens));
    parts.push(
      `<line class="grid" x1="${CHART.left}" x2="${right}" y1="${gy}" y2="${gy}"/>`,
      `<text class="axis-label" x="${CHART.left - 8}" y="${gy}" text-anchor="end" dominant-baseline="middle">${escapeHtml(formatTokensShort(tokens))}</text>`,
    );
  }

  // X ticks: turn numbers.
  for (const turn of n > 0 ? turnTicks(n) : []) {
    parts.push(
      `<text class="axis-label" x="${round(turnX(turn - 1, n))}" y="${bottomY + 18}" text-anchor="middle">${turn}</text>`,
    );
  }
  parts.push(
    `<text class="axis-title" x="${right}" y="${bottomY + 34}" text-anchor="end">${escapeHtml(text.turnAxis)}</text>`,
  );

  // The two thresholds, labelled at the right edge; a line above a zoomed scale is only named, at the
  // top edge with an arrow. Labels that would sit on each other are moved apart.
  const thresholds = [
    ["at", step.at, text.atLine(formatTokensShort(step.at)), "at-line"],
    ["warnAt", step.warnAt, text.warnLine(formatTokensShort(step.warnAt)), "warn-line"],
  ] as const;
  const wanted = thresholds.map(([, tokens]) => (tokens > top ? CHART.top : y(tokens)));
  const placed = spreadLabels(wanted, CHART.top, bottomY);
  const lines: string[] = [];
  const labels: string[] = [];
  thresholds.forEach(([name, tokens, label, klass], index) => {
    const above = tokens > top;
    if (!above) {
      const ly = round(y(tokens));
      lines.push(
        `<line class="threshold ${klass}" data-line="${name}" data-value="${tokens}" x1="${CHART.left}" x2="${right}" y1="${ly}" y2="${ly}"/>`,
      );
    }
    labels.push(
      `<text class="threshold-label ${klass}" data-label="${name}"${above ? ' data-above="true"' : ""} x="${right + 6}" y="${round(placed[index]!)}" dominant-baseline="middle">${escapeHtml(above ? `↑ ${label}` : label)}</text>`,
    );
  });
  // The warning line first, as before: it is drawn under the handoff line.
  parts.push(...lines.reverse(), ...labels.reverse());

  // One polyline per generation: a handoff starts the context over, so the line must not join them.
  for (const span of generationSpans(step)) {
    const points = step.turns
      .slice(span.first, span.last + 1)
      .map((turn, offset) => `${round(turnX(span.first + offset, n))},${round(y(turn.context))}`)
      .join(" ");
    parts.push(`<polyline class="context-line" data-generation="${span.generation}" points="${points}"/>`);
  }

  // Handoff markers after the last turn of each generation that handed off.
  const handoffs = step.generations.filter((generation) => generation.handoff);
  let markerText = -Infinity;
  for (const generation of handoffs) {
    let last = -1;
    step.turns.forEach((turn, index) => {
      if (turn.generation <= generation.generation) last = index;
    });
    const mx = round(last < 0 ? CHART.left : boundaryX(last, n));
    const degraded = generation.handoff!.degraded;
    // A marker right after another one keeps its line and tooltip but not its rotated label.
    const labelled = Number(mx) - markerText >= LABEL_GAP;
    if (labelled) markerText = Number(mx);
    parts.push(
      `<g class="handoff${degraded ? " degraded" : ""}" data-handoff="${generation.generation}" data-degraded="${degraded}">` +
        `<line x1="${mx}" x2="${mx}" y1="${CHART.top}" y2="${bottomY}"/>` +
        (labelled
          ? `<text x="${mx}" y="${bottomY - 6}" transform="rotate(-90 ${mx} ${bottomY - 6})" dx="4" dy="-4">${escapeHtml(text.handoffMarker(generation.generation, degraded))}</text>`
          : "") +
        `<title>${escapeHtml(generation.handoff!.path ?? text.handoffMarker(generation.generation, degraded))}</title>` +
        `</g>`,
    );
  }

  // The points last, on top. Past `at` is red, past `warnAt` amber.
  step.turns.forEach((turn, index) => {
    const level = turn.context >= step.at ? "over-at" : turn.context >= step.warnAt ? "over-warn" : "under";
    const title = text.pointTitle(
      index + 1,
      turn.generation,
      formatTokens(turn.context),
      formatTime(turn.time),
    );
    parts.push(
      `<circle class="turn ${level}" data-turn="${index + 1}" data-generation="${turn.generation}" data-context="${turn.context}" cx="${round(turnX(index, n))}" cy="${round(y(turn.context))}" r="${n > 200 ? 2 : 3.5}"><title>${escapeHtml(title)}</title></circle>`,
    );
  });

  return (
    `<svg class="context-chart" role="img" aria-label="${escapeHtml(text.contextTitle)}" viewBox="0 0 ${CHART.width} ${CHART.height}" data-turns="${n}" data-handoffs="${handoffs.length}" data-top="${top}" data-zoomed="${zoomed}">` +
    parts.join("") +
    `</svg>`
  );
}
