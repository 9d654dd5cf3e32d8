/**
 * The live view's lines for each event that only prints: what happened, in the display language. The
 * gauge, the handoff and the workflow's step headers also change what the view shows at the bottom, so
 * they stay in display.ts; everything here is a pure function of the event.
 */
import type { Locale } from "../../locale/locale.js";
import type { FlowerEvent } from "../../runtime/events.js";
import type { GenerationProgress } from "../../records/step-record.js";
import { formatTokens } from "../../handoff/handoff-document-text.js";
import { checkFailureText } from "../../goal/check-failure.js";
import { guardStatusLine } from "../../goal/guard-message.js";
import { CHANGED_TEXT } from "../record-views/changed-text.js";
import type { DisplayText } from "./display-text.js";
import { documentSummary } from "../record-views/document-summary.js";
import {
  countSame,
  firstLine,
  SETTING_FLAGS,
  settingValue,
  shortId,
  type ViewLine,
  withPath,
} from "./display-format.js";
import { cut, oneLine } from "./terminal-text.js";
import { namedFiles } from "../record-views/work-summary.js";

export const REASON_MAX_CHARS = 160;

export interface LineContext {
  t: DisplayText;
  locale: Locale;
  verbose: boolean;
  /** A path as shown (home as `~`). */
  path: (path: string) => string;
}

