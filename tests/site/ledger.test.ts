import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSite } from '../support/link-check.ts';
import { FIXTURES, buildSite, expectFiguresOfWalk, readText, type BuiltSite } from '../support/site.ts';

const V2 = '2026-09-01T00:00:00Z';
const OLD = '/acme/ledger/frame-lost-333300/';
const NEW = '/acme/ledger/frame-dropped-in-transit-333300/';
const GONE = '/acme/ledger/queue-full-333300/';

describe('the URL ledger across two versions of a catalog', () => {
  const catalog = mkdtempSync(join(tmpdir(), 'errdex-ledger-'));
  const ledgerFile = join(catalog, 'url-ledger.json');
  const use = (version: string) => copyFileSync(join(FIXTURES, version, 'catalog.jsonl'), join(catalog, 'catalog.jsonl'));
  const build = (name: string) => buildSite(name, catalog, { updateLedger: true, env: { ERRDEX_BASE_PATH: '/sub' } });
  let first: BuiltSite;
  let second: BuiltSite;
  let afterSecond: string;
  let third: BuiltSite;
  const html = (site: BuiltSite, path: string) => readText(join(site.dist, path, 'index.html'));

  beforeAll(() => {
    use('ledger-v1');
    first = build('ledger-1');
    expect(first.status, first.stderr).toBe(0);
    use('ledger-v2');
    second = build('ledger-2');
    expect(second.status, second.stderr).toBe(0);
    afterSecond = readFileSync(ledgerFile, 'utf8');
    third = build('ledger-3');
    expect(third.status, third.stderr).toBe(0);
  });

  it('starts a ledger on the first build and writes it beside the catalog', () => {
    expect(first.stdout).toContain('URL ledger: none yet; starting one with 3 pages.');
    expect(first.stdout).toMatch(/url-ledger\.json updated: commit it with the catalog/);
  });

  it('reports the slug change and the removal', () => {
    expect(second.stdout).toContain('URL ledger: 1 slug changed (old URLs redirect), 1 record removed (old URLs say so), 0 restored, 1 new page.');
    expect(second.stdout).toContain(`  moved     ${OLD} -> ${NEW}`);
    expect(second.stdout).toContain(`  removed   ${GONE} (3333000000000002) in dataset version ${V2}`);
  });

  it('redirects the old slug to the new page, by a static page and in _redirects', () => {
    const page = html(second, OLD.slice(1));
    expect(page).toContain(`<meta http-equiv="refresh" content="0; url=/sub${NEW}">`);
    expect(page).toContain(`<a href="/sub${NEW}">`);
    expect(readText(join(second.dist, '_redirects'))).toContain(`/sub${OLD} /sub${NEW} 301`);
  });

  it("gives the redirect its target's description, whichever render process renders it", () => {
    const page = html(second, OLD.slice(1));
    expect(page).toMatch(/<meta name="description" content="[^"]+">/);
    // One record per render process: the redirect and its target are rendered by different processes.
    const split = buildSite('ledger-partitions', catalog, { args: ['--no-cache'], env: { ERRDEX_BASE_PATH: '/sub', ERRDEX_PARTITION_RECORDS: '1' } });
    expect(split.status, split.stderr).toBe(0);
    expect(split.stdout).toMatch(/unchanged \([2-9] processes/);
    expect(html(split, OLD.slice(1))).toBe(page);
  });

  it('shows at both old URLs of a removed record that it was removed, and in which dataset version', () => {
    for (const path of [GONE, '/e/3333000000000002/']) {
      const page = html(second, path.slice(1));
      expect(page).toContain(`removed in dataset version <time datetime="${V2}">${V2}</time>`);
      expect(page).toContain('queue %s is full');
      expect(page).toContain('<meta name="robots" content="noindex">');
    }
    // The notice at the short link is the render's, moved among the record files' short links: the figures still a walk's.
    expectFiguresOfWalk(second);
  });

  it('keeps every URL in the ledger, and the site has no broken link', () => {
    const ledger = JSON.parse(afterSecond);
    const byId = Object.fromEntries(ledger.entries.map((e: { id: string }) => [e.id, e]));
    expect(byId['3333000000000001']).toMatchObject({ paths: [OLD, NEW], removedIn: null, since: '2026-07-02T00:00:00Z' });
    expect(byId['3333000000000002']).toMatchObject({ paths: [GONE], removedIn: V2 });
    expect(byId['3333000000000004']).toMatchObject({ paths: ['/acme/ledger/quota-exceeded-333300/'], since: V2 });
    expect(checkSite(second.dist, { basePath: '/sub', siteOrigin: 'https://errdex.dev' })).toEqual([]);
  });

  it('is stable: rebuilding the same catalog changes nothing and keeps the old URLs alive', () => {
    expect(third.stdout).toContain('URL ledger: 0 slugs changed (old URLs redirect), 0 records removed (old URLs say so), 0 restored, 0 new pages.');
    expect(third.stdout).toMatch(/url-ledger\.json unchanged/);
    expect(readFileSync(ledgerFile, 'utf8')).toBe(afterSecond);
    expect(html(third, OLD.slice(1))).toContain(`url=/sub${NEW}`);
    expect(html(third, GONE.slice(1))).toContain(`removed in dataset version <time datetime="${V2}">`);
  });

  it('refuses to build over a broken ledger', () => {
    const broken = mkdtempSync(join(tmpdir(), 'errdex-ledger-broken-'));
    copyFileSync(join(FIXTURES, 'ledger-v2', 'catalog.jsonl'), join(broken, 'catalog.jsonl'));
    const text = afterSecond.replace('"removedIn":null', '"removedIn":7');
    writeFileSync(join(broken, 'url-ledger.json'), text);
    const run = buildSite('ledger-broken', broken, { updateLedger: true, args: ['--skip-invalid'] });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/url-ledger\.json:\d+ {2}entries\.0\.removedIn {2}must be a dataset version or null/);
    expect(run.stderr).toContain('the URL ledger) has problems');
  });
});
