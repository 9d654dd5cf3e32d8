/**
 * The whole load-time rewrite as one pure function, in a fixed order: disconnect remnants first (a
 * synthetic error must not count as a turn or shield anything), then denials, then expiry, then trim
 * (so an expired glance result is never spilled: running it again gives the fresh one). Expiry and trim
 * only replace result contents: they plan on one shared scan and are applied in one walk (result-scan.ts).
 *
 * Every pass counts and rewrites on the resumed chain, worked out once from the input (resumed-chain.ts):
 * a removal re-links around what it removes, so what stays keeps its place on or off the chain.
 */
import type { Locale } from "../../locale/locale.js";
import { planExpiry } from "./expire-ephemeral.js";
import { pruneDenials } from "./prune-denials.js";
import { pruneDisconnects } from "./prune-disconnects.js";
import { resumedChain } from "./resumed-chain.js";
import { addReports, emptyReport, type RewriteReport } from "./rewrite-report.js";
import { ResultReplacements, scanResults } from "./result-scan.js";
import type { Entry } from "./transcript-entries.js";
import { planTrim, type SpillFile } from "./trim-results.js";

export interface RewriteOptions {
  locale: Locale;
  /** Expiry; null skips it. */
  expire: { keepEphemeral: number; isEphemeral: (command: string) => boolean } | null;
  /** Denial pruning; null skips it. */
  denials: { keepDenials: number } | null;
  /** Disconnect remnants. */
  disconnects: boolean;
  /** Trim; null when off. */
  trim: { keepRecent: number; minChars: number; spillDir: string } | null;
}

export interface RewriteResult {
  entries: Entry[];
  report: RewriteReport;
  spills: SpillFile[];
}

export function rewriteTranscript(input: readonly Entry[], options: RewriteOptions): RewriteResult {
  const { locale } = options;
  let entries: readonly Entry[] = input;
  let report = emptyReport();
  const chain = resumedChain(input);
  if (options.disconnects) {
    const pass = pruneDisconnects(entries, { locale }, chain);
    ({ entries } = pass);
    report = addReports(report, pass.report);
  }
  if (options.denials) {
    const pass = pruneDenials(entries, options.denials, chain);
    ({ entries } = pass);
    report = addReports(report, pass.report);
  }
  let spills: SpillFile[] = [];
  if (options.expire || options.trim) {
    const scan = scanResults(entries, chain);
    const replacements = new ResultReplacements();
    if (options.expire)
      report = addReports(report, planExpiry(scan, { ...options.expire, locale }, replacements));
    if (options.trim) {
      const planned = planTrim(scan, { ...options.trim, locale }, replacements);
      spills = planned.spills;
      report = addReports(report, planned.report);
    }
    return { entries: replacements.apply(entries), report, spills };
  }
  return { entries: [...entries], report, spills };
}
