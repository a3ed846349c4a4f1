/**
 * The build cache: sharded renders produce the same site as one process, an incremental build
 * re-renders only what changed and yields the same site as a cold build, and removed records vanish.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../bench/lib/synthetic.ts';
import { buildSite, expectFiguresOfWalk, listFiles, readText, type BuiltSite } from '../support/site.ts';

const root = mkdtempSync(join(tmpdir(), 'errdex-incremental-'));
const catalogDir = join(root, 'catalog');
const catalogFile = join(catalogDir, 'records.jsonl');
const lines = [...syntheticRecords({ count: 12, seed: 7 })];
const idOf = (line: string): string => JSON.parse(line).record.id;
const pathOf = (line: string): string => {
  const r = JSON.parse(line).record;
  return `${r.repo}/${r.slug}/index.html`;
};

function writeCatalog(records: string[]): void {
  mkdirSync(catalogDir, { recursive: true });
  writeFileSync(catalogFile, `${records.join('\n')}\n`);
}

/** Every file of a site with its bytes. */
function snapshot(dist: string): Map<string, string> {
  return new Map(listFiles(dist).map((f) => [f, readFileSync(join(dist, f), 'latin1')]));
}

/** Full-text index parts of at most 4 records: these 12 make 4 (2, 3, 4 and 3 records by their ids' hash). */
const PAGEFIND_PARTS = { ERRDEX_PAGEFIND_PART_RECORDS: '4' };

function build(name: string, workers: number, cache: string, args: string[] = [], env: Record<string, string> = {}): BuiltSite {
  const site = buildSite(name, catalogDir, { args, env: { ERRDEX_WORKERS: String(workers), ERRDEX_CACHE_DIR: cache, CI: '1', ...PAGEFIND_PARTS, ...env } });
  expect(site.status, site.stderr + site.stdout).toBe(0);
  return site;
}

