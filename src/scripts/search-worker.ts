/**
 * The paste matcher off the main thread: a 1 MB paste or a slow pattern can never freeze the page,
 * and the page can stop this worker when it runs past its deadline.
 *
 * Receives `{ seq, query, indexUrl }`, answers `{ seq, results, timings, shards, candidates }` or `{ seq, error }`.
 */
import { matchPaste, type MatchResult, type MatchTimings } from '../search/matcher.ts';
import type { EntryTuple, MessageIndexManifest } from '../search/message-index.ts';

export interface MatchRequest {
  seq: number;
  query: string;
  /** Absolute URL of the `search-index/` folder. */
  indexUrl: string;
}

export type MatchResponse =
  | { seq: number; results: MatchResult[]; timings: MatchTimings; shards: number; candidates: number; fullTextWords: string[] }
  | { seq: number; error: string };

let manifest: Promise<MessageIndexManifest> | null = null;
const shards = new Map<string, Promise<EntryTuple[]>>();

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

async function run(req: MatchRequest): Promise<MatchResponse> {
  manifest ??= getJson<MessageIndexManifest>(`${req.indexUrl}manifest.json`);
  let m: MessageIndexManifest;
  try {
    m = await manifest;
  } catch (e) {
    manifest = null;
    throw e;
  }
  const load = (n: number) => {
    const url = `${req.indexUrl}${m.version}/${n}.json`;
    let p = shards.get(url);
    if (!p) {
      p = getJson<EntryTuple[]>(url);
      p.catch(() => shards.delete(url));
      shards.set(url, p);
    }
    return p;
  };
  try {
    const r = await matchPaste(req.query, m, load);
    return { seq: req.seq, results: r.results, timings: r.timings, shards: r.shards.length, candidates: r.candidates, fullTextWords: r.fullTextWords };
  } catch (e) {
    // A new build replaced the shards this manifest names: read the manifest again next time.
    manifest = null;
    throw e;
  }
}

self.addEventListener('message', (event: MessageEvent<MatchRequest>) => {
  run(event.data).then(
    (answer) => self.postMessage(answer),
    (e: unknown) => self.postMessage({ seq: event.data.seq, error: e instanceof Error ? e.message : String(e) } satisfies MatchResponse),
  );
});
