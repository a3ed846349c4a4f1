/** A scan worker thread: parses the files the pool sends and answers with their raise sites. */
import { parentPort } from 'node:worker_threads';
import { readSourceFile } from './read-file.ts';
import type { ScanLanguage } from './select.ts';

parentPort!.on('message', (job: { id: number; language: ScanLanguage; source: string }) => {
  readSourceFile(job.language, job.source).then(
    (result) => parentPort!.postMessage({ id: job.id, result }),
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
