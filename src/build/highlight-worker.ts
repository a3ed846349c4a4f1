/**
 * A highlighting worker (see highlight-pool.ts): highlights batches of blocks and hands the lines
 * back to the pool's thread, the cache's one writer. Workers that stored their own batches waited on
 * each other's write locks (SQLite's busy handler sleeps): up to 1.3 s of a 15 s stage at 10k records.
 */
import { parentPort } from 'node:worker_threads';
import { storedText } from '../highlight/cache.ts';
import { highlightLines } from '../highlight/highlighter.ts';
import type { HighlightBatch, HighlightBatchDone } from './highlight-pool.ts';

parentPort!.on('message', async (batch: HighlightBatch) => {
  const blocks: HighlightBatchDone['blocks'] = [];
  for (const block of batch.blocks) blocks.push({ key: block.key, text: storedText(await highlightLines(block.code, block.lang)) });
  parentPort!.postMessage({ id: batch.id, blocks } satisfies HighlightBatchDone);
});
