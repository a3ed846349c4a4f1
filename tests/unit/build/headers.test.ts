/** `_headers` (src/build/headers.ts): the CSP for every path, immutable caching for content-hashed folders only. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashedFolders, headersFile, IMMUTABLE } from '../../../src/build/headers.ts';
import { CONTENT_SECURITY_POLICY_HEADER } from '../../../src/util/csp.ts';

const site = mkdtempSync(join(tmpdir(), 'errdex-headers-'));
afterAll(() => rmSync(site, { recursive: true, force: true }));
for (const dir of ['_astro', 'pagefind/fragment', 'pagefind/index', 'pagefind/filter', 'pagefind/part-1/fragment', 'pagefind/part-01/index', 'pagefind/part-001/filter', 'pagefind/part-x/index', 'search-index/shards/44be01ef', 'acme/widgets/x']) mkdirSync(join(site, dir), { recursive: true });
writeFileSync(join(site, 'search-index/manifest.json'), '{}');

/** The rules of a `_headers` text: pattern -> its header lines. */
function rules(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('  ')) current.push(line.trim());
    else out.set(line, (current = []));
  }
  return out;
}

describe('_headers', () => {
  it('lists the folders whose files are named by their content, and nothing else', () => {
    expect(hashedFolders(site)).toEqual([
      '/_astro/',
      '/pagefind/fragment/',
      '/pagefind/index/',
      '/pagefind/filter/',
      // Parts in the order of their bits; a folder not named as a part is none.
      '/pagefind/part-001/filter/',
      '/pagefind/part-01/index/',
      '/pagefind/part-1/fragment/',
      '/search-index/shards/',
    ]);
  });

  it('sends the CSP header everywhere, caches hashed folders for good and leaves pages to the host (short)', () => {
    const r = rules(headersFile(site, ''));
    expect(r.get('/*')).toEqual([`Content-Security-Policy: ${CONTENT_SECURITY_POLICY_HEADER}`, 'X-Content-Type-Options: nosniff', 'Referrer-Policy: strict-origin-when-cross-origin']);
    expect(CONTENT_SECURITY_POLICY_HEADER).toContain("frame-ancestors 'none'");
    for (const folder of hashedFolders(site)) expect(r.get(`${folder}*`)).toEqual([`Cache-Control: ${IMMUTABLE}`]);
    // No Cache-Control on /*: Cloudflare Pages would join it with the immutable rules' value.
    expect([...r.entries()].filter(([, lines]) => lines.some((l) => l.startsWith('Cache-Control'))).map(([p]) => p)).not.toContain('/*');
    expect(r.has('/search-index/*')).toBe(false);
    // Cloudflare Pages: at most 100 rules, 2,000 characters a line.
    expect(r.size).toBeLessThanOrEqual(100);
    for (const line of headersFile(site, '').split('\n')) expect(line.length).toBeLessThanOrEqual(2_000);
  });

  it('puts every rule below the base path', () => {
    const r = rules(headersFile(site, '/errdex'));
    expect([...r.keys()].every((p) => p.startsWith('/errdex/'))).toBe(true);
    expect(r.get('/errdex/_astro/*')).toEqual([`Cache-Control: ${IMMUTABLE}`]);
  });
});
