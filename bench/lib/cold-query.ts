/**
 * One query as the search page's worker runs it on a fresh page, in Node: a new thread (cold code,
 * empty caches), the warm-up first (src/search/warm-up.ts `warmUpFully`, as the page runs it before
 * the paste comes), then the paste, its shards read from the index folder. Run by
 * scripts/bench-search-real.ts (`--cold N`) to see in Node what the Chromium figure is made of.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { matchPaste } from '../../src/search/matcher.ts';
import { shardFile, type EntryTuple, type MessageIndexManifest } from '../../src/search/message-index.ts';
import { warmUpFully } from '../../src/search/warm-up.ts';

const { root, query } = workerData as { root: string; query: string };
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as MessageIndexManifest;
await warmUpFully();
const r = await matchPaste(query, manifest, async (n) => JSON.parse(readFileSync(join(root, shardFile(manifest, n)), 'utf8')) as EntryTuple[], 20);
parentPort!.postMessage({ normaliseMs: r.timings.normaliseMs, rankMs: r.timings.rankMs, candidates: r.candidates, shards: r.shards.length });
