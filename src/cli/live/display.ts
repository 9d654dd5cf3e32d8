/**
 * The terminal view of a run: one line per thing that happened, plus the context gauge. The whole
 * handoff is visible here (gauge, near warning, "writing", the four-line summary, where the document
 * lies, the restart) because it runs unattended — a long run must not stop because someone went to lunch,
 * so the terminal is where a human sees afterwards what happened.
 *
 * On a TTY the gauge is a status line redrawn in place (`\r` + clear line) and every other line is
 * printed above it. Without a TTY (a pipe, a log file) there are no escape codes at all: the gauge is an
 * ordinary line, printed only when it moved noticeably or at the near/handoff events.
 */
import { homedir } from "node:os";
import type { Locale } from "../../locale/locale.js";
import type { FlowerEvent, HandoffEvent } from "../../runtime/events.js";
import { formatTokens, formatTokensShort, SECTION_HEADINGS } from "../../handoff/text.js";
import { gaugeLine, gaugeWorthPrinting, shownPath, type ViewLine, withPath } from "./display-format.js";
import { eventLines, type LineContext, REASON_MAX_CHARS } from "./display-lines.js";
import { DISPLAY_TEXT, type DisplayText } from "./display-text.js";
import { handoffSummary } from "./handoff-summary.js";
import { cut, fitColumns, oneLine } from "./terminal-text.js";

export { formatTokens, formatTokensShort } from "../../handoff/text.js";

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
}

const CLEAR_LINE = "\r\x1b[2K";

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
  }

  handle(event: FlowerEvent): void {
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
        break;
      case "step-end":
        this.#printed.delete(event.step);
        this.#at.delete(event.step);
        this.#setStatus(null);
        break;
    }
    this.#print(eventLines(event, this.#lines));
  }

  /** Ends the status line so whatever is printed next starts on a fresh line. */
  close(): void {
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
    lines.push(t.restart(formatTokens(event.context)));
    this.#printed.delete(event.step);
    this.#print(lines);
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
    const last = lines[lines.length - 1];
    this.#lastLine = typeof last === "string" ? last : null;
  }
}
