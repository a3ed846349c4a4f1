/**
 * A highlighting worker (see highlight-pool.ts): highlights batches of blocks and stores them in the
 * highlight cache itself (a transaction per batch), so that the thread holding the catalog only
 * hands out work.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { HighlightStore } from '../../src/highlight/cache.ts';
import { highlightLines } from '../../src/highlight/highlighter.ts';
import type { HighlightBatch, HighlightBatchDone } from './highlight-pool.ts';

const store = new HighlightStore((workerData as { file: string }).file);

parentPort!.on('message', async (batch: HighlightBatch) => {
  const blocks: { key: string; lines: string[] }[] = [];
  let bytes = 0;
  for (const block of batch.blocks) {
    const lines = await highlightLines(block.code, block.lang);
    for (const l of lines) bytes += Buffer.byteLength(l) + 1;
    blocks.push({ key: block.key, lines });
  }
  store.putMany(blocks);
  parentPort!.postMessage({ id: batch.id, count: blocks.length, bytes } satisfies HighlightBatchDone);
});
