/** This build's sitemap plan: every indexable page, from the derived catalog and the listings. */

import { getDerived } from '../context.ts';
import { classListing, tagListing } from './collection-listing.ts';
import { repoListing } from './repo-listing.ts';
import { planSitemaps, type SitemapPlan, type SitemapUrl } from './sitemap.ts';
import { isoDate } from '../util/text.ts';
import { CLASSES_PATH, TAGS_PATH, errorPath } from '../util/urls.ts';

let cached: SitemapPlan | undefined;

export function getSitemapPlan(): SitemapPlan {
  if (cached) return cached;
  const d = getDerived();
  const site: SitemapUrl[] = [
    { path: '/' },
    { path: CLASSES_PATH },
    ...d.classes.flatMap((c) => classListing(c).pages.map((p) => ({ path: p.path }))),
    { path: TAGS_PATH },
    ...d.tags.flatMap((t) => tagListing(t).pages.map((p) => ({ path: p.path }))),
  ];
  const repos = new Map(
    d.repos.map((s) => [
      s.repo,
      [
        ...repoListing(s).pages.map((p) => ({ path: p.path, lastmod: isoDate(s.analyzedAt) })),
        ...s.entries.map((e) => ({ path: errorPath(e.record), lastmod: isoDate(e.record.analyzedAt) })),
      ],
    ]),
  );
  return (cached = planSitemaps(site, repos));
}
