import { describe, expect, it } from 'vitest';
import { catalogReport, loadCatalog } from '../../../src/catalog/catalog.ts';
import { formatProblem } from '../../../src/catalog/problems.ts';
import { SAMPLE_CLASSES, jsonl, sampleWrapped, tempCatalog } from '../../support/records.ts';

const report = (root: string) => {
  const c = loadCatalog(root);
  return { catalog: c, lines: c.problems.map(formatProblem).map((l) => l.replaceAll(`${root}/`, '')) };
};

describe('the validator report', () => {
  it('accepts the built-in catalog', () => {
    const c = loadCatalog('data');
    expect(c.problems).toEqual([]);
    expect(c.entries.map((e) => e.record.id)).toEqual(['0a6c72d63cdb2574', 'b024d3d9177721a3', '70cbd4c1e2925129']);
    expect(c.datasetVersion).toBe('2026-08-15T17:31:12.345Z');
  });

  it('gives each problem as `file:line  field  message`, with the record line of a .jsonl file', () => {
    const [a, b, c] = sampleWrapped();
    b!.record.severity = 'fatal';
    c!.record.tags = ['Bad Tag'];
    const root = tempCatalog({ 'classes.json': SAMPLE_CLASSES, 'x.jsonl': `${JSON.stringify(a)}\n\n${JSON.stringify(b)}\n${JSON.stringify(c)}\n` });
    const { lines, catalog } = report(root);
    expect(lines).toEqual([
      'x.jsonl:3  record.severity  must be one of "critical", "error", "warning", "info"; got the string "fatal"',
      'x.jsonl:4  record.tags.0  must be lowercase kebab case (a-z, 0-9 and single hyphens), e.g. "kv-transfer"',
    ]);
    expect(catalog.entries).toHaveLength(1);
    expect(catalogReport(catalog).split('\n').at(-1)).toBe('2 errors in 2 of 3 records (1 file).');
  });

  it('gives the line of the field in a .json file', () => {
    const w = sampleWrapped()[1]!;
    w.record.httpStatus = 42;
    const root = tempCatalog({ 'classes.json': SAMPLE_CLASSES, 'one.json': JSON.stringify(w, null, 2) });
    expect(report(root).lines).toEqual(['one.json:11  record.httpStatus  must be at least 100; got number 42']);
  });

  it('reports duplicate ids and duplicate (repo, slug) pairs against the first occurrence', () => {
    const [a, b] = sampleWrapped();
    const sameId = structuredClone(a!);
    sameId.record.slug = 'another-slug';
    const sameSlug = structuredClone(b!);
    sameSlug.record.id = 'ffffffffffffffff';
    sameSlug.record.slug = a!.record.slug;
    const root = tempCatalog({ 'classes.json': SAMPLE_CLASSES, 'a.jsonl': jsonl([a, b]), 'b.jsonl': jsonl([sameId, sameSlug]) });
    const { lines, catalog } = report(root);
    expect(lines).toEqual([
      `b.jsonl:1  record.id  duplicates id b024d3d9177721a3 of the record at ${root}/a.jsonl:1`,
      `b.jsonl:2  record.slug  duplicates slug "unexpected-frame-received-frame-b024d3" in vllm-project/vllm of the record at ${root}/a.jsonl:1; pages would collide`,
    ].map((l) => l.replaceAll(`${root}/`, '')));
    expect(catalog.entries.map((e) => e.origin.file.endsWith('a.jsonl'))).toEqual([true, true]);
  });

  it('reports unreadable files and lines and counts them as invalid records', () => {
    const [a] = sampleWrapped();
    const root = tempCatalog({
      'classes.json': SAMPLE_CLASSES,
      'empty.json': '',
      'broken.json': '{\n  "record": {\n    "id": "x"\n    "repo": "a/b"\n  }\n}\n',
      'lines.jsonl': Buffer.concat([Buffer.from(`${JSON.stringify(a)}\n{"record": \n`), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]),
      'nowrapper.json': JSON.stringify({ ...a!.record, id: 'ffffffffffffffff', slug: 'bare-record' }),
    });
    const { lines, catalog } = report(root);
    expect(lines).toEqual([
      'broken.json:4  (file)  malformed JSON at column 5: expected \',\' or \'}\' after a property value, found "\\""',
      'empty.json:1  (file)  is empty; expected a wrapped record {"record": {...}, "datasetVersion": "..."}',
      'lines.jsonl:2  (file)  malformed JSON at column 12: expected a value, found end of input',
      'lines.jsonl:3  (file)  is not valid UTF-8: the byte 0xFF at column 2 is not a UTF-8 character; save the file as UTF-8',
    ]);
    expect(catalog.total).toBe(6); // 2 valid (one of them bare); empty, broken, 2 bad lines
    expect(catalog.entries).toHaveLength(2);
    expect(catalog.skipped).toHaveLength(4);
  });

  it('reads past a byte-order mark and CRLF line endings without altering the record', () => {
    const [a, b] = sampleWrapped();
    const root = tempCatalog({ 'classes.json': SAMPLE_CLASSES, 'crlf.jsonl': `\uFEFF${JSON.stringify(a)}\r\n${JSON.stringify(b)}\r\n` });
    const c = loadCatalog(root);
    expect(c.problems).toEqual([]);
    expect(c.entries.map((e) => e.sourceText)).toEqual([JSON.stringify(b), JSON.stringify(a)].sort((x, y) => (JSON.parse(x).record.slug < JSON.parse(y).record.slug ? -1 : 1)));
  });

  it('says when the catalog folder has no catalog files', () => {
    const root = tempCatalog({ 'notes.txt': 'hello' });
    expect(report(root).lines).toEqual([expect.stringMatching(/ {2}\(file\) {2}holds no \.json or \.jsonl catalog files$/)]);
  });
});
