/**
 * `errdex lookup`: a pasted error against a built errdex site, answered as its search page would
 * answer it, with the same index files and the same matcher (src/search/index-source.ts): the
 * manifest, the shards the paste's keys name, then for a match the one JSON twin the answer quotes.
 * Nothing else is read, so a lookup over HTTP costs what a paste in the browser costs.
 */
import type { FilledHole } from '../schema/message-template.ts';
import { indexSource } from '../search/index-source.ts';
import { warmUp } from '../search/warm-up.ts';
import type { MatchResult } from '../search/matcher.ts';
import { INDEX_FORMAT, type MessageIndexManifest } from '../search/message-index.ts';
import { matchAttribute } from '../search/results.ts';
import { API_MANIFEST_PATH, MESSAGE_INDEX_PATH } from '../util/urls.ts';
import { pageAnswer } from './answer.ts';
import { SiteError, type Site, type SiteRead } from './site.ts';
import { twinFacts, twinPath, type TwinFacts } from './twin.ts';

/** Results the matcher ranks: as many as the search page's worker asks for, so both answer alike. */
export const MATCH_LIMIT = 20;

export interface Place {
  file: string;
  line: number | null;
  /** The function (and class) around the raise, when its excerpt shows it. */
  scope: string | null;
}

export interface PageRef {
  /** Root-relative page path, without the site's base path. */
  path: string;
  /** The page's absolute URL: the site's, or for a folder its configured site URL's (null without one). */
  url: string | null;
  /** For a folder: the page's file in it. */
  pageFile: string | null;
}

export interface FoundAnswer extends PageRef {
  status: 'found';
  /** `exact`: the pattern matched; `close`: a near miss the page counts as a match. */
  match: 'exact' | 'close';
  /** The page lists every place one message is raised in, none of which the paste picks. */
  messagePage: boolean;
  message: string;
  repo: string;
  errorClass: string | null;
  /** The pasted line it matched, and what its placeholders took there. */
  line: string;
  values: FilledHole[];
  /** Where it is raised (for a message page: the likeliest of its places), with its GitHub link. */
  raised: Place & { github: string | null };
  /** For a message page: each place among the matcher's results, with its own page. */
  places: (Place & PageRef)[];
  meaning: string | null;
  firstSolution: string | null;
  /** Set when the record's JSON twin could not be read: the meaning is then the index's start of it. */
  note: string | null;
}

export interface NoEntryAnswer {
  status: 'no-entry';
  /** What the page would list as "possibly related": not matches. */
  related: (PageRef & {
    message: string;
    repo: string;
    errorClass: string | null;
    /** The class the paste names, another than this entry's (search/results.ts `SearchHit.otherClass`). */
    otherClass?: string;
    /** The file this entry raises it in, when the paste's traceback does not go through it (`SearchHit.siteMissed`). */
    missedFile?: string;
  })[];
}

export type LookupAnswer = (FoundAnswer | NoEntryAnswer) & {
  site: string;
  /** Every file read and its bytes (over HTTP, the response bodies as decoded). */
  reads: SiteRead[];
  bytes: number;
  ms: number;
};

export async function lookup(paste: string, site: Site): Promise<LookupAnswer> {
  const started = performance.now();
  const index = indexSource((path) => site.readJson(`${MESSAGE_INDEX_PATH}${path}`));
  // Read first, so that a wrong address or an index of another format is said as such.
  checkManifest(await index.manifest().catch((e: unknown) => {
    throw new SiteError(`${e instanceof Error ? e.message : String(e)} (an errdex site's root, the folder or URL it is served from with its base path, holds search-index/manifest.json)`);
  }));
  // Trimmed as the search page trims what it is given, so that both match the same text.
  // Over HTTP, while the shards come, the matcher's code is warmed as the page's worker warms it for
  // a first paste (warm-up.ts): a lookup is always a first paste.
  const match = await index.match(paste.trim(), MATCH_LIMIT, site.kind === 'url' ? warmUp : undefined);
  const answer = pageAnswer(match);
  // A folder's pages have the site's public URL only if the build wrote one down (its API manifest).
  const siteUrl = site.kind === 'folder' ? await configuredSiteUrl(site) : null;
  const ref = (path: string): PageRef => ({
    path,
    url: site.kind === 'url' ? site.location(path) : siteUrl && new URL(path.slice(1), siteUrl).href,
    pageFile: site.kind === 'folder' ? site.location(path) : null,
  });
  const done = (a: FoundAnswer | NoEntryAnswer): LookupAnswer => ({
    ...a,
    site: site.root,
    reads: site.reads,
    bytes: site.reads.reduce((s, r) => s + r.bytes, 0),
    ms: Math.round(performance.now() - started),
  });
  if (!answer.found) {
    return done({
      status: 'no-entry',
      related: answer.related.map((h) => ({
        ...ref(h.path),
        message: h.template,
        repo: h.repo,
        errorClass: h.errorClass,
        ...(h.otherClass ? { otherClass: h.otherClass } : {}),
        ...(h.siteMissed && h.site ? { missedFile: h.site.file } : {}),
      })),
    });
  }
  const { hit, top, places } = answer;
  let facts: TwinFacts | null = null;
  let note: string | null = null;
  try {
    facts = twinFacts(top.entry.id, await site.readJson(twinPath(top.entry.id)));
    if (!facts) note = `${twinPath(top.entry.id)} is not this record's JSON twin`;
  } catch (e) {
    // The index found the page: a missing twin costs the answer its details, not the answer.
    note = e instanceof Error ? e.message : String(e);
  }
  return done({
    status: 'found',
    ...ref(hit.path),
    match: matchAttribute(hit.kind) === 'close' ? 'close' : 'exact',
    messagePage: hit.messagePage === true,
    message: hit.template,
    repo: hit.repo,
    errorClass: hit.errorClass,
    line: top.line,
    values: top.values ?? [],
    raised: { ...place(top), github: facts?.githubUrl ?? null },
    places: places.map((r) => ({ ...place(r), ...ref(`/${r.entry.repo}/${r.entry.slug}/`) })),
    // Without a readable twin, the index's start of the explanation.
    meaning: facts ? facts.meaning : top.entry.summary || null,
    firstSolution: facts?.firstSolution ?? null,
    note,
  });
}

/**
 * The site may have been built by another errdex than this one: an index of another format would be
 * misread, so it is refused with both formats named.
 */
function checkManifest(m: MessageIndexManifest): void {
  if (m?.format !== INDEX_FORMAT) throw new SiteError(`the site's message index is format ${JSON.stringify(m?.format ?? null)}; this errdex reads format ${INDEX_FORMAT} (look it up with the errdex version that built the site)`);
}

const place = (r: MatchResult): Place => ({ file: r.entry.file, line: r.entry.line, scope: r.entry.scope });

/** The site's public URL with its base path (`/api/manifest.json` `siteUrl`), or null. */
async function configuredSiteUrl(site: Site): Promise<string | null> {
  const manifest = await site.readJson(API_MANIFEST_PATH).catch(() => null);
  const url = (manifest as { siteUrl?: unknown } | null)?.siteUrl;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return null;
  return url.endsWith('/') ? url : `${url}/`;
}
