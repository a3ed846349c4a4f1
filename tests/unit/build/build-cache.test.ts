import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeInto } from '../../../src/build/site-folders.ts';
import { catalogBlocks, preHighlight, rawCatalogBlocks } from '../../../src/build/highlight-pool.ts';
import { loadCatalog, type CatalogEntry } from '../../../src/catalog/catalog.ts';
import { entriesIn, partitionOfId, routesIn } from '../../../src/catalog/partition.ts';
import { textHash, textKey } from '../../../src/catalog/entry.ts';
import { listingCacheKey, pageCacheKey, recordCacheKey } from '../../../src/catalog/page-cache.ts';
import { twinsSha256 } from '../../../src/views/api.ts';
import { lazySnapshotTexts, leanSnapshotEntries, readRelated, readSnapshot, snapshotBytes, snapshotPieces, wholeEntry, writeRelated, writeSnapshot } from '../../../src/catalog/snapshot.ts';
import { deriveCatalog } from '../../../src/catalog/derive/index.ts';
import { dropCode, dropProse } from '../../../src/catalog/record-fields.ts';
import { relatedErrors } from '../../../src/catalog/derive/related.ts';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import { HighlightStore, highlightKey, storedText } from '../../../src/highlight/cache.ts';
import { blockKey, cachedLines, highlightLines } from '../../../src/highlight/highlighter.ts';
import { highlightedCode } from '../../../src/views/error-view.ts';
import { SAMPLE_CATALOG } from '../../support/records.ts';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'errdex-cache-'));

describe('the highlight cache', () => {
  it('keys a block by everything its HTML depends on', () => {
    const k = highlightKey('x = 1', 'python', 'f1', '4.6.0');
    expect(k).toMatch(/^[0-9a-f]{40}$/);
    expect(highlightKey('x = 1', 'python', 'f1', '4.6.0')).toBe(k);
    expect(highlightKey('x = 2', 'python', 'f1', '4.6.0')).not.toBe(k);
    expect(highlightKey('x = 1', 'ruby', 'f1', '4.6.0')).not.toBe(k);
    expect(highlightKey('x = 1', 'python', 'f2', '4.6.0')).not.toBe(k);
    expect(highlightKey('x = 1', 'python', 'f1', '4.7.0')).not.toBe(k);
  });

  it('stores lines, empty ones included, keeps them across openings, and prunes the ones no longer used', () => {
    const file = join(tempDir(), 'nested', 'highlight.sqlite');
    const store = new HighlightStore(file);
    expect(store.get('a')).toBeNull();
    store.putMany([
      { key: 'a', text: storedText(['<span class="tk">def</span> f():', '', '    pass']) },
      { key: 'b', text: 'x' },
      { key: 'c', text: '' },
    ]);
    store.close();
    const again = new HighlightStore(file);
    expect(again.get('a')).toEqual(['<span class="tk">def</span> f():', '', '    pass']);
    expect(again.get('c')).toEqual(['']);
    expect(again.has('b')).toBe(true);
    expect(again.prune(['a'])).toBe(2);
    expect([again.has('a'), again.has('b'), again.has('c'), again.count()]).toEqual([true, false, false, 1]);
    again.close();
  });

  it('reads in one transaction that a write ends: a store that has read can store, and reads what it stored', () => {
    const file = join(tempDir(), 'highlight.sqlite');
    const writer = new HighlightStore(file);
    writer.putMany([{ key: 'a', text: '1' }]);
    const reader = new HighlightStore(file);
    expect(reader.get('a')).toEqual(['1']);
    expect(reader.has('b')).toBe(false);
    reader.putMany([{ key: 'b', text: '2' }]);
    expect([reader.get('b'), reader.count()]).toEqual([['2'], 2]);
    // Another connection's write is seen once the reader's transaction has ended (here: by its prune).
    writer.putMany([{ key: 'c', text: '3' }]);
    expect(reader.prune(['a', 'b', 'c'])).toBe(0);
    expect(reader.get('c')).toEqual(['3']);
    reader.close();
    writer.close();
  });

  it('serves pages the same lines as highlighting afresh, and stores a miss for the next build', async () => {
    const file = join(tempDir(), 'highlight.sqlite');
    const code = 'if x is None:\n    raise ValueError(f"bad {x}")';
    const fresh = await highlightLines(code, 'python');
    expect(fresh.join('\n')).toContain('<span class="tk">');
    expect(await cachedLines(code, 'python', file)).toEqual(fresh); // a miss: highlighted and stored
    const store = new HighlightStore(file);
    expect(store.get(blockKey(code, 'python'))).toEqual(fresh);
    // A hit is read, not highlighted: prove it by planting different lines under the key.
    store.putMany([{ key: blockKey(code, 'python'), text: 'planted' }]);
    store.close();
    expect(await cachedLines(code, 'python', file)).toEqual(['planted']);
  });
});

