/**
 * The listing filter on a repository of 5,000 errors (and its failure class and tag pages), in
 * Chromium: what a query fetches stays within the bound and is a few of the index's files, not all of
 * them; the matches are those a scan of every record finds, in page order; without JavaScript the
 * pages still list every error through their pager.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorRecord } from '../../src/schema/record.ts';
import { compareDirectoryOrder } from '../../src/catalog/derive/index.ts';
import type { CatalogEntry } from '../../src/catalog/catalog.ts';
import { rowText } from '../../src/views/list-index.ts';
import { matchesWords, queryWords, words } from '../../src/views/list-terms.ts';
import { launchChromium } from '../support/browser.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { BIG_CLASSES, BIG_REPO, bigRepoCatalog } from '../support/big-repo.ts';
import { buildSite } from '../support/site.ts';

const COUNT = 5000;
const BOUND = 200 * 1024;

describe(`the listing filter of a repository of ${COUNT.toLocaleString('en-US')} errors in Chromium`, () => {
  let browser: Browser;
  let server: StaticServer;
  let dist: string;
  let records: ErrorRecord[];
  const titles = new Map(BIG_CLASSES.map((c) => [c.id, c.title]));
  beforeAll(async () => {
    const catalog = bigRepoCatalog('big-repo-5000', COUNT, { classes: true });
    const site = buildSite('big-repo-5000', catalog);
    expect(site.status, site.stderr + site.stdout).toBe(0);
    dist = site.dist;
    records = readFileSync(join(catalog, 'big.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { record: ErrorRecord }).record);
    server = await serveStatic(dist);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const href = (r: ErrorRecord) => `/${r.repo}/${r.slug}/`;
  /** The records a query matches on a listing, by a scan of every record (a listing does not match on what all its rows share: its repository, its class). */
  const expected = (rs: readonly ErrorRecord[], query: string, listing: 'repo' | 'class' | 'tag'): ErrorRecord[] =>
    rs.filter((r) =>
      matchesWords(
        words(
          rowText({
            message: r.errorMessage,
            file: r.filePath,
            line: r.lineNumber,
            severity: r.severity,
            errorClass: r.errorClass ?? '',
            classTitle: listing === 'class' ? '' : (titles.get(r.backgroundTag ?? '') ?? ''),
            repo: listing === 'repo' ? '' : r.repo,
          }),
        ),
        queryWords(query),
      ),
    );

  /** Types `query` on a listing page in a fresh context: what was fetched, the status, the rows shown here and from other pages. */
  async function filter(path: string, query: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    const fetched: { url: string; bytes: number }[] = [];
    const bodies: Promise<void>[] = [];
    // What the filter fetches (the page's own scripts may still be arriving on a loaded machine).
    page.on('response', (r) => {
      if (r.request().resourceType() !== 'fetch') return;
      const entry = { url: new URL(r.url()).pathname, bytes: 0 };
      fetched.push(entry);
      bodies.push(r.body().then((b) => void (entry.bytes = b.length), () => {}));
    });
    await page.locator('#list-filter-box').fill(query);
    await page.waitForFunction(() => / on other pages|could not/.test(document.querySelector('.filter-status')?.textContent ?? ''));
    await page.waitForLoadState('networkidle');
    await Promise.all(bodies);
    const status = await page.locator('.filter-status').innerText();
    const here = await page.locator('[data-listing] .error-row:not([hidden]) .row-message').evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
    const other = await page.locator('.filter-other .row-message').evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
    await context.close();
    const counts = /^([\d,]+) of [\d,]+ errors? on this page, ([\d,]+) on other pages/.exec(status);
    expect(counts, status).not.toBeNull();
    const n = (s: string) => Number(s.replace(/,/g, ''));
    return { fetched, status, here, other, hereCount: n(counts![1]!), otherCount: n(counts![2]!) };
  }

  const pageOrder = () => [...records].map((record) => ({ record }) as CatalogEntry).sort(compareDirectoryOrder).map((e) => href(e.record));

  const queries = (): [string, string][] => {
    const r = records[COUNT / 2]!;
    const message = r.errorMessage.split(/\s+/).filter((w) => /^[a-z]{3,}$/.test(w));
    // The message word most rows have: a query matching thousands.
    const counts = new Map<string, number>();
    for (const x of records) for (const w of new Set(x.errorMessage.toLowerCase().match(/[a-z]{4,}/g) ?? [])) counts.set(w, (counts.get(w) ?? 0) + 1);
    const common = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    return [
      ['one short word', message[0]!.slice(0, 4)],
      ['a file name', r.filePath.split('/').at(-1)!],
      ['a class', records.find((x) => x.errorClass)!.errorClass!],
      ['a phrase', message.slice(0, 3).join(' ')],
      ['a word matching thousands', common],
    ];
  };

  it('fetches for each typical query a few files of the index, within 200 KB, and finds what a scan finds, in page order', async () => {
    const path = `/${BIG_REPO}/`;
    const dir = join(dist, 'list-index', BIG_REPO);
    const folder = readdirSync(dir).find((f) => f !== 'index.json')!;
    const indexFiles = readdirSync(join(dir, folder)).length;
    const order = pageOrder();
    for (const [what, q] of queries()) {
      const got = await filter(path, q);
      const bytes = got.fetched.reduce((n, f) => n + f.bytes, 0);
      expect(bytes, `${what}: ${q}`).toBeLessThanOrEqual(BOUND);
      expect(got.fetched[0]!.url, what).toBe(`/list-index/${BIG_REPO}/index.json`);
      expect(got.fetched.slice(1).every((f) => f.url.startsWith(`/list-index/${BIG_REPO}/${folder}/`)), what).toBe(true);
      expect(got.fetched.length, what).toBeLessThan(indexFiles / 4);
      const want = expected(records, q, 'repo').map(href);
      expect(got.hereCount + got.otherCount, `${what}: ${q}`).toBe(want.length);
      expect(got.here.length).toBe(got.hereCount);
      if (got.otherCount <= 200) expect(new Set([...got.here, ...got.other]), what).toEqual(new Set(want));
      else {
        expect(got.status, what).toMatch(/\(the first [\d,]+ shown\)/);
        expect(got.other.every((h) => want.includes(h)), what).toBe(true);
      }
      const positions = got.other.map((h) => order.indexOf(h));
      expect(positions, what).toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it('shows more matches of a common word on request, still in page order', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/${BIG_REPO}/`);
    const q = queries().at(-1)![1];
    await page.locator('#list-filter-box').fill(q);
    const other = page.locator('.filter-other .row-message');
    // A shared machine may take seconds to answer.
    await expect.poll(() => page.locator('.filter-status').innerText(), { timeout: 30_000 }).toMatch(/on other pages/);
    const before = await other.count();
    await page.getByRole('button', { name: 'Show more matches' }).click();
    await expect.poll(() => other.count(), { timeout: 30_000 }).toBeGreaterThan(before);
    const order = pageOrder();
    const positions = await other.evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
    const idx = positions.map((h) => order.indexOf(h));
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
    await context.close();
  });

  it('filters a failure class and a tag through their own index, within 200 KB', async () => {
    const tagCounts = new Map<string, number>();
    for (const r of records) for (const t of new Set(r.tags)) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
    const tag = [...tagCounts].sort((a, b) => b[1] - a[1])[0]![0];
    const cls = BIG_CLASSES[0]!.id;
    for (const [path, kind, members] of [
      [`/tags/${tag}/`, 'tag', records.filter((r) => r.tags.includes(tag))],
      [`/classes/${cls}/`, 'class', records.filter((r) => r.backgroundTag === cls)],
    ] as const) {
      // Words spread over the listing, so that other pages have some.
      const q = queries()[0]![1];
      const got = await filter(path, q);
      expect(got.fetched.reduce((n, f) => n + f.bytes, 0), path).toBeLessThanOrEqual(BOUND);
      expect(got.fetched[0]!.url).toBe(`/list-index${path}index.json`);
      const want = expected(members, q, kind).map(href);
      expect(got.hereCount + got.otherCount, path).toBe(want.length);
      expect(new Set([...got.here, ...got.other]), path).toEqual(new Set(want));
      expect(got.otherCount, path).toBeGreaterThan(0);
    }
  });

  it('lists every error without JavaScript, through the pager; the filter stays hidden', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/${BIG_REPO}/`);
    expect(await page.locator('[data-list-filter]').isVisible()).toBe(false);
    const seen = new Set<string>();
    let next: string | null = `/${BIG_REPO}/`;
    while (next) {
      await page.goto(`${server.url}${next}`);
      for (const h of await page.locator('[data-listing] .row-message').evaluateAll((els) => els.map((e) => e.getAttribute('href')!))) seen.add(h);
      const link = page.locator('.pager a[rel="next"]').first();
      next = (await link.count()) > 0 ? await link.getAttribute('href') : null;
    }
    expect(seen.size).toBe(COUNT);
    await context.close();
  });
});
