import { describe, expect, it } from 'vitest';
import { scan } from '../../../src/scan/scan.ts';
import { fixtureRepo } from './fixture-repo.ts';

describe('scan: parser threads', { timeout: 60_000 }, () => {
  it('writes the same records whether files are parsed on worker threads or in this thread', async () => {
    const dir = fixtureRepo('rust');
    const threaded = await scan({ dir, workers: 2 });
    const calls: [number, number][] = [];
    const inline = await scan({ dir, workers: 1, onProgress: (done, total) => calls.push([done, total]) });
    // Progress counts every file handed to the parsers, once, up to the total.
    expect(calls.map(([done]) => done)).toEqual(calls.map((_, i) => i + 1));
    expect(calls.at(-1)).toEqual([2, 2]);
    expect(threaded.records.length).toBeGreaterThan(5);
    expect(threaded.records).toEqual(inline.records);
    expect(threaded.summary.sitesSkipped).toEqual(inline.summary.sitesSkipped);
  });
});
