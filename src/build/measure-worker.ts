/**
 * Measures some folders of a site in a worker thread: beside the build's own walk of the others
 * (src/build/summary.ts `measureSiteBeside`), or the render's folders once it has ended (`measureTops`).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { siblingUrl } from '../util/sibling.ts';
import { measureEachFolder, measureFolders, type FolderFigures, type SiteFigures } from './summary.ts';

interface Job {
  measure: { site: string; dirs: string[]; each?: boolean };
}

function inWorker<T>(job: Job['measure']): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(siblingUrl('./measure-worker.ts', import.meta.url), { workerData: { measure: job } satisfies Job });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`measuring the site: its worker thread ended (${code}) without figures`)));
  });
}

/** The figures of the files below `dirs`, folders of `site`, in a worker thread. */
export const measureInWorker = (site: string, dirs: string[]): Promise<SiteFigures> => inWorker({ site, dirs });

/** Each of `dirs` measured on its own, with its files, in a worker thread (src/build/summary.ts `measureTops`). */
export const measureEachInWorker = (site: string, dirs: string[]): Promise<FolderFigures[]> => inWorker({ site, dirs, each: true });

// Only in the thread started for it: the build's other worker threads never import this module, but say so.
const job = isMainThread ? undefined : (workerData as Partial<Job> | undefined)?.measure;
if (job) parentPort!.postMessage(job.each ? measureEachFolder(job.site, job.dirs) : measureFolders(job.site, job.dirs));
