/**
 * One trace as a waterfall, the way a tracing UI (Tempo, Honeycomb, Jaeger) draws it: a row per span in
 * tree order, indented by depth, its bar placed on the trace's time axis. A static page with no script
 * and no external resource, so docs/telemetry-trace.png can be made offline from what the OTLP receiver
 * decoded (scripts/telemetry-screenshot.sh).
 */
import type { ReceivedSpan } from "./otlp-receiver.js";

const KINDS: Array<[RegExp, string]> = [
  [/^run /, "#5b4b8a"],
  [/^step /, "#2f6f9f"],
  [/^generation /, "#3d8b6d"],
  [/^handoff /, "#d08a2e"],
  [/^guard round /, "#b5473a"],
  [/^goal check /, "#c9736a"],
  [/^worker /, "#7b8f3a"],
  [/^turn /, "#6fa8c9"],
];

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** What a row says besides the name: the figures a person looks for first. */
function detail(span: ReceivedSpan): string {
  const a = span.attributes;
  const parts: string[] = [];
  if (typeof a["flower.context.tokens"] === "number")
    parts.push(`${(a["flower.context.tokens"] / 1000).toFixed(1)}K ctx`);
  if (typeof a["flower.cost.usd"] === "number" && !span.name.startsWith("turn"))
    parts.push(`$${a["flower.cost.usd"].toFixed(3)}`);
  if (a["flower.handoff.degraded"] === true) parts.push("degraded");
  if (typeof a["flower.guard.outcome"] === "string") parts.push(a["flower.guard.outcome"]);
  if (typeof a["flower.goal.check"] === "string") parts.push(a["flower.goal.check"].slice(0, 40));
  if (span.events.length > 0) {
    const counts = new Map<string, number>();
    for (const event of span.events)
      if (event.name !== "tool-use") counts.set(event.name, (counts.get(event.name) ?? 0) + 1);
    for (const [name, count] of counts) parts.push(count > 1 ? `${name} ×${count}` : name);
  }
  return parts.join(" · ");
}

/** The spans in tree order (children by start time), each with its depth. */
export function treeOrder(spans: ReceivedSpan[]): Array<{ span: ReceivedSpan; depth: number }> {
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string | null, ReceivedSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const rows: Array<{ span: ReceivedSpan; depth: number }> = [];
  const visit = (parent: string | null, depth: number) => {
    for (const span of (children.get(parent) ?? []).sort((a, b) => a.startMs - b.startMs)) {
      rows.push({ span, depth });
      visit(span.spanId, depth + 1);
    }
  };
  visit(null, 0);
  return rows;
}

export function waterfallHtml(spans: ReceivedSpan[], title: string): string {
  const rows = treeOrder(spans);
  const start = Math.min(...spans.map((span) => span.startMs));
  const total = Math.max(...spans.map((span) => span.endMs)) - start || 1;
  const pct = (ms: number) => ((ms / total) * 100).toFixed(3);
  const lines = rows.map(({ span, depth }) => {
    const color = KINDS.find(([pattern]) => pattern.test(span.name))?.[1] ?? "#888";
    const seconds = ((span.endMs - span.startMs) / 1000).toFixed(span.endMs - span.startMs < 1000 ? 2 : 1);
    const failed = span.status.code === 2 ? " failed" : "";
    return `<div class="row${failed}" data-span="${escape(span.name)}">
  <div class="label" style="padding-left:${depth * 14 + 6}px"><b>${escape(span.name)}</b> <span>${escape(detail(span))}</span></div>
  <div class="lane"><div class="bar" style="left:${pct(span.startMs - start)}%;width:max(2px,${pct(span.endMs - span.startMs)}%);background:${color}"></div><i style="left:calc(${pct(span.endMs - start)}% + 4px)">${seconds}s</i></div>
</div>`;
  });
  const ticks = Array.from(
    { length: 11 },
    (_, i) => `<u style="left:${i * 10}%">${(((total / 1000) * i) / 10).toFixed(0)}s</u>`,
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title><style>
body{font:12px/1.3 system-ui,sans-serif;margin:16px;color:#222;background:#fff}
h1{font-size:15px;margin:0 0 8px}
.row,.axis{display:grid;grid-template-columns:460px 1fr;border-bottom:1px solid #f0f0f0;min-height:17px}
.row:hover{background:#f6f8fa}.row.failed b{color:#b5473a}
.label{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.label span{color:#777}
.lane,.ticks{position:relative}.bar{position:absolute;top:3px;height:11px;border-radius:2px}
.lane i{position:absolute;top:2px;font-style:normal;color:#999;font-size:10px;white-space:nowrap}
.ticks u{position:absolute;text-decoration:none;color:#999;font-size:10px;border-left:1px solid #ddd;padding-left:2px;height:14px}
</style></head><body><h1>${escape(title)}</h1>
<div class="axis"><div class="label"><b>span</b></div><div class="ticks">${ticks.join("")}</div></div>
${lines.join("\n")}
</body></html>`;
}
