/** A highlighting worker (see highlight-pool.ts): highlights batches of blocks and hands back their lines. */
import { parentPort } from 'node:worker_threads';
import { highlightLines } from '../../src/highlight/highlighter.ts';
import type { HighlightBatch, HighlightBatchDone } from './highlight-pool.ts';

parentPort!.on('message', async (batch: HighlightBatch) => {
  const blocks: HighlightBatchDone['blocks'] = [];
  for (const block of batch.blocks) blocks.push({ key: block.key, lines: await highlightLines(block.code, block.lang) });
  parentPort!.postMessage({ id: batch.id, blocks } satisfies HighlightBatchDone);
});
