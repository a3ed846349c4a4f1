/** The published pages linked ahead of the render, and those it did not reuse removed (src/build/reused-pages.ts). */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linkReused } from '../../../src/build/page-reuse.ts';
import { publishedPages, pruneAhead } from '../../../src/build/reused-pages.ts';

const root = mkdtempSync(join(tmpdir(), 'errdex-reused-pages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const listFiles = (dir: string, prefix = ''): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
const listDirs = (dir: string, prefix = ''): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [`${prefix}${e.name}/`, ...listDirs(join(dir, e.name), `${prefix}${e.name}/`)] : []));

describe('pages linked ahead', () => {
  const site = join(root, 'site');
  const pages = ['o/a/x-1/index.html', 'o/a/y-2/index.html', 'o/b/z-3/index.html', 'p/q/w-4/index.html'];
  for (const page of pages) {
    mkdirSync(join(site, page, '..'), { recursive: true });
    writeFileSync(join(site, page), page);
  }
  const keys = join(root, 'previous-keys.json');
  writeFileSync(keys, JSON.stringify({ ...Object.fromEntries(pages.map((p, i) => [p, `key${i}`])), 'pagefind/': 'parts' }));

  it('are every page the published site holds, not the full-text index', () => {
    expect(publishedPages(keys).sort()).toEqual(pages);
  });

  it('are pruned to the reused ones, and the folders left empty go: as if those alone had been linked', () => {
    const ahead = join(root, 'ahead');
    linkReused(publishedPages(keys), site, ahead);
    const reused = ['o/a/x-1/index.html'];
    expect(pruneAhead(keys, reused, ahead)).toBe(3);
    const listed = join(root, 'listed');
    linkReused(reused, site, listed);
    expect(listFiles(ahead)).toEqual(reused);
    expect(listDirs(ahead)).toEqual(listDirs(listed));
    expect(listDirs(ahead)).toEqual(['o/', 'o/a/', 'o/a/x-1/']);
    expect(existsSync(join(site, 'o/b/z-3/index.html'))).toBe(true);
  });
});
