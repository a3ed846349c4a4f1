/** header-rules: the build's own `_headers` applied per path, as Netlify and Cloudflare Pages apply it. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { headersFile, IMMUTABLE } from '../../../src/build/headers.ts';
import { headersFor, parseHeadersFile } from '../../../src/deploy/header-rules.ts';
import { CONTENT_SECURITY_POLICY_HEADER } from '../../../src/util/csp.ts';

const site = mkdtempSync(join(tmpdir(), 'errdex-header-rules-'));
afterAll(() => rmSync(site, { recursive: true, force: true }));
for (const dir of ['_astro', 'pagefind/fragment', 'pagefind/part-1/index', 'search-index/shards/0f1e2d3c']) mkdirSync(join(site, dir), { recursive: true });

const plain = (m: Map<string, { name: string; value: string }>) => Object.fromEntries([...m.values()].map((h) => [h.name, h.value]));

describe('the build’s _headers', () => {
  it('gives every path the policy and content-named folders immutable caching, under the base path', () => {
    const { rules, problems } = parseHeadersFile(headersFile(site, '/errdex'));
    expect(problems).toEqual([]);
    const asset = plain(headersFor(rules, '/errdex/_astro/site.Bq3x9.css'));
    expect(asset['Cache-Control']).toBe(IMMUTABLE);
    expect(asset['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY_HEADER);
    expect(plain(headersFor(rules, '/errdex/pagefind/part-1/index/en_1.pf_index'))['Cache-Control']).toBe(IMMUTABLE);
    expect(plain(headersFor(rules, '/errdex/search-index/shards/0f1e2d3c/7.json'))['Cache-Control']).toBe(IMMUTABLE);
    const page = plain(headersFor(rules, '/errdex/acme/ledger/frame-lost-333300/index.html'));
    expect(Object.keys(page).sort()).toEqual(['Content-Security-Policy', 'Referrer-Policy', 'X-Content-Type-Options']);
    // The index's manifest is not named by its content: revalidated like a page.
    expect(plain(headersFor(rules, '/errdex/search-index/manifest.json'))['Cache-Control']).toBeUndefined();
    // Outside the base path nothing matches.
    expect(headersFor(rules, '/_astro/site.Bq3x9.css').size).toBe(0);
  });
});

describe('parseHeadersFile and headersFor', () => {
  it('joins a header several rules give, drops a detached one, and matches a placeholder to one segment', () => {
    const { rules } = parseHeadersFile(
      [
        '/*',
        '  Cache-Control: public',
        '  X-Robots-Tag: noindex',
        '/docs/*',
        '  Cache-Control: max-age=60',
        '  ! X-Robots-Tag',
        '/:owner/x',
        '  X-One: 1',
        '',
      ].join('\n'),
    );
    expect(plain(headersFor(rules, '/docs/a/b.html'))).toEqual({ 'Cache-Control': 'public, max-age=60' });
    expect(plain(headersFor(rules, '/acme/x'))).toEqual({ 'Cache-Control': 'public', 'X-Robots-Tag': 'noindex', 'X-One': '1' });
    expect(plain(headersFor(rules, '/acme/ledger/x'))['X-One']).toBeUndefined();
  });

  it('takes pattern characters literally but for * and :name, ignores other hosts’ rules, and reports lines that are not rules', () => {
    const { rules, problems } = parseHeadersFile(
      ['  Early: 1', '/a.b/*', '  X-Dot: yes', 'https://other.example/*', '  X-Other: 1', '/c', '  no colon here'].join('\n'),
    );
    expect(plain(headersFor(rules, '/a.b/c'))).toEqual({ 'X-Dot': 'yes' });
    expect(headersFor(rules, '/aXb/c').size).toBe(0);
    expect(headersFor(rules, '/other.example/x').size).toBe(0);
    expect(problems).toEqual(['line 1: a header before any path pattern: Early: 1', 'line 7: not "Name: value": no colon here']);
  });
});