describe('pre-highlighting a catalog', () => {
  const entries = loadCatalog(SAMPLE_CATALOG).entries;

  it('finds every code block a page shows: excerpt, example fix and defensive patterns', () => {
    const r = entries[0]!.record;
    const codes = highlightedCode(r).map((b) => b.code);
    const expected = [r.sourceCode, r.exampleFix, r.validationCode, r.typeGuard, r.tryCatchPattern].filter((c) => c !== null);
    expect(codes).toEqual(expected);
    expect(catalogBlocks(entries).total).toBe(entries.reduce((n, e) => n + highlightedCode(e.record).length, 0));
  });

  it('highlights what is missing, reuses what is cached, and prunes what no record uses', async () => {
    const file = join(tempDir(), 'highlight.sqlite');
    const first = await preHighlight(catalogBlocks(entries), { file, workers: 1 });
    expect(first.highlighted).toBe(first.unique);
    expect(first.cached).toBe(0);
    const store = new HighlightStore(file);
    for (const b of catalogBlocks(entries).blocks.values()) expect(store.get(b.key)).toEqual(await highlightLines(b.code, b.lang));
    store.putMany([{ key: 'stale', text: 'stale' }]);
    store.close();
    const second = await preHighlight(catalogBlocks(entries), { file, workers: 1 });
    expect(second).toMatchObject({ highlighted: 0, cached: first.unique, pruned: 1 });
    const refreshed = await preHighlight(catalogBlocks(entries), { file, workers: 1, refresh: true });
    expect(refreshed.highlighted).toBe(first.unique);
    expect(refreshed.highlightedKeys.sort()).toEqual([...catalogBlocks(entries).blocks.keys()].sort());
  });

  it('finds the same blocks in the catalog files as they are as in the validated records, and passes over what it cannot read', () => {
    const dir = tempDir();
    const lines = [...syntheticRecords({ count: 30, seed: 3 })];
    const broken = JSON.parse(lines[0]!);
    broken.record.sourceCode = 42; // invalid: validation reports it
    const noFile = JSON.parse(lines[1]!);
    delete noFile.record.filePath;
    writeFileSync(join(dir, 'a.jsonl'), `${lines.slice(2, 20).join('\n')}\n{"record": \n${JSON.stringify(broken)}\n${JSON.stringify(noFile)}\n[1, 2]\nnull\n`);
    writeFileSync(join(dir, 'b.json'), lines[20]!);
    writeFileSync(join(dir, 'c.jsonl'), lines.slice(21).join('\n'));
    writeFileSync(join(dir, 'd.json'), '{ not json');
    const valid = loadCatalog(dir).entries.filter((e) => e.record.id !== broken.record.id && e.record.id !== noFile.record.id);
    expect(valid).toHaveLength(28);
    const raw = rawCatalogBlocks(dir);
    const fromRecords = catalogBlocks(valid);
    // The broken record's other blocks are found too: only cache entries, pruned when no page uses them.
    const extra = highlightedCode({ ...broken.record, sourceCode: null }).map((b) => blockKey(b.code, b.lang));
    expect(new Set(raw.blocks.keys())).toEqual(new Set([...fromRecords.blocks.keys(), ...extra]));
    expect(raw.total).toBe(fromRecords.total + extra.length);
    expect(rawCatalogBlocks(join(dir, 'missing')).blocks.size).toBe(0);
  });
});

