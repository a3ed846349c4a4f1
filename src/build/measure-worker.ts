/**
 * Measures some folders of a site in a worker thread, beside the build's own walk of the others
 * (src/build/summary.ts `measureSiteBeside`): `measureInWorker` starts it and resolves with its figures.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { siblingUrl } from '../util/sibling.ts';
import { measureFolders, type SiteFigures } from './summary.ts';

interface Job {
  measure: { site: string; dirs: string[] };
}

export function measureInWorker(site: string, dirs: string[]): Promise<SiteFigures> {
  return new Promise<SiteFigures>((resolve, reject) => {
    const worker = new Worker(siblingUrl('./measure-worker.ts', import.meta.url), { workerData: { measure: { site, dirs } } satisfies Job });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`measuring the site: its worker thread ended (${code}) without figures`)));
  });
}

// Only in the thread started for it: the build's other worker threads never import this module, but say so.
const job = isMainThread ? undefined : (workerData as Partial<Job> | undefined)?.measure;
if (job) parentPort!.postMessage(measureFolders(job.site, job.dirs));
