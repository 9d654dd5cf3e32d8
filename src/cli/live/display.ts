/**
 * The terminal view of a run: one line per thing that happened, plus the context gauge. The whole
 * handoff is visible here (gauge, near warning, "writing", the four-line summary, where the document
 * lies, the restart) because it runs unattended — a long run must not stop because someone went to lunch,
 * so the terminal is where a human sees afterwards what happened.
 *
 * On a TTY the gauge is a status line redrawn in place (`\r` + clear line) and every other line is
 * printed above it. Without a TTY (a pipe, a log file) there are no escape codes at all: the gauge is an
 * ordinary line, printed only when it moved noticeably or at the near/handoff events.
 *
 * While a step runs and nothing has changed on a TTY for a moment (a slow reply, a subagent at work),
 * the status line says for how long (`· waiting 15s`), redrawn once a second: a view that sat still for
 * 15 s read as hung. Never in a pipe: a log gets no line a second, and `--json` has no view at all.
 */
import { homedir } from "node:os";
import type { Locale } from "../../locale/locale.js";
import type { FlowerEvent, HandoffEvent } from "../../runtime/events.js";
import { formatTokens, formatTokensShort, SECTION_HEADINGS } from "../../handoff/handoff-document-text.js";
import { gaugeLine, gaugeWorthPrinting, shownPath, type ViewLine, withPath } from "./display-format.js";
import { eventLines, type LineContext, REASON_MAX_CHARS } from "./display-lines.js";
import { DISPLAY_TEXT, type DisplayText } from "./display-text.js";
import { handoffSummary } from "./handoff-summary.js";
import { cut, fitColumns, oneLine } from "./terminal-text.js";

export { formatTokens, formatTokensShort } from "../../handoff/handoff-document-text.js";

export interface DisplayOptions {
  /** Where the lines go (usually process.stderr or process.stdout). */
  out: NodeJS.WritableStream;
  /** Redraw the gauge in place. With false, no escape code is ever written. */
  tty: boolean;
  locale: Locale;
  /** Also print every tool call. @default false */
  verbose?: boolean;
  /** Shown as `~` at the start of paths. @default os.homedir() */
  home?: string;
  /**
   * The terminal's width, asked before each print (it changes when the window does). On a terminal
   * every line but a path (which has a line of its own) is cut to it. @default the `columns` of `out`,
   * when it is a terminal
   */
  columns?: () => number | undefined;
  /** The clock the waiting time is read from. @default Date.now */
  now?: () => number;
  /**
   * Redraw the waiting time once a second on a TTY while a step runs (a timer that never keeps the
   * process alive). Off, `tick()` is the only redraw (tests drive the clock). @default true
   */
  ticks?: boolean;
}

const CLEAR_LINE = "\r\x1b[2K";

/** Quiet for this long before the status line says it waits: shorter is a flicker after every line. */
const WAIT_SHOWN_MS = 2_000;
const TICK_MS = 1_000;

export class Display {
  readonly #out: NodeJS.WritableStream;
  readonly #tty: boolean;
  readonly #locale: Locale;
  readonly #text: DisplayText;
  readonly #home: string;
  /** What the lines of the events that only print need. */
  readonly #lines: LineContext;
  readonly #columns: () => number | undefined;
  /** TTY: the gauge as it should be drawn at the bottom; null when there is none. */
  #status: string | null = null;
  /** TTY: whether the bottom line currently shows the status (so it must be cleared before printing). */
  #drawn = false;
  /** The last permanent line, to avoid printing the same gauge twice in a row. */
  #lastLine: string | null = null;
  /** Per step: the handoff line from the last context event (the near event does not carry it). */
  readonly #at = new Map<string, number | null>();
  /** Pipe mode, per step: the context of the last gauge line printed. */
  readonly #printed = new Map<string, number>();
  readonly #now: () => number;
  readonly #ticks: boolean;
  /** TTY: the steps running now (between their start and end); the waiting time is shown while any is. */
  readonly #running = new Set<string>();
  /** TTY: when the screen last changed (a line, the gauge); the waiting time counts from here. */
  #quietSince = 0;
  #timer: NodeJS.Timeout | undefined;
  /**
   * Per step: the restart line of a handoff just written, said once the successor shows it started.
   * After the handoff the drift watch may pause the step (or a stop, or the budget, end it) with the
   * successor not started: "new session starts from the handoff" printed at the handoff said the
   * opposite of the pause line under it.
   */
  readonly #restart = new Map<string, string>();

