/**
 * The report's inline stylesheet. System fonts only (a font file would be a fetch); colours work on
 * paper as well as on screen, and the thresholds keep their colours in both charts and tables. A step's
 * status has its own colour: done green, failed red, goal-not-met burnt orange with a dashed outline.
 */
export const REPORT_STYLE = `
:root {
  --ink: #1f2328; --muted: #656d76; --rule: #d0d7de; --paper: #ffffff; --band: #f6f8fa;
  --line: #2f6feb; --warn: #bf8700; --at: #cf222e; --spill: #8250df; --denial: #e16f24; --ok: #1a7f37;
  --goal-not-met: #9a4a00;
}
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 40px; color: var(--ink); background: var(--paper);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", sans-serif; }
header h1 { margin: 0 0 4px; font-size: 22px; }
.summary { margin: 0 0 20px; color: var(--muted); }
.step { border-top: 1px solid var(--rule); padding-top: 16px; margin-top: 16px; }
.step h2 { margin: 0 0 6px; font-size: 18px; }
.status { font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 10px; background: var(--band);
  border: 1px solid var(--rule); vertical-align: middle; }
.status-done { color: var(--ok); } .status-failed { color: var(--at); }
/* The work ran, but flower's checks did not pass: neither done nor a crash, and a person has to look.
   A dashed outline tells it apart without relying on the hue. */
.status-goal-not-met { color: var(--goal-not-met); border: 1px dashed var(--goal-not-met); background: #fff1e5; }
.status-budget-reached { color: var(--goal-not-met); border: 1px dashed var(--goal-not-met); }
.task { margin: 0 0 12px; max-width: 960px; }
/* The task and the documents as written: line breaks kept, long words wrap instead of widening the page. */
.typed { white-space: pre-wrap; overflow-wrap: anywhere; }
.task .typed { border-left: 3px solid var(--rule); padding: 2px 0 2px 10px; margin-top: 2px; }
details.prompt { margin: 0 0 12px; max-width: 960px; color: var(--muted); }
details.prompt .typed { font-size: 13px; color: var(--ink); padding: 6px 10px; background: var(--band); }
.muted, .path { color: var(--muted); font-size: 12px; }
.run h2 { font-size: 18px; margin: 16px 0 6px; }
ol.run-steps { margin: 0 0 12px; padding-left: 24px; } ol.run-steps li { margin: 2px 0; }
.document { max-width: 1100px; } .document h3 { margin-bottom: 0; } .document .path { margin: 0 0 4px; overflow-wrap: anywhere; }
.note { color: var(--goal-not-met); font-weight: 600; margin: 2px 0; }
dl.sections { margin: 4px 0 12px; } dl.sections dt { font-weight: 600; font-size: 13px; }
dl.sections dd { margin: 0 0 6px 12px; }
/* A section a person changed after the freeze: the text the steps read, marked. */
dl.sections .changed { border-left: 3px solid var(--goal-not-met); padding-left: 6px; }
dl.sections .changed-mark { color: var(--goal-not-met); font-weight: 400; font-size: 12px; }
.verdict-box { border: 1px dashed var(--goal-not-met); background: #fff1e5; padding: 8px 12px; margin: 8px 0 16px;
  max-width: 1100px; }
.verdict-box p { margin: 2px 0; } .verdict-box strong { color: var(--goal-not-met); }
.verdict-box .reason { font-weight: 600; }
pre.tail { margin: 4px 0 6px 18px; padding: 6px 8px; background: var(--paper); border: 1px solid var(--rule);
  font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
table.goal-checks td { text-align: center; font-weight: 600; }
table.goal-checks td.passed, table.goal-checks td.passed a { color: var(--ok); }
table.goal-checks td.failed, table.goal-checks td.failed a { color: var(--at); }
table.goal-checks th[scope="row"] { font-weight: normal; color: var(--ink); font-size: 13px; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; overflow-wrap: anywhere; }
.label { color: var(--muted); margin-right: 6px; }
.totals { display: flex; flex-wrap: wrap; gap: 8px 28px; margin: 0 0 12px; }
.totals div { min-width: 80px; }
.totals dt { color: var(--muted); font-size: 12px; }
.totals dd { margin: 0; font-size: 17px; font-weight: 600; font-variant-numeric: tabular-nums; }
figure { margin: 12px 0 16px; max-width: 1100px; }
figcaption { color: var(--muted); margin-bottom: 4px; }
figcaption strong { color: var(--ink); margin-right: 6px; }
svg { width: 100%; height: auto; display: block; }
svg text { font: 12px system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", sans-serif; fill: var(--muted); }
.generation-band.odd { fill: var(--band); } .generation-band.even { fill: #eef1f4; }
.generation-label { font-weight: 600; }
.grid { stroke: var(--rule); stroke-width: 1; }
.threshold { stroke-width: 1.5; stroke-dasharray: 6 4; }
line.at-line { stroke: var(--at); } text.at-line { fill: var(--at); font-weight: 600; }
line.warn-line { stroke: var(--warn); } text.warn-line { fill: var(--warn); font-weight: 600; }
.context-line { fill: none; stroke: var(--line); stroke-width: 2; }
circle.turn { fill: var(--paper); stroke: var(--line); stroke-width: 1.5; }
circle.turn.over-warn { stroke: var(--warn); fill: #fff8c5; }
circle.turn.over-at { stroke: var(--at); fill: #ffebe9; }
.handoff line { stroke: var(--ink); stroke-width: 1.5; }
.handoff text { fill: var(--ink); font-weight: 600; }
.handoff.degraded line { stroke: var(--at); stroke-dasharray: 3 3; }
.handoff.degraded text { fill: var(--at); }
.bar.spill { fill: var(--spill); } .bar.denial { fill: var(--denial); }
.legend-label { fill: var(--ink); }
table { max-width: 100%; border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; margin-bottom: 4px; }
th, td { border-bottom: 1px solid var(--rule); padding: 4px 12px 4px 0; text-align: left; vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
td.number { text-align: right; }
td.path { overflow-wrap: anywhere; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; color: var(--muted); }
tr.degraded td, tr.failed td:nth-child(2) { color: var(--at); }
tr.passed td:nth-child(2) { color: var(--ok); }
/* The files a generation changed: the first names, the rest folded. A rewind's generations are no longer
   the step's: greyed, under a caption that says when and where to. */
td.files { max-width: 520px; } td.files details { display: inline; } td.files summary { cursor: pointer; color: var(--muted); }
table.rewound { color: var(--muted); } table.rewound caption { color: var(--goal-not-met); font-weight: normal; }
tr.rewound td:first-child { text-decoration: line-through; }
ul.checks { list-style: none; margin: 0; padding: 0; }
ul.checks li.passed .mark { color: var(--ok); } ul.checks li.failed .mark { color: var(--at); }
.verdict, .detail { color: var(--muted); }
.empty { color: var(--muted); font-style: italic; }
h3 { font-size: 15px; margin: 16px 0 4px; }
footer { margin-top: 28px; color: var(--muted); font-size: 12px; }
`;