describe('partitioned and incremental builds', () => {
  const cache = join(root, 'cache');
  let sharded: BuiltSite;
  let first: Map<string, string>;

  beforeAll(() => {
    writeCatalog(lines);
    sharded = build('shards-2', 2, cache);
    first = snapshot(sharded.dist);
  });

  it('renders in two processes and publishes every page, JSON twin and asset', () => {
    // Each partition renders its per-record pages and JSON twins, and every site-wide page (one copy is kept).
    expect(sharded.stdout).toMatch(/\d+ pages rendered, 0 unchanged \(2 processes, 2 at a time\)/);
    expect(sharded.stdout).toMatch(/highlighted, 0 cached/);
    expect(sharded.stdout).toMatch(/full-text index of 12 pages in 4 parts, /);
    for (const line of lines) {
      expect(first.has(pathOf(line))).toBe(true);
      expect(first.get(`api/errors/${idOf(line)}.json`)).toBe(line);
    }
    const css = /<link rel="stylesheet" href="\/(_astro\/[^"]+\.css)"/.exec(first.get(pathOf(lines[0]!))!)?.[1];
    expect(css && first.has(css)).toBe(true);
  });

  it('builds the same site, byte for byte, as one process does', () => {
    const single = build('shards-1', 1, join(root, 'cache-single'));
    expect(single.stdout).not.toMatch(/processes/);
    expect(snapshot(single.dist)).toEqual(first);
  });

  it('builds the same site again when the catalog is cut into more partitions than there are workers', () => {
    const chunked = build('chunks-3', 2, join(root, 'cache-chunked'), [], { ERRDEX_PARTITION_RECORDS: '4' });
    expect(chunked.stdout).toMatch(/\(3 processes, 2 at a time\)/);
    expect(snapshot(chunked.dist)).toEqual(first);
  });

  it('builds the same site when highlighting begins beside validation, from the catalog files as they are', () => {
    const early = build('early-highlight', 2, join(root, 'cache-early'), [], { ERRDEX_PARTITION_RECORDS: '4', ERRDEX_EARLY_HIGHLIGHT_BYTES: '1' });
    expect(early.stdout).toMatch(/(\d+) code blocks: \1 highlighted, 0 cached; begun beside validation/);
    expect(snapshot(early.dist)).toEqual(first);
    // Again, with every block cached but no page to reuse (the page manifest gone): nothing is highlighted.
    rmSync(join(root, 'cache-early', 'pages.json'));
    const again = build('early-highlight-2', 2, join(root, 'cache-early'), [], { ERRDEX_PARTITION_RECORDS: '4', ERRDEX_EARLY_HIGHLIGHT_BYTES: '1' });
    expect(again.stdout).toMatch(/(\d+) code blocks: 0 highlighted, \1 cached; begun beside validation/);
  });

  it('after one record changes, renders only its page and those showing it, and the site equals a cold build', () => {
    const changed = [...lines];
    const wrapped = JSON.parse(changed[5]!);
    wrapped.record.documentation = 'An edited explanation of this error, written for the incremental build test.';
    // A code block no build has highlighted: the render highlights it (nothing is highlighted ahead when pages are reused).
    wrapped.record.validationCode = `${wrapped.record.validationCode}\n// checked again after the edit`;
    changed[5] = JSON.stringify(wrapped);
    writeCatalog(changed);
    const again = build('shards-2', 2, cache);
    expect(again.stdout).toMatch(/\] not ahead of the render/);
    // The record's page and twin, the pages that show it (related errors: their cache key holds what
    // they show of it) and the site-wide pages render again; the other records' pages come from the cache.
    const [, renderedNow, unchanged] = /(\d+) pages rendered, (\d+) unchanged \(2 processes, 2 at a time\)/.exec(again.stdout)!.map(Number);
    // The other 11 records' pages are reused, but for those that show the changed one; every record's
    // JSON twin and short link is written again from the catalog (they are not Astro's to render).
    expect(unchanged).toBeGreaterThanOrEqual(1);
    expect(unchanged).toBeLessThanOrEqual(11);
    expect(again.stdout).toMatch(/ 24 JSON twins and short links/);
    // The full-text index: the part that holds the changed record is indexed again, the other three are
    // linked from the published site (the site still equals a cold build's, byte for byte, below).
    expect(again.stdout).toMatch(/full-text index of 12 pages in 4 parts \(3 unchanged\)/);
    expect(renderedNow).toBeGreaterThanOrEqual(3);
    // The listings' pages show no prose or code, and no message page shows the edited record: every one is reused.
    const [, listingsReused, listings] = /; (\d+) of (\d+) listing and message pages unchanged/.exec(again.stdout)!.map(Number);
    expect(listings).toBeGreaterThan(0);
    expect(listingsReused).toBe(listings);
    const after = snapshot(again.dist);
    expect(after.get(pathOf(changed[5]!))).toContain('An edited explanation of this error');
    expect(after.get(pathOf(changed[5]!))).toContain('checked again after the edit');
    expect(after.get(`api/errors/${idOf(changed[5]!)}.json`)).toBe(changed[5]);
    // The other records' twins are untouched (site-wide files such as the manifest's checksums do change).
    for (const line of lines.filter((_, i) => i !== 5)) expect(after.get(`api/errors/${idOf(line)}.json`)).toBe(first.get(`api/errors/${idOf(line)}.json`));

    const cold = build('cold', 2, join(root, 'cache-cold'), ['--no-cache']);
    expect(snapshot(cold.dist)).toEqual(after);
    // The site it replaced is kept beside it, the next build's standby (src/build/standby.ts).
    expect(existsSync(`${again.dist}.standby/api/errors`)).toBe(true);
  });

  it("fills the standby's folders in place, keeping only what is the published site's", () => {
    const dist = sharded.dist;
    const published = snapshot(dist);
    const standby = `${dist}.standby`;
    // What the standby must not lend: a twin, a short link, a message index file, a filter index and an
    // error page no record has, and a twin and an error page that are not the published ones (replaced,
    // as an older site's would be).
    writeFileSync(join(standby, 'api/errors/stray.json'), '{}');
    mkdirSync(join(standby, 'e/stray'));
    writeFileSync(join(standby, 'e/stray/index.html'), '<p>stray</p>');
    mkdirSync(join(standby, 'search-index/shards/stray'));
    writeFileSync(join(standby, 'search-index/shards/stray/0.json'), '{}');
    mkdirSync(join(standby, 'list-index/stray'), { recursive: true });
    writeFileSync(join(standby, 'list-index/stray/index.json'), '{}');
    const page = pathOf(lines[1]!);
    mkdirSync(join(standby, page, '../../stray'));
    writeFileSync(join(standby, page, '../../stray/index.html'), '<p>stray</p>');
    for (const replaced of [`api/errors/${idOf(lines[0]!)}.json`, page]) {
      rmSync(join(standby, replaced));
      writeFileSync(join(standby, replaced), 'not this');
    }
    // In one render process, which alone may place the reused pages in the standby's folders.
    const site = build('shards-2', 1, cache);
    expect(site.stdout).toMatch(/ 24 JSON twins and short links, 24 of them unchanged, 2[0-3] already in place in the standby's folders/);
    // The edit before moved every shard of this small index to a new folder: none is where the standby has it.
    expect(site.stdout).toMatch(/message index in \d+ files, \d+ already in place in the standby's folder/);
    expect(site.stdout).toMatch(/12 unchanged;.* [1-9]\d* of the unchanged pages already in place in the standby's folders/);
    expect(snapshot(site.dist)).toEqual(published);
    expectFiguresOfWalk(site);
    expect(existsSync(`${dist}.standby`)).toBe(true);
  });

  it('reuses from the build cache alone when the published site is gone (what a CI keeps), and renders again without it', () => {
    const site = build('shards-2', 2, cache);
    expect(site.stdout).toMatch(/ \d+ pages rendered, [1-9]\d* unchanged/);
    expect(site.stdout).toMatch(/full-text index of 12 pages in 4 parts \(4 unchanged\)/);
    const before = snapshot(site.dist);
    rmSync(site.dist, { recursive: true, force: true });
    const again = build('shards-2', 2, cache);
    expect(again.stdout).toMatch(/12 error pages: \d+ pages rendered, 12 unchanged/);
    expect(again.stdout).toMatch(/full-text index of 12 pages in 4 parts \(4 unchanged\)/);
    expect(snapshot(again.dist)).toEqual(before);
    rmSync(again.dist, { recursive: true, force: true });
    const cold = build('shards-2', 2, join(root, 'cache-none'));
    expect(cold.stdout).toMatch(/ \d+ pages rendered, 0 unchanged/);
    expect(snapshot(cold.dist)).toEqual(before);
  });

  it('drops the page and JSON twin of a removed record', () => {
    const removed = lines[3]!;
    writeCatalog(lines.filter((l) => l !== removed));
    const again = build('shards-2', 2, cache);
    const files = listFiles(again.dist);
    expect(files).not.toContain(pathOf(removed));
    expect(files).not.toContain(`api/errors/${idOf(removed)}.json`);
    expect(files.filter((f) => f.startsWith('api/errors/'))).toHaveLength(11);
    expect(readText(join(again.dist, 'index.html'))).not.toContain(JSON.parse(removed).record.slug);
    expectFiguresOfWalk(again);
  });

  it("reuses only what the cache's kept copy proves, whatever the output folder holds: the site equals a cold build", () => {
    // Run X: the catalog, with its own cache, kept aside as a backup would keep it (copied: new identities).
    writeCatalog(lines);
    const cacheX = join(root, 'cache-x');
    const x = build('mixed', 2, cacheX);
    expect(snapshot(x.dist)).toEqual(first);
    cpSync(cacheX, join(root, 'cache-x-saved'), { recursive: true });
    // One page of the saved copy is not the one the cache recorded (changed after the backup).
    writeFileSync(join(root, 'cache-x-saved/site', pathOf(lines[0]!)), '<p>changed</p>');
    // Run Y, into the same folder with another cache: the same pages' paths, other explanations.
    writeCatalog(
      lines.map((l) => {
        const wrapped = JSON.parse(l);
        wrapped.record.documentation = 'Another run wrote this explanation.';
        return JSON.stringify(wrapped);
      }),
    );
    build('mixed', 2, join(root, 'cache-y'));
    // X's catalog with X's saved cache, into the folder Y published: Y's pages are not read; X's kept
    // copy is proven by content, and its one changed page is made again.
    writeCatalog(lines);
    const again = build('mixed', 2, join(root, 'cache-x-saved'));
    expect(again.stdout).toMatch(/1 files kept in the build cache .* are not the ones it recorded/);
    expect(again.stdout).toMatch(/12 error pages: \d+ pages rendered, 11 unchanged/);
    expect(snapshot(again.dist)).toEqual(first);
    // Again, the cache's copy of the site being Y's (a cache put together from two runs): the cache's
    // keys match, none of its files do.
    rmSync(join(root, 'cache-x-saved', 'site'), { recursive: true, force: true });
    cpSync(join(root, 'cache-y', 'site'), join(root, 'cache-x-saved', 'site'), { recursive: true });
    const mixed = build('mixed', 2, join(root, 'cache-x-saved'));
    expect(mixed.stdout).toMatch(/\d+ files kept in the build cache .* are not the ones it recorded/);
    expect(mixed.stdout).toMatch(/ \d+ pages rendered, 0 unchanged/);
    expect(snapshot(mixed.dist)).toEqual(first);
    expect(snapshot(mixed.dist).get(pathOf(lines[0]!))).not.toContain('Another run wrote');
  });

  it('cleans up its temporary folders', () => {
    rmSync(root, { recursive: true, force: true });
  });
});

describe('an edit of a catalog that renders in several processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-incremental-partitions-'));
  const catalog = join(dir, 'catalog');
  // At most 4 records per render process, the processes as many as the machine's cores make it (ERRDEX_WORKERS unset).
  const env = { ERRDEX_PARTITION_RECORDS: '4', ERRDEX_CACHE_DIR: join(dir, 'cache'), CI: '1', ...PAGEFIND_PARTS };
  const write = (records: string[]) => {
    mkdirSync(catalog, { recursive: true });
    writeFileSync(join(catalog, 'records.jsonl'), `${records.join('\n')}\n`);
  };

  it('renders its few changed pages in one process, and the site equals a cold build in several', () => {
    write(lines);
    const cold = buildSite('partitions-edit', catalog, { env });
    expect(cold.status, cold.stderr).toBe(0);
    expect(cold.stdout).toMatch(/0 unchanged \([2-9]\d* processes/);
    const edited = [...lines];
    const wrapped = JSON.parse(edited[3]!);
    wrapped.record.documentation = 'An explanation edited to be rendered in one process.';
    edited[3] = JSON.stringify(wrapped);
    write(edited);
    const again = buildSite('partitions-edit', catalog, { env });
    expect(again.status, again.stderr).toBe(0);
    // 1 of 12 entries changed: one render process, which reuses the other pages.
    expect(again.stdout).toMatch(/12 error pages: \d+ pages rendered, [1-9]\d* unchanged/);
    expect(again.stdout).not.toMatch(/unchanged \(\d+ processes/);
    const reference = buildSite('partitions-edit-cold', catalog, { env: { ...env, ERRDEX_CACHE_DIR: join(dir, 'cache-cold') }, args: ['--no-cache'] });
    expect(reference.stdout).toMatch(/0 unchanged \([2-9]\d* processes/);
    expect(snapshot(again.dist)).toEqual(snapshot(reference.dist));
    rmSync(dir, { recursive: true, force: true });
  });
});