  constructor(options: DisplayOptions) {
    this.#out = options.out;
    this.#tty = options.tty;
    this.#locale = options.locale;
    this.#text = DISPLAY_TEXT[options.locale];
    this.#home = options.home ?? homedir();
    this.#lines = {
      t: this.#text,
      locale: options.locale,
      verbose: options.verbose ?? false,
      path: (path) => this.#path(path),
    };
    this.#columns = options.columns ?? (() => (options.out as { columns?: number }).columns);
    this.#now = options.now ?? Date.now;
    this.#ticks = options.ticks ?? true;
    this.#quietSince = this.#now();
  }

  /**
   * On a TTY, while a step runs and the screen has not changed for a moment: the status line (the gauge,
   * or a line of its own before the first one) with the time waited. What the timer calls each second.
   */
  tick(): void {
    if (!this.#tty || this.#running.size === 0) return;
    const waited = this.#now() - this.#quietSince;
    if (waited < WAIT_SHOWN_MS) return;
    const wait = this.#text.waiting(formatWait(waited));
    const line = this.#status === null ? `.. ${wait}` : `${this.#status} · ${wait}`;
    this.#out.write(`${CLEAR_LINE}${this.#fit(line)}`);
    this.#drawn = true;
  }

  /** The step runs (or no longer does): the once-a-second redraw runs while any step does. */
  #stepRunning(step: string, running: boolean): void {
    if (!this.#tty) return;
    if (running) this.#running.add(step);
    else this.#running.delete(step);
    if (this.#running.size > 0 && this.#ticks && this.#timer === undefined) {
      this.#timer = setInterval(() => this.tick(), TICK_MS);
      this.#timer.unref();
    }
    if (this.#running.size === 0) this.#stopTicking();
  }

  #stopTicking(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  handle(event: FlowerEvent): void {
    this.#restartShown(event);
    switch (event.type) {
      case "context": {
        this.#at.set(event.step, event.at);
        const line = gaugeLine(this.#text, event.context, event.window, event.at, event.budget);
        if (this.#tty) {
          this.#setStatus(line);
        } else if (gaugeWorthPrinting(this.#printed.get(event.step), event.context, event.window, event.at)) {
          this.#printed.set(event.step, event.context);
          this.#print([line]);
        }
        return;
      }
      case "handoff":
        this.#handoff(event);
        return;
      case "workflow-step":
        // Which step of the run is active; the pause itself is printed by the command, with the file.
        if (event.phase === "start" || event.phase === "skip")
          this.#print([this.#workflowStep(event.name, event.index, event.total, event.phase, event.resumed)]);
        return;
      case "step-start":
        this.#printed.delete(event.step);
        this.#stepRunning(event.step, true);
        break;
      case "step-end":
        this.#printed.delete(event.step);
        this.#at.delete(event.step);
        this.#stepRunning(event.step, false);
        this.#setStatus(null);
        break;
    }
    this.#print(eventLines(event, this.#lines));
  }

  /** Ends the status line so whatever is printed next starts on a fresh line. */
  close(): void {
    this.#stopTicking();
    this.#running.clear();
    if (this.#tty && this.#drawn) this.#out.write("\n");
    this.#drawn = false;
    this.#status = null;
  }

  #handoff(event: HandoffEvent): void {
    const t = this.#text;
    const window = event.window > 0 ? event.window : null;
    if (event.phase === "near") {
      const at = this.#at.get(event.step) ?? null;
      // The crossing is marked (and says what it is without a context event first): a plain gauge line
      // here read like any other.
      const gauge = gaugeLine(t, event.context, window, at);
      const line = t.near(gauge.replace(/^# /, ""), at === null);
      if (!this.#tty) this.#printed.set(event.step, event.context);
      if (this.#lastLine !== line) this.#print([line]);
      return;
    }
    if (event.phase === "writing") {
      // The old gauge would claim the line is crossed; the next generation draws a fresh one.
      this.#setStatus(null);
      this.#print(["", t.writing(formatTokens(event.context), window ? formatTokensShort(window) : null)]);
      return;
    }
    const lines: ViewLine[] = [];
    if (event.weak?.length)
      lines.push(t.partial(event.weak.map((name) => SECTION_HEADINGS[this.#locale][name])));
    else if (event.degraded) lines.push(t.degraded(cut(oneLine(event.why ?? ""), REASON_MAX_CHARS)));
    if (event.sections) lines.push(...handoffSummary(event.sections, this.#locale));
    lines.push(...(event.path ? withPath(t.writtenTo, this.#path(event.path)) : [t.notWritten]));
    this.#restart.set(event.step, t.restart(formatTokens(event.context)));
    this.#printed.delete(event.step);
    this.#print(lines);
  }

  /**
   * The restart line of the step's last handoff, before the first sign of its successor; dropped when
   * the step pauses or ends there instead. Where the run stood at the handoff still comes first.
   */
  #restartShown(event: FlowerEvent): void {
    const step = "step" in event ? event.step : undefined;
    const line = step === undefined ? undefined : this.#restart.get(step);
    if (line === undefined || event.type === "generation-progress") return;
    this.#restart.delete(step!);
    if (event.type === "drift-pause" || event.type === "step-end") return;
    this.#print([line]);
  }

  #workflowStep(
    name: string,
    index: number,
    total: number,
    phase: "start" | "skip",
    resumed: boolean | undefined,
  ): string {
    const t = this.#text;
    const shown = t.stepNames[name] ?? oneLine(name);
    const details = phase === "skip" ? [t.stepSkipped] : resumed ? [t.stepResumed] : [];
    // The gauge of the previous step would be stale under the new step's header.
    this.#setStatus(null);
    return t.workflowStep(index + 1, total, shown) + details.map((detail) => ` · ${detail}`).join("");
  }

  #path(path: string): string {
    return shownPath(path, this.#home);
  }

  #setStatus(line: string | null): void {
    this.#status = line;
    if (!this.#tty) return;
    this.#quietSince = this.#now();
    if (line === null) {
      if (this.#drawn) this.#out.write(CLEAR_LINE);
      this.#drawn = false;
      return;
    }
    this.#out.write(`${CLEAR_LINE}${this.#fit(line)}`);
    this.#drawn = true;
  }

  /** On a terminal, a line one column short of its width (the last column would wrap on some terminals). */
  #fit(line: string): string {
    const columns = this.#tty ? this.#columns() : undefined;
    return columns && columns > 1 ? fitColumns(line, columns - 1) : line;
  }

  /** Permanent lines; on a TTY above the status line, which is redrawn below them. */
  #print(lines: ViewLine[]): void {
    if (lines.length === 0) return;
    const shown = lines.map((line) =>
      typeof line === "string" ? this.#fit(line) : `${line.indent}${line.path}`,
    );
    let chunk = `${shown.join("\n")}\n`;
    if (this.#tty && this.#drawn) chunk = `${CLEAR_LINE}${chunk}`;
    if (this.#tty && this.#status !== null) {
      chunk += `${CLEAR_LINE}${this.#fit(this.#status)}`;
      this.#drawn = true;
    } else {
      this.#drawn = false;
    }
    this.#out.write(chunk);
    this.#quietSince = this.#now();
    const last = lines[lines.length - 1];
    this.#lastLine = typeof last === "string" ? last : null;
  }
}

/** `12s`, `1m 05s`, `1h 02m`: how long the view has waited. */
export function formatWait(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}
