import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupAnswer } from '../../src/lookup/lookup.ts';
import { launchChromium } from '../support/browser.ts';
import { buildSite, FIXTURES, type BuiltSite } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { runScript } from '../support/run-script.ts';

// The `search-sites` catalog: one message raised in three places, and two other errors.
const SITE_URL = 'https://errors.example.org';
const BASE = '/errdex';
const POOL = '/dbkit/core/pool-timed-out-b00000/';
const PG8000 = '/dbkit/core/unknown-numeric-column-type-pg8000-b00000/';
const POOL_PASTE = 'sqlalchemy.exc.TimeoutError: QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00';
const GROUP_PASTE = 'dbkit.exc.InvalidRequestError: Unknown numeric column type: 1700';
const FRAME_PASTE = [
  'Traceback (most recent call last):',
  '  File "/srv/app/worker.py", line 88, in run',
  '    rows = session.execute(stmt)',
  '  File "/usr/local/lib/python3.12/site-packages/dbkit/dialects/postgresql/pg8000.py", line 66, in result_processor',
  '    raise InvalidRequestError(',
  'dbkit.exc.InvalidRequestError: Unknown numeric column type: 1700',
].join('\n');
const NO_ENTRY_PASTE = 'fatal: not a git repository (or any of the parent directories): .git';

/** `npm run lookup` as a user runs it: the script in a process of its own, the paste on standard input. */
const lookup = (args: string[], stdin: string) => runScript('scripts/lookup.ts', args, { stdin });

describe('npm run lookup on a built site, in a folder and over HTTP, answering as the search page does', () => {
  let site: BuiltSite;
  let server: StaticServer;
  let browser: Browser;
  beforeAll(async () => {
    site = buildSite('lookup', join(FIXTURES, 'search-sites'), { env: { ERRDEX_SITE_URL: SITE_URL, ERRDEX_BASE_PATH: BASE } });
    expect(site.status, site.stderr + site.stdout).toBe(0);
    server = await serveStatic(site.dist, { base: BASE });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('answers from the folder with the page URL of the configured site, where it is raised, the meaning and the first solution', async () => {
    const r = await lookup(['--site', site.dist], POOL_PASTE);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${SITE_URL}${BASE}${POOL}`);
    expect(r.out).toContain(join(site.dist, POOL, 'index.html'));
    expect(r.out).toMatch(/Raised in {2}lib\/dbkit\/pool\/impl\.py:11/);
    expect(r.out).toContain('What it means\n  All connections of the pool were in use');
    expect(r.out).toContain('First solution\n  ');
    const none = await lookup(['--site', site.dist], NO_ENTRY_PASTE);
    expect(none.code).toBe(1);
    expect(none.out).toContain('has no entry for this error');
  });

  it('answers over HTTP with absolute URLs, fetching the index files the page would and the one twin', async () => {
    server.bytes.clear();
    const r = await lookup(['--site', server.url, '--json'], POOL_PASTE);
    expect(r.code, r.err).toBe(0);
    const a = JSON.parse(r.out) as LookupAnswer;
    expect(a).toMatchObject({ status: 'found', match: 'exact', url: `${server.url}${POOL}`, path: POOL });
    const fetched = [...server.bytes.keys()];
    expect(fetched.filter((p) => !p.startsWith(`${BASE}/search-index/`))).toEqual([expect.stringMatching(new RegExp(`^${BASE}/api/errors/b000000000000004\\.json$`))]);
    expect(a.bytes).toBe([...server.bytes.values()].reduce((s, b) => s + b, 0));
    // The page's own twin: the file the error page links as "This entry as JSON".
    expect(a.status === 'found' && a.meaning).toContain('All connections of the pool were in use');
    const none = await lookup(['--site', server.url, '--json'], NO_ENTRY_PASTE);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.out)).toMatchObject({ status: 'no-entry' });
    const gone = await lookup(['--site', `${server.url}/missing/`], POOL_PASTE);
    expect(gone.code).toBe(2);
    expect(gone.err).toContain('HTTP 404');
  });

  it('gives the search page’s first answer for each paste: the same page, or no entry', async () => {
    const page = await browser.newPage();
    for (const [q, want] of [
      [POOL_PASTE, POOL],
      [GROUP_PASTE, /^\/dbkit\/core\/m\//],
      [FRAME_PASTE, PG8000],
      [NO_ENTRY_PASTE, null],
    ] as const) {
      await page.goto(`${server.url}/search/#q=${encodeURIComponent(q)}`);
      await page.waitForFunction((t) => {
        const list = document.querySelector<HTMLElement>('[data-search-results]');
        return list?.dataset.state === 'done' && list.dataset.query === t.trim();
      }, q);
      const shown = await page.evaluate(() => {
        const list = document.querySelector<HTMLElement>('[data-search-results]')!;
        const a = list.querySelector('a');
        return { noMatch: list.hasAttribute('data-no-match'), first: a ? new URL(a.href).pathname : null };
      });
      const r = await lookup(['--site', server.url, '--json'], q);
      const a = JSON.parse(r.out) as LookupAnswer;
      expect(a.status === 'no-entry', q).toBe(shown.noMatch);
      expect(r.code, q).toBe(shown.noMatch ? 1 : 0);
      if (want === null) expect(shown.noMatch, q).toBe(true);
      else {
        const path = shown.first?.startsWith(`${BASE}/`) ? shown.first.slice(BASE.length) : shown.first;
        if (typeof want === 'string') expect(path, q).toBe(want);
        else expect(path, q).toMatch(want);
        expect(a.status === 'found' && `${BASE}${a.path}`, q).toBe(shown.first);
      }
    }
    await page.close();
  });
});
