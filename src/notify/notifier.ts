/**
 * The notifications of one run: each is sent to every target at once and waited for, within the time
 * limit (DEFAULTS.notifyTimeoutMs), and never fails or holds the run — the run has already been
 * recorded when it is told. A target that fails (a command's exit code, a refused connection, an HTTP
 * 500, no answer in time) is said once through `onFailure`, however many notifications of the run fail
 * after it: one broken notifier must not bury the run's own lines.
 */
import { DEFAULTS } from "../defaults.js";
import type { Locale } from "../locale/locale.js";
import { deliver, type DeliveryFailure } from "./deliver.js";
import type { Notification } from "./notification.js";
import { shownTarget, type NotifyTarget } from "./target.js";
import { NOTIFY_TEXT } from "./notify-text.js";

/**
 * A `why` longer than this is cut: it is one line for a person, and one environment variable may hold
 * at most 128 KiB (a longer one makes the command fail to start, E2BIG).
 */
const WHY_CHARS = 1_000;

export interface NotifierOptions {
  locale: Locale;
  /** Called once, with one line, on the first failure. */
  onFailure: (line: string) => void;
  /** @default DEFAULTS.notifyTimeoutMs */
  timeoutMs?: number;
}

export class Notifier {
  readonly targets: readonly NotifyTarget[];
  readonly #options: NotifierOptions;
  readonly #running = new Set<number>();
  #failed = false;

  constructor(targets: readonly NotifyTarget[], options: NotifierOptions) {
    this.targets = targets;
    this.#options = options;
  }

  /** Sends to every target; resolves once each has answered or been ended. Never rejects. */
  async send(fields: Omit<Notification, "at">): Promise<void> {
    if (this.targets.length === 0) return;
    // The fields in the documented order, whatever order the caller built them in.
    const notification: Notification = {
      event: fields.event,
      run: fields.run,
      step: fields.step,
      status: fields.status,
      why: cut(fields.why, WHY_CHARS),
      continue: fields.continue,
      at: new Date().toISOString(),
    };
    const timeoutMs = this.#options.timeoutMs ?? DEFAULTS.notifyTimeoutMs;
    // A process that exits while a command runs (a second Ctrl-C) ends the command's group first.
    const onExit = () => this.abort();
    process.on("exit", onExit);
    try {
      const failures = await Promise.all(
        this.targets.map(async (target) => {
          const failure = await deliver(target, notification, {
            timeoutMs,
            killGraceMs: DEFAULTS.notifyKillGraceMs,
            running: this.#running,
          }).catch((error: unknown): DeliveryFailure => ({ kind: "unreachable", message: String(error) }));
          return failure === null ? null : { target, failure };
        }),
      );
      const first = failures.find((one) => one !== null);
      if (first && !this.#failed) {
        this.#failed = true;
        const text = NOTIFY_TEXT[this.#options.locale];
        try {
          this.#options.onFailure(
            text.failed(shownTarget(first.target), reason(first.failure, timeoutMs, text)),
          );
        } catch {
          // Whoever is told of the failure must not make it the run's.
        }
      }
    } finally {
      process.off("exit", onExit);
    }
  }

  /** Ends every command still running at once (SIGKILL to its group). */
  abort(): void {
    for (const group of this.#running) {
      try {
        process.kill(-group, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    this.#running.clear();
  }
}

function reason(failure: DeliveryFailure, timeoutMs: number, text: (typeof NOTIFY_TEXT)["en"]): string {
  switch (failure.kind) {
    case "exit":
      return text.exitCode(failure.code, failure.said);
    case "signal":
      return text.signal(failure.signal);
    case "not-started":
      return text.notStarted(failure.message);
    case "timed-out":
      return text.timedOut(Math.round(timeoutMs / 100) / 10);
    case "http":
      return text.http(failure.status);
    case "unreachable":
      return text.unreachable(failure.message);
  }
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}
