/**
 * Spills and denials over time, on the same turn axis as the context chart, so a cluster of denials
 * lines up with the stretch of context it cost. Bars carry `data-kind`, `data-turn` and `data-count`.
 */
import { escapeHtml } from "./escape.js";
import { CHART, turnTicks, turnX } from "./context-chart.js";
import type { ReportStep } from "./report-input.js";
import type { ReportText } from "./report-text.js";

const HEIGHT = 130;
const TOP = 16;
const BOTTOM = 30;

function round(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}

/** The activity chart, or null when the step had no spill and no denial (a sentence says so instead). */
export function activityChart(step: ReportStep, text: ReportText): string | null {
  const n = step.turns.length;
  const highest = Math.max(0, ...step.turns.map((turn) => Math.max(turn.spills ?? 0, turn.denials ?? 0)));
  if (highest === 0) return null;
  const bottomY = HEIGHT - BOTTOM;
  const slot = (CHART.width - CHART.left - CHART.right) / Math.max(1, n);
  const barWidth = Math.max(1, Math.min(10, slot * 0.4));
  const parts: string[] = [
    `<line class="grid" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${bottomY}" y2="${bottomY}"/>`,
    `<text class="axis-label" x="${CHART.left - 8}" y="${bottomY}" text-anchor="end" dominant-baseline="middle">0</text>`,
    `<text class="axis-label" x="${CHART.left - 8}" y="${TOP}" text-anchor="end" dominant-baseline="middle">${highest}</text>`,
    `<rect class="bar spill legend" x="${CHART.width - CHART.right + 8}" y="${TOP}" width="10" height="10"/>`,
    `<text class="legend-label" x="${CHART.width - CHART.right + 24}" y="${TOP + 9}">${escapeHtml(text.spills)}</text>`,
    `<rect class="bar denial legend" x="${CHART.width - CHART.right + 8}" y="${TOP + 18}" width="10" height="10"/>`,
    `<text class="legend-label" x="${CHART.width - CHART.right + 24}" y="${TOP + 27}">${escapeHtml(text.denials)}</text>`,
  ];
  for (const turn of turnTicks(n)) {
    parts.push(
      `<text class="axis-label" x="${round(turnX(turn - 1, n))}" y="${bottomY + 18}" text-anchor="middle">${turn}</text>`,
    );
  }
  step.turns.forEach((turn, index) => {
    const centre = turnX(index, n);
    for (const [kind, count, offset] of [
      ["spill", turn.spills ?? 0, -barWidth],
      ["denial", turn.denials ?? 0, 0],
    ] as const) {
      if (count === 0) continue;
      const height = (count / highest) * (bottomY - TOP);
      parts.push(
        `<rect class="bar ${kind}" data-kind="${kind}" data-turn="${index + 1}" data-count="${count}" x="${round(centre + offset)}" y="${round(bottomY - height)}" width="${round(barWidth)}" height="${round(height)}"><title>${escapeHtml(text.barTitle(kind, index + 1, count))}</title></rect>`,
      );
    }
  });
  return (
    `<svg class="activity-chart" role="img" aria-label="${escapeHtml(text.activityTitle)}" viewBox="0 0 ${CHART.width} ${HEIGHT}">` +
    parts.join("") +
    `</svg>`
  );
}