describe('render partitions', () => {
  it('puts every record in exactly one partition, the same one every time, and splits evenly', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `${i.toString(16).padStart(16, '0')}`);
    const counts = [0, 0];
    for (const id of ids) {
      const s = partitionOfId(id, 2);
      expect(partitionOfId(id, 2)).toBe(s);
      counts[s]!++;
    }
    expect(Math.min(...counts)).toBeGreaterThan(800);
    const entries = loadCatalog(SAMPLE_CATALOG).entries;
    const parts = [entriesIn(entries, { index: 0, count: 2 }), entriesIn(entries, { index: 1, count: 2 })];
    expect([...parts[0]!, ...parts[1]!].map((e) => e.record.id).sort()).toEqual(entries.map((e) => e.record.id).sort());
  });

  it('gives each site-wide page (a route and its parameters) to exactly one of three partitions', () => {
    const routes = Array.from({ length: 300 }, (_, i) => ({ params: { owner: 'acme', repo: `r${i % 7}`, page: String(i) } }));
    const parts = [0, 1, 2].map((index) => routesIn(routes, { index, count: 3 }));
    expect(parts.flat().map((r) => r.params.page).sort()).toEqual(routes.map((r) => r.params.page).sort());
    for (const part of parts) expect(part.length).toBeGreaterThan(60);
    expect(routesIn(routes, { index: 0, count: 1 })).toEqual(routes);
  });

  it('keys a record for the incremental build by its exact text', () => {
    expect(recordCacheKey({ sourceText: '{"a":1}' })).toBe(recordCacheKey({ sourceText: '{"a":1}' }));
    expect(recordCacheKey({ sourceText: '{"a":1}' })).not.toBe(recordCacheKey({ sourceText: '{"a": 1}' }));
    // What a page shows of other records is part of its key: a related record's text, and why it is related.
    const page = { sourceText: '{"a":1}' };
    const shown = (text: string, reason: string) => ({ related: [{ entry: { sourceText: text, record: {} }, reasons: [reason] }] });
    expect(recordCacheKey(page, shown('{"b":1}', 'same file'))).toBe(recordCacheKey(page, shown('{"b":1}', 'same file')));
    expect(recordCacheKey(page, shown('{"b":1}', 'same file'))).not.toBe(recordCacheKey(page, shown('{"b":2}', 'same file')));
    expect(recordCacheKey(page, shown('{"b":1}', 'same file'))).not.toBe(recordCacheKey(page, shown('{"b":1}', 'same class')));
    // A record read without its text (only its hash, as a render process reusing pages reads it) keys the same.
    expect(recordCacheKey({ sourceText: '', textKey: textHash('{"a":1}') })).toBe(recordCacheKey({ sourceText: '{"a":1}' }));
    expect(recordCacheKey({ sourceText: '', textKey: textHash('{"a": 1}') })).not.toBe(recordCacheKey({ sourceText: '{"a":1}' }));
  });

  it("keys a listing's page by its file, and its whole listing's records but their code and prose", () => {
    const entries = loadCatalog(SAMPLE_CATALOG).entries;
    const again = () => loadCatalog(SAMPLE_CATALOG).entries;
    const key = (list: CatalogEntry[], file = 'acme/app/index.html', shown = '[]') => listingCacheKey(file, list, shown);
    const base = key(entries);
    expect(key(again())).toBe(base);
    // Prose and code are on the record's own page only.
    const edited = (f: (r: CatalogEntry['record']) => void) => {
      const list = again();
      f(list[1]!.record);
      return key(list);
    };
    expect(edited((r) => (r.documentation = 'Another explanation.'))).toBe(base);
    expect(edited((r) => (r.solutions = []))).toBe(base);
    expect(edited((r) => (r.sourceCode = 'raise Other()'))).toBe(base);
    // A row's fields, the listing's order, the page's file and what else the pages show each change it.
    expect(edited((r) => (r.errorMessage = 'Another message'))).not.toBe(base);
    expect(edited((r) => (r.lineNumber = (r.lineNumber ?? 0) + 1))).not.toBe(base);
    expect(edited((r) => (r.analyzedAt = '2030-01-01T00:00:00Z'))).not.toBe(base);
    expect(key([...again()].reverse())).not.toBe(base);
    expect(key(again().slice(1))).not.toBe(base);
    expect(key(again(), 'acme/app/page/2/index.html')).not.toBe(base);
    expect(key(again(), 'acme/app/index.html', '[{"id":"x"}]')).not.toBe(base);
    // Only the record's own fields of those names are left out: a nested one is a row's field like any other.
    const nested = (documentation: string) => edited((r) => Object.assign(r, { context: { documentation } }));
    expect(nested('one')).not.toBe(nested('two'));
  });

  it("keys a message page by its file and what it shows, each record by its text's hash", () => {
    const page = (text: string, scope: string | null) => ({ message: 'm', entries: [{ entry: { sourceText: text, record: {} }, scope }] });
    const base = pageCacheKey('r/m/x/index.html', page('{"a":1}', 'f'));
    expect(pageCacheKey('r/m/x/index.html', page('{"a":1}', 'f'))).toBe(base);
    expect(pageCacheKey('r/m/x/index.html', { message: 'm', entries: [{ entry: { sourceText: '', textKey: textHash('{"a":1}') }, scope: 'f' }] })).toBe(base);
    expect(pageCacheKey('r/m/x/index.html', page('{"a":2}', 'f'))).not.toBe(base);
    expect(pageCacheKey('r/m/x/index.html', page('{"a":1}', 'g'))).not.toBe(base);
    expect(pageCacheKey('r/m/y/index.html', page('{"a":1}', 'f'))).not.toBe(base);
  });

  it('merges a partition into the site: its own folders moved, shared files kept once', () => {
    const a = tempDir();
    const b = tempDir();
    const put = (root: string, path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    put(a, 'index.html', 'home from partition 0');
    put(a, 'acme/app/one/index.html', 'one');
    put(b, 'index.html', 'home from partition 1');
    put(b, 'acme/app/two/index.html', 'two');
    put(b, 'zeta/lib/three/index.html', 'three');
    mergeInto(b, a);
    expect(readFileSync(join(a, 'index.html'), 'utf8')).toBe('home from partition 0');
    expect(readFileSync(join(a, 'acme/app/two/index.html'), 'utf8')).toBe('two');
    expect(readFileSync(join(a, 'zeta/lib/three/index.html'), 'utf8')).toBe('three');
    expect(existsSync(join(a, 'acme/app/one/index.html'))).toBe(true);
  });
});

