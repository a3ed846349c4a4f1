/**
 * Lookups in an ascending array of starts (line starts of a text, first rows of row files): which
 * span a position falls in, by binary search.
 */

/** The index of the last of `starts` (ascending, `starts[0]` at or below `at`) that is at or below `at`. */
export function spanOf(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
