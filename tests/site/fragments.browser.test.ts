import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pagefindPartOf, pagefindParts } from '../../src/build/search-index.ts';
import { FIXTURES, buildSite, listFiles, siteInBrowser } from '../support/site.ts';

const CATALOG = join(FIXTURES, 'search');
const MAX = 3;
const CHECKPOINT = '/quill/store/checkpoint-corrupt-a00000/';
/** A page whose record falls in a part other than pagefind/ itself when parts hold 3 records. */
const LEASE = '/orbit/queue/lease-expired-a00000/';
const LEASE_ID = 'a000000000000005';

/** The fixture's records, from the catalog itself, and their page paths. */
const records = readFileSync(join(CATALOG, 'errors.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => (JSON.parse(l) as { record: { id: string; repo: string; slug: string } }).record);
const pages = records.map((r) => `/${r.repo}/${r.slug}/`);

/** A Pagefind fragment file as its client reads it: gzip, a 12-byte signature, then JSON. */
function readFragmentFile(path: string): unknown {
  const bytes = gunzipSync(readFileSync(path));
  expect(bytes.subarray(0, 12).toString()).toBe('pagefind_dcd');
  return JSON.parse(bytes.subarray(12).toString('utf8'));
}

describe('--max-fragments: Pagefind fragments packed into bundles', () => {
  const ctx = siteInBrowser('search-max-fragments', CATALOG, [`--max-fragments=${MAX}`]);

  it('writes at most N fragment files, each a bundle of several pages, together every page', () => {
    expect(pages.length).toBeGreaterThan(MAX);
    const dir = join(ctx.site.dist, 'pagefind/fragment');
    const files = listFiles(dir);
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThanOrEqual(MAX);
    const urls: string[] = [];
    for (const f of files) {
      // A bundle maps fragment hashes to fragments; a single fragment file would be one fragment.
      const bundle = readFragmentFile(join(dir, f)) as Record<string, { url: string }>;
      expect(Object.keys(bundle).length).toBeGreaterThan(1);
      urls.push(...Object.values(bundle).map((fragment) => fragment.url));
    }
    expect(urls.sort()).toEqual([...pages].sort());
    expect(ctx.site.stdout).toContain(`fragments in ${files.length} bundles (--max-fragments=${MAX})`);
  });

  it('shows full-text results with their snippets in Chromium, loading only the bundles', async () => {
    const page = await ctx.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const fragmentRequests: { path: string; status: number }[] = [];
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/pagefind/fragment/')) fragmentRequests.push({ path, status: r.status() });
    });
    await page.goto(`${ctx.server.url}/search/?q=truncated`);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-results]')?.dataset.state === 'done', null, { timeout: 20_000 });
    const list = page.locator('[data-search-results]');
    expect(await list.getAttribute('data-engines')).toBe('matcher+pagefind');
    const hit = list.locator(`li:has(a[href^="${CHECKPOINT}"])`);
    expect(await hit.count()).toBe(1);
    expect(await hit.locator('.match-kind').innerText()).toBe('Full-text match');
    // The snippet comes from the fragment: Pagefind's excerpt with the query word marked.
    expect((await hit.locator('.result-snippet mark').allInnerTexts()).map((t) => t.toLowerCase())).toContain('truncated');
    const onDisk = new Set(listFiles(join(ctx.site.dist, 'pagefind/fragment')).map((f) => `/pagefind/fragment/${f}`));
    expect(fragmentRequests.length).toBeGreaterThan(0);
    for (const r of fragmentRequests) {
      expect(onDisk.has(r.path), r.path).toBe(true);
      expect(r.status, r.path).toBe(200);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('rejects a bad value before building anything, saying what it expects', () => {
    const dist = join(mkdtempSync(join(tmpdir(), 'errdex-bad-option-')), 'site');
    for (const arg of ['--max-fragments=0', '--max-fragments=-2', '--max-fragments=lots', '--max-fragments=2.5', '--max-fragments']) {
      const site = buildSite('bad-max-fragments', CATALOG, { args: [arg], dist });
      expect(site.status, arg).toBe(2);
      expect(site.stderr, arg).toContain(arg === '--max-fragments' ? '--max-fragments needs a value' : `${arg}: expected a whole number of at least 1`);
      expect(site.stderr, arg).toContain('Nothing was built.');
      expect(existsSync(site.dist), arg).toBe(false);
    }
  });
});

describe('a large catalog: Pagefind indexes in parts, searched as one', () => {
  // Parts of at most 3 records: the 10-record fixture makes 4 indexes or more (pagefind/ and pagefind/part-<bits>/).
  const ctx = siteInBrowser('search-pagefind-parts', CATALOG, [], { ERRDEX_PAGEFIND_PART_RECORDS: '3' });
  const parts = pagefindParts(records.map((r) => r.id), 3);
  const partDirs = parts.map((p) => `pagefind/${p.dir}`.replace(/\/$/, ''));

  it('writes one index per part and lists the parts for the search page', () => {
    expect(parts.length).toBeGreaterThanOrEqual(4);
    const listed = JSON.parse(readFileSync(join(ctx.site.dist, 'pagefind/errdex-parts.json'), 'utf8')) as { parts: string[] };
    expect(listed.parts).toEqual(parts.slice(1).map((p) => p.dir));
    for (const dir of partDirs) expect(existsSync(join(ctx.site.dist, dir, 'pagefind-entry.json')), dir).toBe(true);
    const urls = partDirs.map((d) => listFiles(join(ctx.site.dist, d, 'fragment')).map((f) => (readFragmentFile(join(ctx.site.dist, d, 'fragment', f)) as { url: string }).url));
    expect(urls.flat().sort()).toEqual([...pages].sort());
    // Each page is in the part its record's id is dealt to; the page the next test looks for is not
    // in pagefind/ itself.
    for (const [i, r] of records.entries()) expect(urls[parts.indexOf(pagefindPartOf(r.id, parts))], r.id).toContain(pages[i]);
    expect(pagefindPartOf(LEASE_ID, parts).dir).not.toBe('');
  });

  it('finds a page whatever part indexes it, with its snippet', async () => {
    const page = await ctx.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const partRequests = new Set<string>();
    page.on('response', (r) => {
      const m = /^\/pagefind\/(part-[01]+)\//.exec(new URL(r.url()).pathname);
      if (m && r.status() === 200) partRequests.add(m[1]!);
    });
    await page.goto(`${ctx.server.url}/search/?q=deadline`);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-results]')?.dataset.state === 'done', null, { timeout: 20_000 });
    const hit = page.locator(`[data-search-results] li:has(a[href^="${LEASE}"])`);
    expect(await hit.count()).toBe(1);
    // Pagefind marks the word with the punctuation that follows it ("deadline;").
    expect((await hit.locator('.result-snippet mark').allInnerTexts()).some((t) => t.toLowerCase().startsWith('deadline'))).toBe(true);
    // Every part was searched.
    expect([...partRequests].sort()).toEqual(parts.slice(1).map((p) => p.dir.slice(0, -1)).sort());
    expect(errors).toEqual([]);
    await page.close();
  });
});

