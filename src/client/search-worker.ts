/**
 * The paste matcher off the main thread: a 1 MB paste or a slow pattern can never freeze the page,
 * and the page can stop this worker when it runs past its deadline.
 *
 * Receives `{ seq, query, indexUrl }`, answers `{ seq, results, related, timings, shards, candidates, fullTextWords }`
 * or `{ seq, error }`; `{ warm, indexUrl }` (no answer) fetches the manifest and warms the matcher's code
 * (warm-up.ts `warmUpFully`).
 */
import type { MatchResult, MatchTimings } from '../search/matcher.ts';
import { indexSource, type IndexSource } from '../search/index-source.ts';
import { warmUp, warmUpFully } from '../search/warm-up.ts';

export interface MatchRequest {
  seq: number;
  query: string;
  /** Absolute URL of the `search-index/` folder. */
  indexUrl: string;
}

/** Sent when the page opens with nothing to search yet: fetch the manifest and warm the matcher's code. */
export interface WarmRequest {
  warm: true;
  indexUrl: string;
}

export type MatchResponse =
  | { seq: number; results: MatchResult[]; related: MatchResult[]; timings: MatchTimings; shards: number; candidates: number; fullTextWords: string[] }
  | { seq: number; error: string };

let warmed = false;
const warm = () => {
  warmed = true;
  return warmUp();
};
const sources = new Map<string, IndexSource>();

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

function sourceOf(indexUrl: string): IndexSource {
  let source = sources.get(indexUrl);
  if (!source) sources.set(indexUrl, (source = indexSource((path) => getJson(`${indexUrl}${path}`))));
  return source;
}

async function run(req: MatchRequest): Promise<MatchResponse> {
  // A first query the page could not warm up for (it opened with ?q=): warm while the shards come.
  const r = await sourceOf(req.indexUrl).match(req.query, 20, warmed ? undefined : warm);
  return { seq: req.seq, results: r.results, related: r.related, timings: r.timings, shards: r.shards.length, candidates: r.candidates, fullTextWords: r.fullTextWords };
}

self.addEventListener('message', (event: MessageEvent<MatchRequest | WarmRequest>) => {
  const req = event.data;
  if ('warm' in req) {
    sourceOf(req.indexUrl).manifest().catch(() => undefined); // a head start only
    if (!warmed) {
      warmed = true;
      warmUpFully().catch(() => undefined); // a head start only
    }
    return;
  }
  run(req).then(
    (answer) => self.postMessage(answer),
    (e: unknown) => self.postMessage({ seq: req.seq, error: e instanceof Error ? e.message : String(e) } satisfies MatchResponse),
  );
});
