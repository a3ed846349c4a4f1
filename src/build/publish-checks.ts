/**
 * What is checked before a site is published, so that no build replaces a good site with a wrong one
 * by accident: the counts of what the stages wrote agree with each other (every record has its error
 * page, JSON twin, index row, message-index entry and full-text page, and every page the render
 * listed is in the staging folder); and a build does not remove most of the published error pages
 * (an emptied or corrupted catalog file built with --skip-invalid) unless told to (--allow-mass-removal).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAGEFIND_DIR, PAGEFIND_PARTS_FILE } from './pagefind-bundle.ts';

/** Above this share of the published error pages removed, the build stops (--allow-mass-removal: publish anyway). */
export const MASS_REMOVAL_SHARE = 0.5;

/** The records of a site: the ids of its JSON twins (`api/errors/{id}.json`). */
export function siteRecordIds(siteDir: string): Set<string> {
  const dir = join(siteDir, 'api/errors');
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length)),
  );
}

/** Pages in a site's full-text index: the sum of its Pagefind parts' page counts. */
export function fullTextPages(siteDir: string): number {
  const root = join(siteDir, PAGEFIND_DIR);
  const partsFile = join(root, PAGEFIND_PARTS_FILE);
  const parts = existsSync(partsFile) ? (JSON.parse(readFileSync(partsFile, 'utf8')) as { parts: string[] }).parts : [];
  let pages = 0;
  for (const dir of ['', ...parts]) {
    const entry = join(root, dir, 'pagefind-entry.json');
    if (!existsSync(entry)) continue;
    const languages = (JSON.parse(readFileSync(entry, 'utf8')) as { languages: Record<string, { page_count: number }> }).languages;
    for (const l of Object.values(languages)) pages += l.page_count;
  }
  return pages;
}

export interface SiteCounts {
  /** Valid records of the catalog. */
  records: number;
  /** Error pages the render listed (rendered or reused), and how many of them are missing from the staging folder. */
  errorPages: number;
  missingPages: string[];
  jsonTwins: number;
  /** Rows of `api/errors.json`. */
  indexRows: number;
  messageIndex: number;
  fullText: number;
}

/** What disagrees among the counts; empty when all agree. */
export function countProblems(c: SiteCounts): string[] {
  const problems: string[] = [];
  if (c.records === 0) problems.push('the catalog has no valid records: there are no error pages to publish');
  const should = (what: string, n: number) => {
    if (n !== c.records) problems.push(`${n} ${what} for ${c.records} records`);
  };
  should('error pages', c.errorPages);
  should('JSON twins', c.jsonTwins);
  should('rows in api/errors.json', c.indexRows);
  should('records in the message index', c.messageIndex);
  should('pages in the full-text index', c.fullText);
  if (c.missingPages.length > 0) problems.push(`${c.missingPages.length} error pages listed but not written (${c.missingPages.slice(0, 3).join(', ')}${c.missingPages.length > 3 ? ', …' : ''})`);
  return problems;
}

export interface Removal {
  /** Where the published records were read from, how many there were and how many go. */
  source: string;
  published: number;
  removed: number;
}

/**
 * The removals that are over the share: of the records the published site holds (its JSON twins), and
 * of those the URL ledger has as published (the site folder may be new on a CI runner: the ledger
 * remembers). Empty when the build may publish.
 */
export function massRemovals(removals: readonly Removal[], share: number = MASS_REMOVAL_SHARE): Removal[] {
  return removals.filter((r) => r.published > 0 && r.removed / r.published > share);
}

/** How many of `published` are not in `next`. */
export function removedOf(published: ReadonlySet<string>, next: ReadonlySet<string>): number {
  let n = 0;
  for (const id of published) if (!next.has(id)) n++;
  return n;
}
