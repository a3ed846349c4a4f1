/**
 * Inputs that once crashed the loader or vanished without a word: every one must end as a problem
 * naming its file (and line where it has one), and the catalog's other records must still load.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { loadCatalogFiles } from '../../../src/catalog/load.ts';
import { formatProblem } from '../../../src/catalog/problems.ts';
import { baseRecord } from '../../fixtures/bad-catalogs/cases.ts';

const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-load-'));
  folders.push(dir);
  return dir;
}

/** A catalog folder with one good record in `good.jsonl` and whatever `setup` adds. */
function catalogWith(setup: (root: string, outside: string) => void): string {
  const base = tempFolder();
  const root = join(base, 'catalog');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(root, 'good.jsonl'), `${JSON.stringify(baseRecord(1))}\n`);
  setup(root, outside);
  return root;
}

/** The report's problem lines in order, with the catalog folder's path cut off. */
function problemLines(root: string): { lines: string[]; ids: string[]; total: number } {
  const catalog = loadCatalog(root);
  const lines = [...catalog.problems, ...catalog.warnings].map((p) => formatProblem(p).split(`${root}/`).join('')).sort();
  return { lines, ids: catalog.entries.map((e) => e.record.id), total: catalog.total };
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('deeply nested JSON', () => {
  it('a line nested 4,000 deep (8 KB) is a problem on its line, not a RangeError', () => {
    const root = catalogWith((r) => {
      const w = JSON.stringify(baseRecord(2));
      writeFileSync(
        join(r, 'deep.jsonl'),
        [
          `{"record":${deep(4000)},"datasetVersion":"2026-07-02T00:00:00Z"}`,
          deep(4000),
          `${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}`,
          w.replace('"tags":["store"]', `"tags":["store"],"$comment":${deep(100_000)}`),
        ].join('\n'),
      );
    });
    const { lines, ids, total } = problemLines(root);
    expect(ids).toEqual(['0000000000000001']);
    expect(total).toBe(5);
    expect(lines).toEqual([
      'deep.jsonl:1  record  is nested 4,001 levels deep; the limit is 64 (a record needs 3)',
      'deep.jsonl:2  (file)  is nested 3,999 levels deep; the limit is 64 (a record needs 3)',
      'deep.jsonl:3  a  is nested 4,000 levels deep; the limit is 64 (a record needs 3)',
      'deep.jsonl:4  record.$comment  is nested 100,002 levels deep; the limit is 64 (a record needs 3)',
    ]);
  });

  it('in a .json file holding an array, only the deep item is refused, on its own line', () => {
    const root = catalogWith((r) => {
      writeFileSync(join(r, 'many.json'), `[\n${JSON.stringify(baseRecord(2))},\n${deep(5000)},\n${JSON.stringify(baseRecord(3))}\n]\n`);
    });
    const { lines, ids } = problemLines(root);
    expect(ids.sort()).toEqual(['0000000000000001', '0000000000000002', '0000000000000003']);
    expect(lines).toEqual(['many.json:3  (file)  is nested 5,000 levels deep; the limit is 64 (a record needs 3)']);
  });
});

describe('file names and kinds', () => {
  it('a file name that is not UTF-8 is named (its bad bytes escaped) and not read', () => {
    const root = catalogWith((r) => {
      writeFileSync(Buffer.concat([Buffer.from(`${r}/caf`), Buffer.from([0xe9]), Buffer.from('.jsonl')]), `${JSON.stringify(baseRecord(2))}\n`);
      mkdirSync(Buffer.concat([Buffer.from(`${r}/dir`), Buffer.from([0xff])]));
    });
    const { lines, ids, total } = problemLines(root);
    expect(ids).toEqual(['0000000000000001']);
    expect(total).toBe(3);
    expect(lines).toEqual([
      'caf\\xE9.jsonl:1  (file)  has a name that is not valid UTF-8 (the byte 0xE9); rename it to read it',
      'dir\\xFF:1  (file)  has a name that is not valid UTF-8 (the byte 0xFF); rename it to read it',
    ]);
  });

  it('a FIFO named like a catalog file is reported, not read (reading it would wait forever)', () => {
    const root = catalogWith((r) => execFileSync('mkfifo', [join(r, 'pipe.jsonl')]));
    expect(problemLines(root).lines).toEqual(['pipe.jsonl:1  (file)  is not a regular file (a FIFO); it is not read']);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file is reported with the reason', () => {
    const root = catalogWith((r) => {
      writeFileSync(join(r, 'secret.jsonl'), `${JSON.stringify(baseRecord(2))}\n`);
      chmodSync(join(r, 'secret.jsonl'), 0);
    });
    expect(problemLines(root).lines).toEqual([expect.stringMatching(/^secret\.jsonl:1 {2}\(file\) {2}cannot be read: EACCES/)]);
  });

  it('a file over the size the loader reads is reported with its size and the limit, not read', () => {
    const root = catalogWith((r) => {
      writeFileSync(join(r, 'big.jsonl'), `${JSON.stringify(baseRecord(2))}\n${JSON.stringify(baseRecord(3))}\n`);
      writeFileSync(join(r, 'big.json'), JSON.stringify(baseRecord(4)));
    });
    const loaded = loadCatalogFiles(root, { maxBytes: { json: 1000, jsonl: 2000 } });
    expect(loaded.entries.map((e) => e.line)).toEqual([1]);
    expect(loaded.unreadable).toBe(2);
    expect(loaded.problems.map((p) => formatProblem(p).split(`${root}/`).join(''))).toEqual([
      expect.stringMatching(/^big\.json:1 {2}\(file\) {2}is 1,\d{3} bytes; the largest \.json file errdex reads is 1,000 bytes: split it into several files$/),
      expect.stringMatching(/^big\.jsonl:1 {2}\(file\) {2}is 2,\d{3} bytes; the largest \.jsonl file errdex reads is 2,000 bytes: split it into several files$/),
    ]);
  });
});

describe('symbolic links', () => {
  it('a link to a file or folder inside the catalog folder is followed', () => {
    const root = catalogWith((r) => {
      mkdirSync(join(r, 'real'));
      writeFileSync(join(r, 'real', 'two.jsonl'), `${JSON.stringify(baseRecord(2))}\n`);
      mkdirSync(join(r, 'elsewhere'));
      writeFileSync(join(r, 'elsewhere', 'three.json.txt'), JSON.stringify(baseRecord(3)));
      symlinkSync('elsewhere/three.json.txt', join(r, 'three.json'));
    });
    const { lines, ids } = problemLines(root);
    expect(lines).toEqual([]);
    expect(ids.sort()).toEqual(['0000000000000001', '0000000000000002', '0000000000000003']);
  });

  it('a link that leaves the catalog folder is reported and not read', () => {
    const root = catalogWith((r, outside) => {
      writeFileSync(join(outside, 'two.jsonl'), `${JSON.stringify(baseRecord(2))}\n`);
      symlinkSync(join(outside, 'two.jsonl'), join(r, 'two.jsonl'));
      symlinkSync(outside, join(r, 'more'));
    });
    const { lines, ids, total } = problemLines(root);
    expect(ids).toEqual(['0000000000000001']);
    expect(total).toBe(3);
    expect(lines).toEqual([
      expect.stringMatching(/^more:1 {2}\(file\) {2}is a symbolic link to .*outside, outside the catalog folder; it is not read$/),
      expect.stringMatching(/^two\.jsonl:1 {2}\(file\) {2}is a symbolic link to .*outside\/two\.jsonl, outside the catalog folder; it is not read$/),
    ]);
  });

  it('loops and broken links are reported; a second way to the same file reads it once, with a warning', () => {
    const root = catalogWith((r) => {
      mkdirSync(join(r, 'sub'));
      writeFileSync(join(r, 'sub', 'two.jsonl'), `${JSON.stringify(baseRecord(2))}\n`);
      symlinkSync('..', join(r, 'sub', 'up'));
      symlinkSync('self.jsonl', join(r, 'self.jsonl'));
      symlinkSync('missing.jsonl', join(r, 'gone.jsonl'));
      symlinkSync('good.jsonl', join(r, 'again.jsonl'));
    });
    const { lines, ids, total } = problemLines(root);
    expect(ids.sort()).toEqual(['0000000000000001', '0000000000000002']);
    expect(total).toBe(4);
    expect(loadCatalog(root).warnings.map((w) => w.file.split('/').at(-1)).sort()).toEqual(['again.jsonl', 'up']);
    expect(lines).toEqual([
      'again.jsonl:1  (file)  warning: is a symbolic link to good.jsonl, which is read already; its records are read once',
      'gone.jsonl:1  (file)  is a symbolic link to missing.jsonl, which does not exist',
      'self.jsonl:1  (file)  is a symbolic link that loops (ELOOP); it is not read',
      expect.stringMatching(/^sub\/up:1 {2}\(file\) {2}warning: is a symbolic link to a folder that holds it \(.*catalog\); the loop is not followed$/),
    ]);
  });
});

describe("the catalog's own files", () => {
  it.each([
    ['a folder', (path: string) => mkdirSync(path), /is not a regular file \(a folder\); it is not read$/],
    ['a FIFO', (path: string) => execFileSync('mkfifo', [path]), /is not a regular file \(a FIFO, socket or device\); it is not read$/],
    ['a broken link', (path: string) => symlinkSync('missing.json', path), /cannot be read: ENOENT/],
    ['not UTF-8', (path: string) => writeFileSync(path, Buffer.from([0x7b, 0xff, 0x7d])), /is not valid UTF-8: the byte 0xFF at column 2/],
  ])('url-ledger.json and classes.json that are %s are problems naming them, not crashes', (_, make, message) => {
    const root = catalogWith((r) => {
      make(join(r, 'url-ledger.json'));
      make(join(r, 'classes.json'));
    });
    const catalog = loadCatalog(root);
    expect(catalog.problems.map((p) => `${p.file.split('/').at(-1)}:${p.line}  ${p.field}`).sort()).toEqual(['classes.json:1  (file)', 'url-ledger.json:1  (file)']);
    for (const p of catalog.problems) expect(p.message).toMatch(message);
    expect(catalog.entries.map((e) => e.record.id)).toEqual(['0000000000000001']);
  });
});

it('a one-file catalog that is a FIFO is reported, not waited on', () => {
  const path = join(tempFolder(), 'catalog.jsonl');
  execFileSync('mkfifo', [path]);
  expect(problemLines(path).lines).toEqual([expect.stringMatching(/catalog\.jsonl:1 {2}\(file\) {2}is not a regular file \(a FIFO\); it is not read$/)]);
});
