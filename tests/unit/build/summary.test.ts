/** A built site's figures (src/build/summary.ts) and --trim-redirects (src/build/stages/deploy-files.ts). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trimRedirects } from '../../../src/build/stages/deploy-files.ts';
import { describeSite, formatBytes, measureSite } from '../../../src/build/summary.ts';

const site = mkdtempSync(join(tmpdir(), 'errdex-summary-'));
afterAll(() => rmSync(site, { recursive: true, force: true }));
const put = (path: string, text: string) => {
  mkdirSync(join(site, path, '..'), { recursive: true });
  writeFileSync(join(site, path), text);
};
put('index.html', 'x'.repeat(100));
put('api/errors/a.json', '{}');
put('api/errors/b.json', '{}');
put('api/errors/c.json', '{}');
put('pagefind/fragment/en_1.pf_fragment', 'x'.repeat(5));
put('pagefind/part-1/fragment/en_2.pf_fragment', 'x'.repeat(5));
put('pagefind/pagefind-entry.json', '{}');
put('search-index/v/0.json', '[]');
put('_redirects', '# comment\n/e/a/ /x/ 301\n\n# Short links:\n/e/b/ /y/ 301\n/e/c/ /z/ 301\n');

describe('measureSite', () => {
  it('counts files, bytes, the largest file, the fullest folder, _redirects rules, fragments and message index files', () => {
    const f = measureSite(site);
    expect(f.files).toBe(9);
    expect(f.bytes).toBe(100 + 6 + 10 + 2 + 2 + readFileSync(join(site, '_redirects')).length);
    expect(f.largest).toEqual({ path: 'index.html', bytes: 100 });
    expect(f.fullest).toEqual({ path: 'api/errors/', files: 3 });
    expect(f.redirectRules).toBe(3);
    expect(f.fragmentFiles).toBe(2);
    expect(f.messageIndexFiles).toBe(1);
    expect(describeSite(f)).toBe(`9 files, ${f.bytes} bytes (${f.bytes} bytes), largest index.html (100 bytes)`);
  });

  it('says sizes in the powers of 1,000 hosts state their limits in', () => {
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1_059_641)).toBe('1.1 MB');
    expect(formatBytes(291_000_000)).toBe('291 MB');
  });
});

describe('trimRedirects', () => {
  it('keeps the first rules and every comment, and says how many it left out', () => {
    const file = join(site, '_redirects');
    expect(trimRedirects(file, 5)).toBe(0);
    expect(trimRedirects(file, 2)).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('# comment\n/e/a/ /x/ 301\n\n# Short links:\n/e/b/ /y/ 301\n');
  });
});
