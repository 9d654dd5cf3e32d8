/**
 * A run's context in one line: one block per main-thread turn, its height the context that turn sent,
 * and a `│` where a generation handed off to the next. `flower show` prints it under a step, so it must
 * fit the terminal: when the turns do not fit in `width`, neighbouring turns of the same generation
 * share a cell that shows their highest context (the peak is what matters next to a handoff line).
 */
import { ConfigurationError } from "../errors.js";

export const SPARK_LEVELS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] as const;
export const HANDOFF_MARK = "│";

export interface SparklineTurn {
  generation: number;
  context: number;
}

export interface SparklineOptions {
  /** Most characters the line may take, handoff marks included. */
  width: number;
  /**
   * The context drawn as a full block (the window, or the handoff threshold). Higher values are drawn
   * full too. @default the highest context in the series
   */
  max?: number;
}

/** The block for `value` on a scale whose top is `max`. */
export function sparkLevel(value: number, max: number): string {
  if (max <= 0 || value <= 0) return SPARK_LEVELS[0];
  const index = Math.min(SPARK_LEVELS.length - 1, Math.floor((value / max) * SPARK_LEVELS.length));
  return SPARK_LEVELS[index]!;
}

/** Consecutive runs of turns in the same generation. */
function generationsOf(turns: readonly SparklineTurn[]): number[][] {
  const groups: number[][] = [];
  let current: number | undefined;
  for (const turn of turns) {
    if (turn.generation !== current) {
      groups.push([]);
      current = turn.generation;
    }
    groups.at(-1)!.push(turn.context);
  }
  return groups;
}

/** Splits `values` into `cells` contiguous buckets of near-equal size and keeps each bucket's peak. */
function peaks(values: readonly number[], cells: number): number[] {
  if (values.length <= cells) return [...values];
  const result: number[] = [];
  for (let cell = 0; cell < cells; cell++) {
    const start = Math.floor((cell * values.length) / cells);
    const end = Math.floor(((cell + 1) * values.length) / cells);
    result.push(Math.max(...values.slice(start, end)));
  }
  return result;
}

/**
 * Gives each generation a share of `cells` proportional to its turns, at least one each, and never
 * more than it has turns. Largest remainders get the spare cells, so the shares add up exactly.
 */
function shares(sizes: readonly number[], cells: number): number[] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= cells) return [...sizes];
  const spare = cells - sizes.length;
  const exact = sizes.map((size) => ((size - 1) / (total - sizes.length)) * spare);
  const result = exact.map((share, index) => 1 + Math.min(sizes[index]! - 1, Math.floor(share)));
  let left = cells - result.reduce((sum, share) => sum + share, 0);
  const order = exact
    .map((share, index) => ({ index, remainder: share - Math.floor(share) }))
    .sort((a, b) => b.remainder - a.remainder);
  while (left > 0) {
    let placed = false;
    for (const { index } of order) {
      if (left === 0) break;
      if (result[index]! < sizes[index]!) {
        result[index]! += 1;
        left -= 1;
        placed = true;
      }
    }
    if (!placed) break;
  }
  return result;
}

/**
 * The sparkline of a per-turn context series. Handoffs are marked with `│` between generations; when
 * even one cell per generation plus its mark does not fit in `width`, the marks are dropped and the
 * whole series is drawn as peaks, since a line that overflows the terminal helps nobody.
 */
export function sparkline(turns: readonly SparklineTurn[], options: SparklineOptions): string {
  const list: unknown = turns;
  if (!Array.isArray(list)) throw new ConfigurationError("sparkline turns", list, "an array of turns");
  const { width } = options;
  if (!Number.isInteger(width) || width < 1) {
    throw new ConfigurationError("sparkline width", width, "an integer >= 1");
  }
  turns.forEach((turn, index) => {
    if (typeof turn?.context !== "number" || !Number.isFinite(turn.context) || turn.context < 0) {
      throw new ConfigurationError(
        `sparkline turns[${index}].context`,
        turn?.context,
        "a finite number >= 0",
      );
    }
  });
  if (options.max !== undefined && (!Number.isFinite(options.max) || options.max <= 0)) {
    throw new ConfigurationError("sparkline max", options.max, "a number > 0");
  }
  if (turns.length === 0) return "";
  const max = options.max ?? Math.max(...turns.map((turn) => turn.context));
  const groups = generationsOf(turns);
  const marks = groups.length - 1;
  if (groups.length + marks > width) {
    return peaks(
      turns.map((turn) => turn.context),
      width,
    )
      .map((value) => sparkLevel(value, max))
      .join("");
  }
  const cells = shares(
    groups.map((group) => group.length),
    width - marks,
  );
  return groups
    .map((group, index) =>
      peaks(group, cells[index]!)
        .map((value) => sparkLevel(value, max))
        .join(""),
    )
    .join(HANDOFF_MARK);
}
