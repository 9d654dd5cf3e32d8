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
import type { Locale } from "../locale/locale.js";
import type { FlowerEvent, HandoffEvent } from "../runtime/events.js";
import type { SettingName, SettingValue } from "../runtime/step-settings.js";
import { formatTokens, formatTokensShort, SECTION_HEADINGS } from "../handoff/text.js";
import { checkFailureText } from "../goal/check-failure.js";
import { guardStatusLine } from "../goal/guard-message.js";
import { CHANGED_TEXT } from "./changed-text.js";
import { DISPLAY_TEXT, type DisplayText } from "./display-text.js";
import { documentSummary } from "./document-summary.js";
import { handoffSummary } from "./handoff-summary.js";
import { cut, fitColumns, oneLine } from "./terminal-text.js";

export { formatTokens, formatTokensShort } from "../handoff/text.js";

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
   * every line is cut to it. @default the `columns` of `out`, when it is a terminal
   */
  columns?: () => number | undefined;
}

const CLEAR_LINE = "\r\x1b[2K";
const REASON_MAX_CHARS = 160;

export class Display {
  readonly #out: NodeJS.WritableStream;
  readonly #tty: boolean;
  readonly #locale: Locale;
  readonly #text: DisplayText;
  readonly #verbose: boolean;
  readonly #home: string;
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
    this.#verbose = options.verbose ?? false;
    this.#home = options.home ?? homedir();
    this.#columns = options.columns ?? (() => (options.out as { columns?: number }).columns);
  }

  handle(event: FlowerEvent): void {
    const t = this.#text;
    switch (event.type) {
      case "context": {
        this.#at.set(event.step, event.at);
        const line = this.#gauge(event.context, event.window, event.at);
        if (this.#tty) {
          this.#setStatus(line);
        } else if (this.#gaugeWorthPrinting(event.step, event.context, event.window, event.at)) {
          this.#printed.set(event.step, event.context);
          this.#print([line]);
        }
        return;
      }
      case "handoff":
        this.#handoff(event);
        return;
      case "step-start": {
        this.#printed.delete(event.step);
        const details: string[] = [];
        if (event.attempt > 1) details.push(t.attempt(event.attempt));
        if (event.generation > 1) details.push(t.generation(event.generation));
        if (event.resume) details.push(t.resume(shortId(event.resume)));
        this.#print([t.stepStart(oneLine(event.step), details)]);
        return;
      }
      case "step-end": {
        this.#printed.delete(event.step);
        this.#at.delete(event.step);
        this.#setStatus(null);
        const details = [t.turns(event.turns), `$${event.costUsd.toFixed(2)}`];
        if (event.generations > 1) details.push(t.generations(event.generations));
        const lines = [t.stepEnd(oneLine(event.step), event.status, details)];
        // The same error from each attempt is said once, with how often it came.
        for (const [error, times] of countSame(event.errors))
          lines.push(`   ! ${cut(oneLine(error), REASON_MAX_CHARS)}${times > 1 ? ` (×${times})` : ""}`);
        this.#print(lines);
        return;
      }
      case "retry":
        this.#print([
          t.retry(
            oneLine(event.step),
            event.attempt,
            event.maxAttempts,
            cut(oneLine(event.reason), REASON_MAX_CHARS),
          ),
        ]);
        return;
      case "setting-override":
        this.#print([
          t.override(
            t.settingNames[event.setting],
            settingValue(event.setting, event.recorded, t),
            settingValue(event.setting, event.now, t),
            SETTING_FLAGS[event.by],
          ),
        ]);
        return;
      case "claude-stderr":
        // The failure's reason already quotes the last lines; the whole tail is for whoever asked for it.
        if (this.#verbose)
          this.#print([t.claudeStderr, ...event.lines.map((line) => `   | ${cut(oneLine(line), 300)}`)]);
        return;
      case "lease-wait":
        this.#print([t.leaseWait(oneLine(event.step), event.holder.pid, oneLine(event.holder.host))]);
        return;
      case "agent": {
        const agent = event.agent === "coordinator" ? t.coordinator : oneLine(event.agent);
        const description = cut(oneLine(event.description ?? ""), REASON_MAX_CHARS);
        this.#print([event.phase === "start" ? t.agentStart(agent, description) : t.agentEnd(agent)]);
        return;
      }
      case "tool-use":
        if (this.#verbose) {
          const summary = cut(oneLine(event.summary), REASON_MAX_CHARS);
          const agent = event.agent === "coordinator" ? t.coordinator : oneLine(event.agent);
          this.#print([`   ${agent} · ${oneLine(event.tool)}${summary ? ` ${summary}` : ""}`]);
        }
        return;
      case "tool-denied":
        this.#print([
          t.denied(
            oneLine(event.tool),
            cut(oneLine(event.command ?? ""), REASON_MAX_CHARS),
            cut(firstLine(event.reason), REASON_MAX_CHARS),
          ),
        ]);
        return;
      case "spill":
        this.#print([t.spill(oneLine(event.tool), formatTokens(event.chars), this.#path(event.path))]);
        return;
      case "goal-checks": {
        const lines = [t.goalChecks(event.passed, event.total)];
        for (const result of event.results) {
          if (result.passed) continue;
          lines.push(
            t.checkFailed(
              result.index,
              cut(oneLine(result.command), REASON_MAX_CHARS),
              cut(oneLine(checkFailureText(result, this.#locale)), REASON_MAX_CHARS),
              this.#path(result.logPath),
            ),
          );
        }
        this.#print(lines);
        return;
      }
      case "guard-round": {
        // One line per round, the same words as the coordinator's message: `guard round 2/3 · 1 of 4 checks failing`.
        const status =
          event.total > 0
            ? guardStatusLine({
                round: event.round,
                rounds: event.rounds,
                results: Array.from({ length: event.total }, (_, index) => ({
                  passed: index >= event.failing,
                })),
                locale: this.#locale,
              })
            : t.guardRound(event.round, event.rounds);
        this.#print([`>> ${status}${t.sentBack(event.cause)}`]);
        return;
      }
      case "claim-flagged":
        this.#print([
          t.claimFlagged(event.agent ? oneLine(event.agent) : null, cut(oneLine(event.excerpt), 80)),
        ]);
        return;
      case "review": {
        const count = (verdict: string) => event.criteria.filter((c) => c.verdict === verdict).length;
        const lines = [t.review(event.outcome, count("met"), count("not-met"), count("cannot-tell"))];
        for (const criterion of event.criteria) {
          if (criterion.verdict === "not-met")
            lines.push(t.reviewNotMet(cut(oneLine(criterion.criterion), REASON_MAX_CHARS)));
        }
        if (event.outcome === "degraded" && event.why)
          lines.push(`   ! ${cut(oneLine(event.why), REASON_MAX_CHARS)}`);
        this.#print(lines);
        return;
      }
      case "workflow-step":
        // Which step of the run is active; the pause itself is printed by the command, with the file.
        if (event.phase === "start" || event.phase === "skip")
          this.#print([this.#workflowStep(event.name, event.index, event.total, event.phase, event.resumed)]);
        return;
      case "document-frozen": {
        const lines: string[] = [];
        if (event.degraded)
          lines.push(t.frozenDegraded(oneLine(event.title), cut(oneLine(event.why ?? ""), REASON_MAX_CHARS)));
        lines.push(t.frozen(oneLine(event.title), this.#path(event.path)));
        lines.push(
          ...documentSummary(
            event.sections.map((section) => ({ label: oneLine(section.heading), text: section.text })),
            this.#locale,
          ),
        );
        this.#print(lines);
        return;
      }
      case "document-changed": {
        const words = CHANGED_TEXT[this.#locale];
        const what = words.changed(event.since, event.used);
        const line = words.line(`${oneLine(event.title)} ${this.#path(event.path)}`, what);
        const hint = !event.used && event.kind === "goal" ? words.rereadHint : "";
        this.#print([`${event.used ? "<- " : "!  "}${line}${hint}`]);
        return;
      }
      case "goal-change": {
        const words = CHANGED_TEXT[this.#locale];
        const used = event.phase === "switched";
        const checks = words.checks(event.checks.recorded, event.checks.offered, used);
        this.#print([`${used ? "<- " : "!  "}${words.line(words.offeredGoal(used), checks)}`]);
        return;
      }
      case "store-load": {
        const parts: string[] = [];
        for (const key of [
          "expired",
          "trimmed",
          "prunedDenials",
          "prunedApiErrors",
          "interrupted",
        ] as const) {
          if (event[key] > 0) parts.push(t.storeParts[key](event[key]));
        }
        // A load that rewrote nothing is not news.
        if (parts.length === 0 && event.charsSaved <= 0) return;
        if (event.charsSaved > 0) parts.push(t.saved(formatTokens(event.charsSaved)));
        this.#print([t.storeLoad(shortId(event.sessionId), parts)]);
        return;
      }
    }
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
      // Without a context event first the line is unknown; the warning still has to say what it is.
      const line = this.#gauge(event.context, window, at) + (at === null ? this.#text.nearLine : "");
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
    const lines: string[] = [];
    if (event.weak?.length)
      lines.push(t.partial(event.weak.map((name) => SECTION_HEADINGS[this.#locale][name])));
    else if (event.degraded) lines.push(t.degraded(cut(oneLine(event.why ?? ""), REASON_MAX_CHARS)));
    if (event.sections) lines.push(...handoffSummary(event.sections, this.#locale));
    lines.push(event.path ? t.writtenTo(this.#path(event.path)) : t.notWritten);
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

  #gauge(context: number, window: number | null, at: number | null): string {
    const t = this.#text;
    let line = t.gauge(formatTokens(context), window ? formatTokensShort(window) : null);
    if (at !== null) line += context < at ? t.remaining(formatTokensShort(at - context)) : t.atLine;
    return line;
  }

  /** Pipe mode: a gauge line every ~5% of the window, not on every turn. */
  #gaugeWorthPrinting(step: string, context: number, window: number | null, at: number | null): boolean {
    // At or past the line the writing line follows at once and reports the same number.
    if (at !== null && context >= at) return false;
    const last = this.#printed.get(step);
    if (last === undefined) return true;
    const stride = window ? Math.max(5_000, Math.round(window * 0.05)) : 10_000;
    return Math.abs(context - last) >= stride;
  }

  #path(path: string): string {
    const clean = oneLine(path);
    const home = this.#home.replace(/\/+$/, "");
    if (home && (clean === home || clean.startsWith(`${home}/`))) return `~${clean.slice(home.length)}`;
    return clean;
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
  #print(lines: string[]): void {
    if (lines.length === 0) return;
    let chunk = `${lines.map((line) => this.#fit(line)).join("\n")}\n`;
    if (this.#tty && this.#drawn) chunk = `${CLEAR_LINE}${chunk}`;
    if (this.#tty && this.#status !== null) {
      chunk += `${CLEAR_LINE}${this.#fit(this.#status)}`;
      this.#drawn = true;
    } else {
      this.#drawn = false;
    }
    this.#out.write(chunk);
    this.#lastLine = lines[lines.length - 1] ?? null;
  }
}

function firstLine(text: string): string {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return oneLine(line);
}

function shortId(id: string): string {
  return oneLine(id).slice(0, 8);
}

/** The option of `flower continue` behind an override (`headroom` has none: only the library sets it). */
const SETTING_FLAGS: Record<SettingName, string> = {
  model: "--model",
  window: "--window",
  handoff: "--no-handoff",
  headroom: "headroom",
  maxBudgetUsd: "--max-budget-usd",
  review: "--review",
  locale: "--lang",
};

/** A setting's value as a person reads it: `90K`, `on`, `$5`, `default`. */
function settingValue(setting: SettingName, value: SettingValue, t: DisplayText): string {
  if (typeof value === "boolean") return value ? t.settingValues.on : t.settingValues.off;
  if (value === null) return setting === "model" ? t.settingValues.defaultModel : t.settingValues.none;
  if (typeof value === "number") return setting === "maxBudgetUsd" ? `$${value}` : formatTokensShort(value);
  return oneLine(value);
}

/** Each distinct text with how often it occurs, in order of first occurrence. */
function countSame(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  return counts;
}