/** A record as the lean snapshot holds it (without its documentation, as read without it). */
const withoutCodeAndProse = (record: CatalogEntry['record']) => {
  const copy = { ...record };
  dropCode(copy);
  dropProse(copy);
  return copy;
};

describe('catalog snapshots', () => {
  it('give a render process the same entries the build validated', async () => {
    const entries = loadCatalog(SAMPLE_CATALOG).entries;
    const file = join(tempDir(), 'chunk.jsonl');
    expect(writeSnapshot(file, entries)).toBe(entries.length);
    expect(readSnapshot(file)).toEqual(entries);
  });

  it('keep each source text exactly: over several lines, with tabs between values and inside strings', async () => {
    // As validated: the schema fills in an absent backgroundTag, and a snapshot read gives it back so.
    const record = { id: 'id-1', documentation: 'a\tb', sourceCode: 'x\n\ty', backgroundTag: null };
    const texts = [
      JSON.stringify({ record }),
      JSON.stringify({ record }, null, 2),
      JSON.stringify({ record }, null, '\t').replaceAll('\n', '\r\n'),
      `{\t"record":\t${JSON.stringify(record)}}`,
    ];
    const entries = texts.map((sourceText, i) => ({ record, sourceText, datasetVersion: 'v\t1', origin: { file: `a\t${i}.json`, line: i + 1 } }) as unknown as CatalogEntry);
    const file = join(tempDir(), 'texts.jsonl');
    writeSnapshot(file, entries);
    expect(snapshotPieces(file).flatMap((p) => readFileSync(p.full, 'utf8').split('\n').slice(0, -1))).toHaveLength(entries.length);
    expect(readSnapshot(file)).toEqual(entries);
    expect([...lazySnapshotTexts(file)].map(([id, text]) => [id, text()])).toEqual(entries.map((e) => [e.record.id, e.sourceText]));
    // The lean snapshot: each entry without its code, prose and text, with its text's hash; read whole again from its line, in either form.
    const lean = [...leanSnapshotEntries(file)];
    expect(lean.map((e) => e.record)).toEqual(entries.map((e) => withoutCodeAndProse(e.record)));
    expect(lean.map((e) => [e.sourceText, e.textKey, e.datasetVersion, e.origin])).toEqual(entries.map((e) => ['', textKey(e), e.datasetVersion, e.origin]));
    expect(lean.map((e) => wholeEntry(file, e))).toEqual(entries);
  });

  it('read back whole when lines cross the blocks the file is read in (over 8 MB), and leave out what a process does not need', async () => {
    const entries = Array.from({ length: 3_000 }, (_, i) => {
      const record = { id: `id-${i}`, sourceCode: 'x'.repeat(3_000 + (i % 7)), exampleFix: 'fix', documentation: `é ${i}`, backgroundTag: null };
      const sourceText = JSON.stringify({ record });
      return { record, sourceText, datasetVersion: 'v1', origin: { file: 'a.jsonl', line: i + 1 } } as unknown as CatalogEntry;
    });
    const file = join(tempDir(), 'big.jsonl');
    writeSnapshot(file, entries);
    expect(snapshotBytes(file)).toBeGreaterThan(8 * 1024 * 1024);
    expect(readSnapshot(file)).toEqual(entries);
    // The code without the prose and the text (the message index's raise sites).
    const light = readSnapshot(file, { prose: false, text: false });
    expect(light.map((e) => e.record.id)).toEqual(entries.map((e) => e.record.id));
    expect(light.map((e) => e.record.sourceCode)).toEqual(entries.map((e) => e.record.sourceCode));
    expect(light[6]!.record.exampleFix).toBe('fix');
    expect(light[6]!.record.documentation).toBe('');
    expect(light.every((e) => e.sourceText === '')).toBe(true);
    // Only the entries asked for (a full-text index part: src/build/search-index.ts).
    expect(readSnapshot(file, { entry: (id) => id.endsWith('7') })).toEqual(entries.filter((e) => e.record.id.endsWith('7')));
    // The lean snapshot: each record without code and prose, its documentation when asked for, its line in the snapshot.
    const lean = [...leanSnapshotEntries(file, { documentation: true })];
    expect(snapshotBytes(file, true)).toBeLessThan(snapshotBytes(file) / 5);
    expect(lean.map((e) => [e.record.sourceCode, e.record.exampleFix, e.record.documentation])).toEqual(entries.map((e) => [null, null, e.record.documentation]));
    expect(lean.every((e, i) => e.sourceText === '' && e.textKey === textKey(entries[i]!))).toBe(true);
    expect(wholeEntry(file, lean[2_999]!)).toEqual(entries[2_999]);
    expect([...leanSnapshotEntries(file, { entry: (id) => id.endsWith('7') })].map((e) => e.record.id)).toEqual(entries.filter((e) => e.record.id.endsWith('7')).map((e) => e.record.id));
    // A render process's read (the lean snapshot): the texts are left out, their hashes kept for the page keys.
    const other = 7;
    expect(lean[other]!.sourceText).toBe('');
    // So another record's page that shows it gets the same key as from the whole entry.
    expect(recordCacheKey(entries[1]!, { related: [{ entry: lean[other] }] })).toBe(recordCacheKey(entries[1]!, { related: [{ entry: entries[other] }] }));
    expect(recordCacheKey(entries[1]!, { related: [{ entry: lean[other] }] })).not.toBe(recordCacheKey(entries[1]!, { related: [{ entry: entries[other + 1] }] }));
    // The manifest's checksum of the twins needs every text: a lean read cannot make it up.
    expect(() => twinsSha256(lean)).toThrow(/was not read .*the snapshot's head/);
    expect(twinsSha256(readSnapshot(file, { prose: false }))).toBe(twinsSha256(entries));
    // A page reads its own whole from its line, as it was written.
    for (const i of [0, 3, 40, entries.length - 1]) {
      expect(lean[i]!.record.sourceCode).toBeNull();
      const whole = wholeEntry(file, lean[i]!);
      expect(whole).toEqual(entries[i]);
      expect(JSON.stringify(whole.record)).toBe(JSON.stringify(entries[i]!.record));
    }
    expect(wholeEntry(file, entries[5]!)).toBe(entries[5]);
    expect(() => wholeEntry(file, { ...lean[3]!, snapshotLine: lean[4]!.snapshotLine })).toThrow(/is not the line of id-3/);
    // Pages keyed from the partial read and from the whole one are the same pages.
    expect(recordCacheKey(lean[41]!)).toBe(recordCacheKey(entries[41]!));
  });

  it('read back a line longer than the block the file is read in, and the lines after it', async () => {
    const entry = (i: number, code: string) => {
      const record = { id: `id-${i}`, sourceCode: code, documentation: `d ${i}`, backgroundTag: null };
      return { record, sourceText: JSON.stringify({ record }), datasetVersion: 'v1', origin: { file: 'a.jsonl', line: i + 1 } } as unknown as CatalogEntry;
    };
    // 20 MB in one line: more than twice the 8 MB block, between short lines.
    const entries = [entry(0, 'a'), entry(1, 'x'.repeat(20 * 1024 * 1024)), entry(2, 'b'), ...Array.from({ length: 2_000 }, (_, i) => entry(i + 3, 'y'.repeat(5_000)))];
    const file = join(tempDir(), 'long.jsonl');
    writeSnapshot(file, entries);
    expect(readSnapshot(file)).toEqual(entries);
  });

  it('give a render process the related errors computed once, the same as computing them there', async () => {
    const dir = tempDir();
    const lines = [...syntheticRecords({ count: 60, seed: 3 })];
    writeFileSync(join(dir, 'records.jsonl'), `${lines.join('\n')}\n`);
    const catalog = loadCatalog(dir);
    const links = relatedErrors(catalog.entries.map((e) => e.record));
    expect(links.some((l) => l.length > 0)).toBe(true);
    const file = join(dir, 'related.jsonl');
    const written = writeRelated(file, links);
    expect(written.lines).toBe(catalog.entries.length);
    expect(written.sha1).toBe(createHash('sha1').update(readFileSync(file)).digest('hex'));
    expect(readRelated(file)).toEqual(links);
    // A render process reads only its own partition's links.
    const own = (i: number) => partitionOfId(catalog.entries[i]!.record.id, 3) === 2;
    expect(readRelated(file, own)).toEqual(links.map((l, i) => (own(i) ? l : [])));
    expect(deriveCatalog(catalog, readRelated(file)).related).toEqual(deriveCatalog(catalog).related);
    expect(() => deriveCatalog(catalog, links.slice(1))).toThrow(/related errors for 59 records, but the catalog has 60/);
  });
});
