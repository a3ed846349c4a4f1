/**
 * The paste matcher off the main thread: a 1 MB paste or a slow pattern can never freeze the page,
 * and the page can stop this worker when it runs past its deadline.
 *
 * Receives `{ seq, query, indexUrl }`, answers `{ seq, results, timings, shards, candidates, fullTextWords }`
 * or `{ seq, error }`; `{ warm, indexUrl }` (no answer) fetches the manifest and warms the matcher's code
 * (warm-up.ts `warmUpFully`).
 */
import { matchPaste, type MatchResult, type MatchTimings } from '../search/matcher.ts';
import type { EntryTuple, MessageIndexManifest } from '../search/message-index.ts';
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
  | { seq: number; results: MatchResult[]; timings: MatchTimings; shards: number; candidates: number; fullTextWords: string[] }
  | { seq: number; error: string };

let manifest: Promise<MessageIndexManifest> | null = null;
let warmed = false;
const warm = () => {
  warmed = true;
  return warmUp();
};
const shards = new Map<string, Promise<EntryTuple[]>>();

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

function loadManifest(indexUrl: string): Promise<MessageIndexManifest> {
  manifest ??= getJson<MessageIndexManifest>(`${indexUrl}manifest.json`);
  return manifest;
}

async function run(req: MatchRequest): Promise<MatchResponse> {
  let m: MessageIndexManifest;
  try {
    m = await loadManifest(req.indexUrl);
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
    // A first query the page could not warm up for (it opened with ?q=): warm while the shards come.
    const r = await matchPaste(req.query, m, load, 20, warmed ? undefined : warm);
    return { seq: req.seq, results: r.results, timings: r.timings, shards: r.shards.length, candidates: r.candidates, fullTextWords: r.fullTextWords };
  } catch (e) {
    // A new build replaced the shards this manifest names: read the manifest again next time.
    manifest = null;
    throw e;
  }
}

self.addEventListener('message', (event: MessageEvent<MatchRequest | WarmRequest>) => {
  const req = event.data;
  if ('warm' in req) {
    loadManifest(req.indexUrl).catch(() => (manifest = null));
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
