/**
 * The action's lookup: `errdex lookup` (src/lookup/) against the deployed site, its answer narrowed to
 * what the comment quotes. Only a page the site's search would show as a match counts; "no entry"
 * (and the possibly related rows that come with it) is no page.
 */
import { lookup } from '../lookup/lookup.ts';
import type { Site } from '../lookup/site.ts';
import type { PageMatch } from './comment.ts';

export function finder(site: Site): (paste: string) => Promise<PageMatch | null> {
  return async (paste) => {
    const a = await lookup(paste, site);
    // A site given by URL always has page URLs; a folder may not, and a comment needs a link.
    if (a.status !== 'found' || !a.url) return null;
    return {
      url: a.url,
      match: a.match,
      messagePage: a.messagePage,
      message: a.message,
      repo: a.repo,
      errorClass: a.errorClass,
      raised: a.raised,
      meaning: a.meaning,
      firstSolution: a.firstSolution,
    };
  };
}
