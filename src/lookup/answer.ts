/**
 * What the lookup answers for the matcher's results: what the search page would show first, decided
 * by the page's own rules (src/client/search-page.ts): no confident match means the catalog has no
 * entry for the error (confidence.ts), and the rows that page would then label "possibly related";
 * else the page's first row (results.ts `mergeHits`, without full text, which the page runs only when
 * the matcher found nothing): a record's page, or the message page when the paste does not say which
 * of several places raised it. Pure, so a test can hold it to the page's answer.
 */
import { noConfidentMatch } from '../search/confidence.ts';
import type { MatchResult, PasteMatch } from '../search/matcher.ts';
import { mergeHits, type SearchHit } from '../search/results.ts';

export type PageAnswer =
  | {
      found: true;
      /** The page's first row. */
      hit: SearchHit;
      /** The record whose page the row is, or the likeliest of the message page's records. */
      top: MatchResult;
      /** For a message page: the records it lists among the matcher's results, the likeliest first. */
      places: MatchResult[];
    }
  | { found: false; related: SearchHit[] };

export function pageAnswer({ results, related }: Pick<PasteMatch, 'results' | 'related'>): PageAnswer {
  if (noConfidentMatch(results)) return { found: false, related: mergeHits(related, []) };
  const hit = mergeHits(results, [])[0]!;
  const places = hit.messagePage ? results.filter((r) => r.entry.messagePage === hit.path) : [];
  const top = places[0] ?? results.find((r) => `/${r.entry.repo}/${r.entry.slug}/` === hit.path)!;
  return { found: true, hit, top, places };
}
