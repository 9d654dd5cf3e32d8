/**
 * What the drift watch measured, said the same way wherever a drift pause is told (the live view, the
 * continue line's neighbours, `flower show`, the report, a notifier): a run without a goal's checks is
 * watched by its files alone, one without checkpoints by its checks alone, and saying "made no newly
 * passing check" of a run that has no checks (a `--direct` run) names a measure that was never taken.
 */
import type { Locale } from "./locale.js";

/** What a drift pause's generations were measured by. */
export interface DriftMeasures {
  /** The goal's checks ran at their handoffs. */
  checks: boolean;
  /** Their files were counted (checkpoints). */
  files: boolean;
}

/** "made no newly passing check and changed no file", or the half that was measured. */
export function noProgress(measures: DriftMeasures, locale: Locale): string {
  const both = measures.checks && measures.files;
  if (locale === "zh")
    return both ? "既没有新通过的检查,也没有改动文件" : measures.checks ? "没有新通过的检查" : "没有改动文件";
  return both
    ? "made no newly passing check and changed no file"
    : measures.checks
      ? "made no newly passing check"
      : "changed no file";
}
