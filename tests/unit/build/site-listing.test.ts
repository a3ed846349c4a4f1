import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureInWorker } from '../../../src/build/measure-worker.ts';
import { keepListings, listFolder, readListing, siteListingFile, standbyListingFile, type SiteListing } from '../../../src/build/site-listing.ts';
import { keepOnly } from '../../../src/build/standby.ts';
import { measureSite, measureSiteBeside } from '../../../src/build/summary.ts';
import { listFilesBelow } from '../../../src/util/files.ts';

function siteWith(files: string[]): string {
  const site = mkdtempSync(join(tmpdir(), 'errdex-listing-'));
  for (const f of files) {
    mkdirSync(join(site, f, '..'), { recursive: true });
    writeFileSync(join(site, f), f);
  }
  return site;
}

/** A record of `site` as publishing makes it: a walk on two threads. */
async function recorded(site: string, known?: SiteListing): Promise<{ out: SiteListing; figures: ReturnType<typeof measureSite> }> {
  const out: SiteListing = new Map();
  const figures = await measureSiteBeside(site, (dirs, theirs) => measureInWorker(site, dirs, theirs), undefined, { ...(known ? { known } : {}), out });
  return { out, figures };
}

/** Past the clock tick of the record's `stat`s: file systems keep times in ticks of a few milliseconds. */
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 50));

const FILES = ['index.html', 'acme/cli/a-1/index.html', 'acme/cli/b-2/index.html', 'acme/cli/sitemap.xml', 'acme/web/c-3/index.html', 'classes/x/index.html', 'e/1/index.html'];

describe('a site listing', () => {
  it('records every folder the walk read, on both threads, with its entries as read', async () => {
    const site = siteWith(FILES);
    const { out, figures } = await recorded(site);
    expect(figures).toEqual(measureSite(site));
    expect([...out.keys()].sort()).toEqual(['', 'acme', 'acme/cli', 'acme/cli/a-1', 'acme/cli/b-2', 'acme/web', 'acme/web/c-3', 'classes', 'classes/x', 'e', 'e/1']);
    expect(out.get('acme/cli')!.entries.sort()).toEqual(['da-1', 'db-2', 'fsitemap.xml']);
    expect(out.get('')!.entries.sort()).toEqual(['dacme', 'dclasses', 'de', 'findex.html']);
  });

  it('takes a folder from the record while it has the identity recorded, and reads it once it changed', async () => {
    const site = siteWith(FILES);
    const { out } = await recorded(site);
    // What the record says is what is taken: a recorded entry the folder does not have shows it was not read.
    const folder = out.get('acme/cli')!;
    const said: SiteListing = new Map([['acme/cli', { id: folder.id, entries: [...folder.entries, 'fnot-read.html'] }]]);
    expect(listFolder(join(site, 'acme/cli'), 'acme/cli', said)).toContain('fnot-read.html');
    // Another folder's record at that path, or a record of another path: read.
    expect(listFolder(join(site, 'acme/web'), 'acme/web', new Map([['acme/web', said.get('acme/cli')!]])).sort()).toEqual(['dc-3']);
    expect(listFolder(join(site, 'acme/web'), 'acme/web', said).sort()).toEqual(['dc-3']);
    // A file dropped in it since: the folder's times changed, so it is read again.
    await nextTick();
    writeFileSync(join(site, 'acme/cli/stray.html'), 'stray');
    expect(listFolder(join(site, 'acme/cli'), 'acme/cli', said).sort()).toEqual(['da-1', 'db-2', 'fsitemap.xml', 'fstray.html']);
    // A walk with the record: the changed folder read, the others taken, the same figures as a walk of all.
    const again = await recorded(site, out);
    expect(again.figures).toEqual(measureSite(site));
    expect(again.out.get('acme/cli')!.entries).toContain('fstray.html');
    expect(again.out.get('acme/web')).toEqual(out.get('acme/web'));
  });

  it("leaves nothing in a standby's folder the stage did not make, though the record predates what was dropped there", async () => {
    const site = siteWith(FILES);
    const { out } = await recorded(site);
    await nextTick();
    writeFileSync(join(site, 'acme/web/c-3/stray.html'), 'stray');
    mkdirSync(join(site, 'acme/web/d-4'));
    writeFileSync(join(site, 'acme/web/d-4/index.html'), 'stray');
    rmSync(join(site, 'acme/cli/b-2'), { recursive: true });
    const made = new Set(['acme/cli/a-1/index.html', 'acme/cli/sitemap.xml', 'acme/web/c-3/index.html']);
    expect(keepOnly(join(site, 'acme'), made, 'acme/', out)).toBe(3);
    expect(listFilesBelow(join(site, 'acme'))).toEqual(['cli/a-1/index.html', 'cli/sitemap.xml', 'web/c-3/index.html']);
  });

  it("becomes the standby's record when the site it describes is kept as the standby, and goes when it is not", () => {
    const cache = mkdtempSync(join(tmpdir(), 'errdex-listing-cache-'));
    const one: SiteListing = new Map([['a', { id: '1:2:3:4', entries: ['fx', 'dy'] }]]);
    const two: SiteListing = new Map([['b', { id: '5:6:7:8', entries: [] }]]);
    keepListings(cache, one, true);
    expect(readListing(siteListingFile(cache))).toEqual(one);
    expect(existsSync(standbyListingFile(cache))).toBe(false);
    keepListings(cache, two, true);
    expect(readListing(standbyListingFile(cache))).toEqual(one);
    expect(readListing(siteListingFile(cache))).toEqual(two);
    keepListings(cache, one, false);
    expect(existsSync(standbyListingFile(cache))).toBe(false);
    expect(readListing(siteListingFile(cache))).toEqual(one);
    // None, or a torn one: every folder is read.
    writeFileSync(siteListingFile(cache), '{"folders": {"a": ["1:2');
    expect(readListing(siteListingFile(cache)).size).toBe(0);
    expect(readListing(null).size).toBe(0);
    expect(readdirSync(cache).sort()).toEqual(['site-listing.json']);
  });
});
