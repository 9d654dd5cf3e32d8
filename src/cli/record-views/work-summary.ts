/**
 * A step's work (src/checkpoints/) as a person reads it: the files each generation changed, named up to a few;
 * the files left out of the checkpoints; the generations a rewind took back. Shared by `flower show`,
 * the report's input (commands/report.ts) and the live page's rows (serve-rows.ts). A record written
 * before checkpoints were kept (or with them off) has no `work`: each of these then gives nothing.
 */
import type { GenerationRecord, StepRecord } from "../../records/step-record.js";
import type { ReportGeneration, ReportStep } from "../../report/report-input.js";
import { generationTurns } from "../../records/turns.js";
import type { LeftOut } from "../../checkpoints/shadow-repo.js";
import { formatSize } from "../../workbench/describe-file.js";
import { oneLine } from "../live/terminal-text.js";

/** How many files a line names before "and N more". */
export const FILES_NAMED = 8;

/** `a.ts, b.ts, c.ts` — at most `max` names, then `more(rest)` (` and 4 more`). */
export function namedFiles(
  files: readonly string[],
  more: (rest: number) => string,
  max: number = FILES_NAMED,
): string {
  const shown = files
    .slice(0, max)
    .map((file) => oneLine(file))
    .join(", ");
  return files.length > max ? `${shown}${more(files.length - max)}` : shown;
}

/** The words a left-out file is said with, each with its own leading space where the language has one. */
export interface LeftOutWords {
  tooLarge: (size: string | null) => string;
  nestedRepository: string;
  /** Why an untracked file looked like a secret (its name, a private key in it, a credential). */
  secret: (sign: LeftOut["sign"]) => string;
}

/** `big.bin (too large, 120.0 MB)`, `vendor/lib (a repository of its own)`. */
export function leftOutName(entry: LeftOut, words: LeftOutWords): string {
  const why =
    entry.why === "too-large"
      ? words.tooLarge(entry.bytes === undefined ? null : formatSize(entry.bytes))
      : entry.why === "secret"
        ? words.secret(entry.sign)
        : words.nestedRepository;
  return `${oneLine(entry.path)}${why}`;
}

/**
 * The files the step's current generations changed, each once in the order they first changed; null
 * when no generation recorded its work (a record from before checkpoints, or with them off).
 */
export function stepFiles(record: StepRecord): string[] | null {
  const books = record.history.flatMap((generation) => (generation.work ? [generation.work] : []));
  if (books.length === 0) return null;
  return [...new Set(books.flatMap((work) => work.files))];
}

/** A generation as the report draws it (the same fields as cli/record-views/step-report-input.ts gives, with its files). */
export function reportGeneration(generation: GenerationRecord): ReportGeneration {
  return {
    generation: generation.generation,
    costUsd: generation.costUsd,
    numTurns: generationTurns(generation),
    ...(generation.handoff
      ? {
          handoff: {
            degraded: generation.handoff.degraded,
            ...(generation.handoff.path ? { path: generation.handoff.path } : {}),
          },
        }
      : {}),
    ...(generation.work ? { files: [...generation.work.files] } : {}),
  };
}

/**
 * The report's step with the record's work laid on: each generation's files, the files left out and the
 * warnings, and the generations a rewind took back. A record without work gives the step unchanged.
 */
export function withWork(step: ReportStep, record: StepRecord): ReportStep {
  const files = new Map(
    record.history.flatMap((generation) =>
      generation.work ? [[generation.generation, generation.work.files] as const] : [],
    ),
  );
  const work = record.work;
  const rewound = record.rewound ?? [];
  if (files.size === 0 && !work && rewound.length === 0) return step;
  return {
    ...step,
    generations: step.generations.map((generation) => {
      const changed = files.get(generation.generation);
      return changed ? { ...generation, files: [...changed] } : generation;
    }),
    ...(work && work.leftOut.length > 0 ? { leftOut: work.leftOut.map((entry) => ({ ...entry })) } : {}),
    ...(work?.warnings && work.warnings.length > 0 ? { workWarnings: [...work.warnings] } : {}),
    ...(rewound.length > 0
      ? {
          rewound: rewound.map((entry) => ({
            at: entry.at,
            to: entry.to,
            generations: entry.generations.map(reportGeneration),
          })),
        }
      : {}),
  };
}
