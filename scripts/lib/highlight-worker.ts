/** A highlighting worker (see highlight-pool.ts): highlights batches of blocks into the highlight cache. */
import { parentPort, workerData } from 'node:worker_threads';
import { writeCachedLines } from '../../src/highlight/cache.ts';
import { highlightLines } from '../../src/highlight/highlighter.ts';
import type { HighlightBatch, HighlightBatchDone } from './highlight-pool.ts';

const { dir } = workerData as { dir: string };

parentPort!.on('message', async (batch: HighlightBatch) => {
  let bytes = 0;
  for (const block of batch.blocks) {
    const lines = await highlightLines(block.code, block.lang);
    writeCachedLines(dir, block.key, lines);
    for (const l of lines) bytes += Buffer.byteLength(l) + 1;
  }
  parentPort!.postMessage({ id: batch.id, count: batch.blocks.length, bytes } satisfies HighlightBatchDone);
});