/** The lines one event prints; none for an event the view does not show (or not at this verbosity). */
export function eventLines(event: FlowerEvent, view: LineContext): ViewLine[] {
  const { t, locale } = view;
  switch (event.type) {
    case "step-start": {
      const details: string[] = [];
      if (event.attempt > 1) details.push(t.attempt(event.attempt));
      if (event.generation > 1) details.push(t.generation(event.generation));
      if (event.resume) details.push(t.resume(shortId(event.resume)));
      return [t.stepStart(oneLine(event.step), details)];
    }
    case "step-end": {
      const details = [t.turns(event.turns), `$${event.costUsd.toFixed(2)}`];
      if (event.generations > 1) details.push(t.generations(event.generations));
      const lines = [t.stepEnd(oneLine(event.step), event.status, details)];
      // The same error from each attempt is said once, with how often it came.
      for (const [error, times] of countSame(event.errors))
        lines.push(`   ! ${cut(oneLine(error), REASON_MAX_CHARS)}${times > 1 ? ` (×${times})` : ""}`);
      return lines;
    }
    case "reply-cut":
      return [t.replyCut(Math.round(event.waitedMs / 1000))];
    case "retry":
      return [
        t.retry(
          oneLine(event.step),
          event.attempt,
          event.maxAttempts,
          cut(oneLine(event.reason), REASON_MAX_CHARS),
        ),
      ];
    case "setting-override":
      return [
        t.override(
          t.settingNames[event.setting],
          settingValue(event.setting, event.recorded, t),
          settingValue(event.setting, event.now, t),
          SETTING_FLAGS[event.by],
        ),
      ];
    case "claude-stderr":
      // The failure's reason already quotes the last lines; the whole tail is for whoever asked for it.
      return view.verbose
        ? [t.claudeStderr, ...event.lines.map((line) => `   | ${cut(oneLine(line), 300)}`)]
        : [];
    case "lease-wait":
      return [t.leaseWait(oneLine(event.step), event.holder.pid, oneLine(event.holder.host))];
    case "handoff-request":
      return [
        t.handoffRequest(
          oneLine(event.step),
          oneLine(event.by),
          event.next === null ? null : cut(oneLine(event.next), REASON_MAX_CHARS),
        ),
      ];
    case "person-message":
      return [
        t.personMessage(oneLine(event.step), oneLine(event.by), cut(oneLine(event.text), REASON_MAX_CHARS)),
      ];
    case "agent": {
      const agent = event.agent === "coordinator" ? t.coordinator : oneLine(event.agent);
      const description = cut(oneLine(event.description ?? ""), REASON_MAX_CHARS);
      return [event.phase === "start" ? t.agentStart(agent, description) : t.agentEnd(agent)];
    }
    case "tool-use": {
      if (!view.verbose) return [];
      const summary = cut(oneLine(event.summary), REASON_MAX_CHARS);
      const agent = event.agent === "coordinator" ? t.coordinator : oneLine(event.agent);
      return [`   ${agent} · ${oneLine(event.tool)}${summary ? ` ${summary}` : ""}`];
    }
    case "tool-denied":
      return [
        t.denied(
          oneLine(event.tool),
          cut(oneLine(event.command ?? ""), REASON_MAX_CHARS),
          cut(firstLine(event.reason), REASON_MAX_CHARS),
        ),
      ];
    case "spill":
      return withPath(t.spill(oneLine(event.tool), formatTokens(event.chars)), view.path(event.path));
    case "goal-checks": {
      const lines: ViewLine[] = [t.goalChecks(event.passed, event.total)];
      for (const result of event.results) {
        if (result.passed) continue;
        const header = t.checkFailed(
          result.index,
          cut(oneLine(result.command), REASON_MAX_CHARS),
          cut(oneLine(checkFailureText(result, locale)), REASON_MAX_CHARS),
        );
        lines.push(...withPath(header, view.path(result.logPath)));
      }
      return lines;
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
              locale,
            })
          : t.guardRound(event.round, event.rounds);
      return [`>> ${status}${t.sentBack(event.cause)}`];
    }
    case "claim-flagged":
      return [t.claimFlagged(event.agent ? oneLine(event.agent) : null, cut(oneLine(event.excerpt), 80))];
    case "review": {
      const count = (verdict: string) => event.criteria.filter((c) => c.verdict === verdict).length;
      const lines = [t.review(event.outcome, count("met"), count("not-met"), count("cannot-tell"))];
      for (const criterion of event.criteria) {
        if (criterion.verdict === "not-met")
          lines.push(t.reviewNotMet(cut(oneLine(criterion.criterion), REASON_MAX_CHARS)));
      }
      if (event.outcome === "degraded" && event.why)
        lines.push(`   ! ${cut(oneLine(event.why), REASON_MAX_CHARS)}`);
      return lines;
    }
    case "document-frozen": {
      const lines: ViewLine[] = [];
      if (event.degraded)
        lines.push(t.frozenDegraded(oneLine(event.title), cut(oneLine(event.why ?? ""), REASON_MAX_CHARS)));
      lines.push(...withPath(t.frozen(oneLine(event.title)), view.path(event.path)));
      lines.push(
        ...documentSummary(
          event.sections.map((section) => ({ label: oneLine(section.heading), text: section.text })),
          locale,
        ),
      );
      return lines;
    }
    case "document-changed": {
      const words = CHANGED_TEXT[locale];
      const what = words.changed(event.since, event.used);
      const hint = !event.used && event.kind === "goal" ? words.rereadHint : "";
      const line = `${event.used ? "<- " : "!  "}${words.line(oneLine(event.title), what)}${hint}`;
      return withPath(line, view.path(event.path));
    }
    case "goal-change": {
      const words = CHANGED_TEXT[locale];
      const used = event.phase === "switched";
      const checks = words.checks(event.checks.recorded, event.checks.offered, used);
      return [`${used ? "<- " : "!  "}${words.line(words.offeredGoal(used), checks)}`];
    }
    case "store-load": {
      const parts: string[] = [];
      for (const key of ["expired", "trimmed", "prunedDenials", "prunedApiErrors", "interrupted"] as const) {
        if (event[key] > 0) parts.push(t.storeParts[key](event[key]));
      }
      // A load that rewrote nothing is not news.
      if (parts.length === 0 && event.charsSaved <= 0) return [];
      if (event.charsSaved > 0) parts.push(t.saved(formatTokens(event.charsSaved)));
      return [t.storeLoad(shortId(event.sessionId), parts)];
    }
    case "work-restored": {
      // Said always: the files on disk changed (or were kept) before the step went on.
      const parts: string[] = [];
      const named = (files: readonly string[]) => namedFiles(files, t.moreFiles);
      if (event.restored.length > 0)
        parts.push(t.restoredFiles(event.restored.length, named(event.restored)));
      if (event.kept.length > 0) parts.push(t.keptFiles(event.kept.length, named(event.kept)));
      if (event.dropped > 0) parts.push(t.droppedCheckpoints(event.dropped));
      return parts.length > 0 ? [t.workRestored(parts)] : [];
    }
    case "work-warning":
      return [t.workWarning(cut(oneLine(event.message), 300))];
    case "generation-progress": {
      const parts = progressParts(event.progress, t);
      return parts.length > 0 ? [t.progress(event.generation, parts)] : [];
    }
    case "drift-pause":
      return [
        t.driftPause(event.generations.length, {
          checks: event.generations.some(({ progress }) => progress.passing !== null),
          files: event.generations.some(({ progress }) => progress.files !== null),
        }),
        ...event.generations.map(({ generation, progress }) =>
          t.progress(generation, progressParts(progress, t)),
        ),
        ...(event.handoff !== null ? [t.driftHandoff(event.handoff)] : []),
      ];
    case "work-checkpoint":
      // Only a checkpoint that changed files, and only under -v: one a call, most calls have one.
      if (!view.verbose || !event.changed || event.files.length === 0) return [];
      return [
        t.checkpoint(
          event.files.length,
          namedFiles(event.files, t.moreFiles),
          event.tool === undefined ? null : oneLine(event.tool),
        ),
      ];
    default:
      return [];
  }
}

/** What a handoff's progress line says: the checks (when the goal has some) and the files (when known). */
function progressParts(progress: GenerationProgress, t: DisplayText): string[] {
  const parts: string[] = [];
  if (progress.passing !== null)
    parts.push(t.progressChecks(progress.passing.length, progress.checks, progress.newlyPassing.length));
  if (progress.files !== null) parts.push(t.progressFiles(progress.files));
  return parts;
}
