/**
 * The real-set benchmark's cold pass (scripts/bench-search-real.ts `--cold N`): each paste in a new
 * Node thread that has only run the warm-up match (bench/lib/cold-query.ts), as on a fresh search
 * page, so that its compile and first-call costs show as they do in the browser's worker. The
 * matcher's own time (normalise and rank), as the search page reports it.
 */
import { Worker } from 'node:worker_threads';

export interface ColdOutcome {
  query: string;
  normaliseMs: number;
  rankMs: number;
  candidates: number;
  shards: number;
}

const ENTRY = new URL('./cold-query.ts', import.meta.url);

function one(root: string, query: string): Promise<ColdOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(ENTRY, { workerData: { root, query } });
    worker.once('message', (m: Omit<ColdOutcome, 'query'>) => resolve({ query, ...m }));
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`cold query thread exited with ${code}`)));
  });
}

/** Each query, one after the other, in a thread of its own; `root`: the `search-index/` folder. */
export async function coldOutcomes(root: string, queries: readonly string[]): Promise<ColdOutcome[]> {
  const out: ColdOutcome[] = [];
  for (const q of queries) out.push(await one(root, q));
  return out;
}
