/**
 * A small SVG line chart: main-thread context per main turn, one line per mode, a dashed vertical
 * line where a session ended (handoff or compaction) and an optional horizontal line (the handoff
 * line `at`, or the window). No dependencies: the bench writes plain SVG text.
 */
export interface Series {
  label: string;
  color: string;
  /** [turn, tokens] */
  points: Array<[number, number]>;
  /** Turns after which a handoff or compaction happened. */
  marks: number[];
}

export interface ChartOptions {
  title: string;
  series: Series[];
  lines?: Array<{ label: string; value: number }>;
  width?: number;
  height?: number;
  /** Axis titles (default: main-thread turn, context (tokens)). */
  xLabel?: string;
  yLabel?: string;
  /** How a y tick is written (default: 12k). */
  yFormat?: (value: number) => string;
}

function escape(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

function kilo(value: number): string {
  return value >= 1000 ? `${Math.round(value / 1000)}k` : String(value);
}

export function lineChart(options: ChartOptions): string {
  const width = options.width ?? 760;
  const height = options.height ?? 360;
  const left = 64;
  const right = 16;
  const top = 36;
  const bottom = 64;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const all = options.series.flatMap((series) => series.points);
  const maxX = Math.max(1, ...all.map(([x]) => x));
  const maxY = Math.max(1, ...all.map(([, y]) => y), ...(options.lines ?? []).map((line) => line.value));
  const stepY = niceStep(maxY, 5);
  const topY = Math.ceil(maxY / stepY) * stepY;
  const stepX = niceStep(maxX, 8);
  const x = (value: number) => left + (value / maxX) * plotWidth;
  const y = (value: number) => top + plotHeight - (value / topY) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="20" font-size="13" font-weight="bold">${escape(options.title)}</text>`,
  ];
  for (let value = 0; value <= topY; value += stepY) {
    parts.push(
      `<line x1="${left}" x2="${left + plotWidth}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#e5e5e5"/>`,
      `<text x="${left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${(options.yFormat ?? kilo)(value)}</text>`,
    );
  }
  for (let value = 0; value <= maxX; value += stepX) {
    parts.push(
      `<text x="${x(value).toFixed(1)}" y="${top + plotHeight + 16}" text-anchor="middle">${value}</text>`,
    );
  }
  parts.push(
    `<text x="${left + plotWidth / 2}" y="${height - 28}" text-anchor="middle">${escape(options.xLabel ?? "main-thread turn")}</text>`,
    `<text x="14" y="${top + plotHeight / 2}" text-anchor="middle" transform="rotate(-90 14 ${top + plotHeight / 2})">${escape(options.yLabel ?? "context (tokens)")}</text>`,
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotHeight}" stroke="#555"/>`,
    `<line x1="${left}" x2="${left + plotWidth}" y1="${top + plotHeight}" y2="${top + plotHeight}" stroke="#555"/>`,
  );
  for (const line of options.lines ?? []) {
    parts.push(
      `<line x1="${left}" x2="${left + plotWidth}" y1="${y(line.value).toFixed(1)}" y2="${y(line.value).toFixed(1)}" stroke="#999" stroke-dasharray="6 3"/>`,
      `<text x="${left + plotWidth - 4}" y="${(y(line.value) - 4).toFixed(1)}" text-anchor="end" fill="#666">${escape(line.label)}</text>`,
    );
  }
  for (const series of options.series) {
    for (const mark of series.marks) {
      parts.push(
        `<line x1="${x(mark).toFixed(1)}" x2="${x(mark).toFixed(1)}" y1="${top}" y2="${top + plotHeight}" stroke="${series.color}" stroke-opacity="0.45" stroke-dasharray="2 3"/>`,
      );
    }
    const path = series.points
      .map(([px, py], index) => `${index === 0 ? "M" : "L"}${x(px).toFixed(1)},${y(py).toFixed(1)}`)
      .join(" ");
    parts.push(`<path d="${path}" fill="none" stroke="${series.color}" stroke-width="1.6"/>`);
  }
  options.series.forEach((series, index) => {
    const lx = left + index * 190;
    const ly = height - 10;
    parts.push(
      `<line x1="${lx}" x2="${lx + 18}" y1="${ly - 4}" y2="${ly - 4}" stroke="${series.color}" stroke-width="2"/>`,
      `<text x="${lx + 24}" y="${ly}">${escape(series.label)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
