/**
 * Whether the matcher found the pasted error with confidence, or the catalog has no entry for it:
 * then the search page says so plainly, shows at most a few "possibly related" rows and offers
 * the full-text search, instead of a list of unrelated near misses.
 */
import type { MatchResult } from './matcher.ts';

export function noConfidentMatch(results: readonly MatchResult[]): boolean {
  return results.length === 0;
}
