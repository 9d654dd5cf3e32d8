/** The page's stylesheet (served as /page.css): system fonts, no image, light and dark. */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --ok: #15803d; --bad: #b91c1c;
  --warn: #b45309; --fill: #2563eb; --bg-soft: rgba(127,127,127,.08); }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", sans-serif;
  margin: 0 auto; padding: 1rem 1.5rem; max-width: 1400px; }
h1 { font-size: 1.4rem; margin: .2rem 0; }
.where { margin: 0; color: var(--muted); }
.state { margin-left: .5rem; font-size: .85em; padding: 0 .4em; border-radius: .6em; background: var(--bg-soft); }
.state.live { color: var(--ok); }
.message { min-height: 1.4em; margin: .4rem 0; }
.message.refused { color: var(--bad); }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; font-size: .9em; color: var(--muted); }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td.run a { font-weight: 600; }
td.run .task { display: block; color: var(--muted); font-size: .85em; max-width: 28ch; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; }
.status { display: inline-block; padding: 0 .45em; border-radius: .6em; background: var(--bg-soft); }
.status-running { color: var(--fill); } .status-done { color: var(--ok); }
.status-failed, .status-goal-not-met, .status-budget-reached, .status-cancelled { color: var(--bad); }
.status-paused, .status-interrupted, .status-queued, .status-cancelling { color: var(--warn); }
.gauge { position: relative; width: 12rem; max-width: 100%; height: .7rem; border: 1px solid var(--line);
  border-radius: .35rem; overflow: hidden; background: var(--bg-soft); }
.gauge .fill { position: absolute; left: 0; top: 0; bottom: 0; background: var(--fill); transition: width .4s; }
.gauge .fill.warn { background: var(--warn); } .gauge .fill.over { background: var(--bad); }
.gauge .line { position: absolute; top: 0; bottom: 0; width: 2px; background: var(--bad); }
.gauge-text { font-size: .8em; color: var(--muted); white-space: nowrap; }
ul.checks { list-style: none; margin: 0; padding: 0; font-size: .85em; }
ul.checks li.passed .mark { color: var(--ok); } ul.checks li.failed .mark { color: var(--bad); }
ul.checks code { word-break: break-all; }
ul.work { list-style: none; margin: .15rem 0 0; padding: 0; font-size: .8em; color: var(--muted); text-align: left;
  max-width: 34ch; }
ul.work li { overflow-wrap: anywhere; }
button { font: inherit; padding: .1rem .6rem; margin: 0 .2rem .2rem 0; cursor: pointer; }
span.say { display: inline-flex; gap: .2rem; }
input.say { font: inherit; width: 14rem; max-width: 40vw; padding: .1rem .3rem; }
.empty { color: var(--muted); }
.read-only th[data-column="actions"], .read-only td.actions { display: none; }
@media (max-width: 900px) { th[data-column="machine"], td.machine { display: none; } .gauge { width: 7rem; } }
`;
