/**
 * Workload 3's paired mode: flower's callbacks and empty ones take turns call by call in one session, so
 * that load drifting between sessions falls on neither. Which side a call takes, and the differences of
 * neighbouring calls, are kept here, apart from the driver, so a unit test can pin them.
 */
export type Side = "flower" | "empty";

/**
 * The side of the `index`th tool call of a paired session: flower, empty, empty, flower, flower, ...
 * Each neighbouring pair (0-1, 2-3, ...) has one call of each side, and which comes first alternates,
 * so a trend along the session (the conversation grows each call) does not favour either side.
 */
export function pairedSide(index: number): Side {
  return Math.floor((index + 1) / 2) % 2 === 0 ? "flower" : "empty";
}

/**
 * The differences flower − empty of neighbouring pairs (0-1, 2-3, ...) of a paired session's gaps,
 * `sides[i]` being the side of `gaps[i]`; a pair whose two calls took the same side is skipped.
 */
export function pairedDifferences(gaps: readonly number[], sides: readonly Side[]): number[] {
  const differences: number[] = [];
  for (let index = 0; index + 1 < Math.min(gaps.length, sides.length); index += 2) {
    if (sides[index] === sides[index + 1]) continue;
    const [first, second] = [gaps[index]!, gaps[index + 1]!];
    differences.push(sides[index] === "flower" ? first - second : second - first);
  }
  return differences;
}
