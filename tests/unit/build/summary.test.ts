/** A built site's figures (src/build/summary.ts) and --trim-redirects (src/build/stages/deploy-files.ts). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trimRedirects } from '../../../src/build/stages/deploy-files.ts';
import { fileHead, headOf, type PageHead } from '../../../src/build/rendered-pages.ts';
import { describeSite, describeTitles, formatBytes, measureFolders, measureSite, measureSiteBeside, titleFigures } from '../../../src/build/summary.ts';
import { measureInWorker } from '../../../src/build/measure-worker.ts';

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

  it('measures the same on two threads, ties and all: the deeper folders shared with a worker thread', async () => {
    const wide = mkdtempSync(join(tmpdir(), 'errdex-summary-wide-'));
    try {
      const add = (path: string, text: string) => {
        mkdirSync(join(wide, path, '..'), { recursive: true });
        writeFileSync(join(wide, path), text);
      };
      // As large as each other, and as full: the first by path is named, whichever thread met it.
      add('index.html', 'x'.repeat(50));
      for (let i = 0; i < 40; i++) add(`e/r${i}/index.html`, 'x'.repeat(i % 2 ? 50 : 7));
      for (let i = 0; i < 3; i++) add(`repo/owner/p${i}/index.html`, 'y');
      add('api/errors/a.json', '{}');
      add('api/errors/b.json', '{}');
      add('pagefind/part-1/fragment/en_1.pf_fragment', 'x');
      add('search-index/v/0.json', '[]');
      const one = measureSite(wide);
      expect(one.largest).toEqual({ path: 'e/r1/index.html', bytes: 50 });
      expect(one.fullest).toEqual({ path: 'api/errors/', files: 2 });
      expect(await measureSiteBeside(wide, (dirs) => measureInWorker(wide, dirs))).toEqual(one);
      // Folders one and two levels down measured by who made them are not walked again: the same figures.
      const skip = ['e', 'api/errors'];
      const known = measureFolders(wide, skip.map((d) => join(wide, d)));
      expect(known.files).toBe(42);
      expect(await measureSiteBeside(wide, (dirs) => measureInWorker(wide, dirs), { figures: known, skip })).toEqual(one);
      // Said to be known, they are taken as said: nothing of them is walked.
      const said = { ...known, files: known.files + 1000 };
      expect((await measureSiteBeside(wide, (dirs) => measureInWorker(wide, dirs), { figures: said, skip })).files).toBe(one.files + 1000);
    } finally {
      rmSync(wide, { recursive: true, force: true });
    }
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

describe('shared page titles', () => {
  // Pages as the render noted them: their path and the head of their text.
  const page = (path: string, title: string, head = ''): [string, PageHead] => [path, headOf(`<!DOCTYPE html><html><head><title>${title}</title>${head}</head><body>${'x'.repeat(20_000)}</body></html>`)];
  const redirect = (to: string) => `<meta name="robots" content="noindex"><meta http-equiv="refresh" content="0; url=${to}">`;

  it('names the indexed pages, and the short links among themselves, that share a title; redirects and notices are left out', () => {
    const pages = new Map([
      page('a/b/one/index.html', 'ValueError: x &amp; y… — a/b'),
      page('a/b/two/index.html', 'ValueError: x &amp; y… — a/b'),
      page('a/b/three/index.html', 'ValueError: z — a/b'),
      page('a/b/m/x/index.html', 'ValueError: x &amp; y… — raised in 2 places — a/b'),
      page('a/b/old-one/index.html', 'ValueError: z — a/b', redirect('/a/b/three/')),
      page('e/1/index.html', 'ValueError: x &amp; y… — a/b', redirect('/a/b/one/')),
      page('e/2/index.html', 'ValueError: z — a/b', redirect('/a/b/three/')),
      page('e/3/index.html', 'Removed: gone', '<meta name="robots" content="noindex">'),
      page('e/4/index.html', 'Removed: gone', '<meta name="robots" content="noindex">'),
    ]);
    const f = titleFigures(pages);
    expect(f.titledPages).toBe(6);
    expect(f.sharedTitles).toEqual([{ title: 'ValueError: x & y… — a/b', pages: ['a/b/one/index.html', 'a/b/two/index.html'] }]);
    const said = describeTitles(f);
    expect(said.warning).toBe(true);
    expect(said.text).toContain('1 page titles are shared, by 2 pages of 6: a/b/one/index.html ("ValueError: x & y… — a/b"), a/b/two/index.html');
    pages.set(...page('e/5/index.html', 'ValueError: z — a/b', redirect('/a/b/three/')));
    pages.delete('a/b/two/index.html');
    expect(titleFigures(pages).sharedTitles).toEqual([{ title: 'ValueError: z — a/b', pages: ['e/2/index.html', 'e/5/index.html'] }]);
    pages.delete('e/5/index.html');
    expect(describeTitles(titleFigures(pages))).toEqual({ warning: false, text: 'Page titles: 5 pages, no title shared.' });
  });

  it('reads a page head from the page itself when the render did not note it (a page of an earlier build)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-head-'));
    const file = join(dir, 'index.html');
    writeFileSync(file, `<html><head>${'<meta name="x" content="y">'.repeat(200)}<title>Late &amp; long</title><meta name="robots" content="noindex"></head><body></body></html>`);
    expect(fileHead(file)).toEqual({ title: 'Late &amp; long', noindex: true, redirect: false });
    rmSync(dir, { recursive: true, force: true });
  });
});
