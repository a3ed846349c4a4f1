/**
 * Measures some folders of a site in a worker thread, beside the build's own walk of the others
 * (src/build/summary.ts `measureSiteBeside`): `measureInWorker` starts it and resolves with its figures.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { siblingUrl } from '../util/sibling.ts';
import type { SiteListing } from './site-listing.ts';
import { measureFolders, type SiteFigures, type WalkListing } from './summary.ts';

interface Job {
  measure: { site: string; dirs: string[]; listing: WalkListing };
}

/** The figures of `dirs` (paths in `site`), and with `listing.out` the record of their folders. */
export function measureInWorker(site: string, dirs: string[], listing: WalkListing = {}): Promise<{ figures: SiteFigures; listed?: SiteListing }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(siblingUrl('./measure-worker.ts', import.meta.url), { workerData: { measure: { site, dirs, listing } } satisfies Job });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`measuring the site: its worker thread ended (${code}) without figures`)));
  });
}

// Only in the thread started for it: the build's other worker threads never import this module, but say so.
const job = isMainThread ? undefined : (workerData as Partial<Job> | undefined)?.measure;
if (job) parentPort!.postMessage({ figures: measureFolders(job.site, job.dirs, job.listing), listed: job.listing.out });
