import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LARGE_BUNDLE_BYTES,
  SUGGESTED_BUNDLE_BYTES,
  checkFragmentBundles,
  describeFragments,
  fragmentFiles,
  largeBundleWarning,
  parseMaxFragments,
} from '../../../src/build/pagefind-bundle.ts';
import { writePagefindIndex } from '../../../src/build/search-index.ts';
import { wrappedRecordSchema, type ErrorRecord } from '../../../src/schema/record.ts';
import { sampleWrapped } from '../../support/records.ts';

/** A fake Pagefind bundle folder with fragment files of the given sizes. */
function pagefindDir(sizes: number[], version = '9.9.9'): string {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-pagefind-'));
  mkdirSync(join(dir, 'fragment'));
  sizes.forEach((size, i) => writeFileSync(join(dir, 'fragment', `en_${i}.pf_fragment`), Buffer.alloc(size)));
  writeFileSync(join(dir, 'pagefind-entry.json'), JSON.stringify({ version, languages: {} }));
  return dir;
}

describe('--max-fragments values', () => {
  it('is absent unless given, and a whole number of at least 1 when given', () => {
    expect(parseMaxFragments(undefined)).toBeUndefined();
    expect(parseMaxFragments('1')).toBe(1);
    expect(parseMaxFragments('500')).toBe(500);
    expect(parseMaxFragments('1000000000')).toBe(1_000_000_000);
  });

  it('rejects anything else with a message naming the value and what is expected', () => {
    for (const bad of ['0', '-1', '2.5', '1e3', 'ten', ' 5', '+5', '0x10', '5 ']) {
      expect(() => parseMaxFragments(bad), bad).toThrow(`--max-fragments=${bad}: expected a whole number of at least 1`);
    }
    expect(() => parseMaxFragments(true)).toThrow('--max-fragments needs a value: a whole number of at least 1');
    expect(() => parseMaxFragments('')).toThrow('--max-fragments needs a value');
    expect(() => parseMaxFragments('1000000001')).toThrow('--max-fragments=1000000001: expected at most 1,000,000,000');
  });
});

describe('checking what Pagefind wrote', () => {
  it('counts the fragment files, their bytes and the largest', () => {
    expect(fragmentFiles(pagefindDir([10, 300, 20]))).toEqual({ files: 3, bytes: 330, largest: 300 });
    expect(fragmentFiles(mkdtempSync(join(tmpdir(), 'errdex-empty-')))).toEqual({ files: 0, bytes: 0, largest: 0 });
  });

  it('accepts at most N fragment files', () => {
    expect(checkFragmentBundles(pagefindDir([5, 6, 7]), 3, 40)).toEqual({ files: 3, bytes: 18, largest: 7 });
    expect(checkFragmentBundles(pagefindDir([5, 6]), 3, 2).files).toBe(2);
  });

  it('stops the build when Pagefind wrote more files than asked (a version that ignores maxFragments)', () => {
    expect(() => checkFragmentBundles(pagefindDir([1, 1, 1, 1, 1], '2.0.0'), 3, 5)).toThrow(
      'Pagefind 2.0.0 wrote 5 fragment files for 5 pages, more than --max-fragments=3: this Pagefind version does not bundle fragments',
    );
  });

  it('describes the result for the build summary, and warns about bundles heavy for a query', () => {
    const small = { files: 200, bytes: 4_000_000, largest: 30_000 };
    expect(describeFragments(small, 200)).toBe('fragments in 200 bundles (--max-fragments=200), largest 29 KB');
    expect(describeFragments({ files: 10_000, bytes: 9_000_000, largest: 2_000 }, undefined)).toBe('10,000 fragment files, largest 2 KB');
    expect(largeBundleWarning(small, 200)).toBeNull();
    const big = { files: 10, bytes: 4_000_000, largest: LARGE_BUNDLE_BYTES + 1 };
    expect(largeBundleWarning(big, undefined)).toBeNull();
    const warning = largeBundleWarning(big, 10);
    expect(warning).toContain('--max-fragments=10');
    // Suggests the count that cuts the same bytes into bundles of the suggested size.
    expect(warning).toContain(`--max-fragments=${Math.ceil(4_000_000 / SUGGESTED_BUNDLE_BYTES)} would make them about 16 KB`);
  });
});

describe('Pagefind honours maxFragments', () => {
  const records: ErrorRecord[] = sampleWrapped().map((w) => wrappedRecordSchema.parse(w).record);

  it('writes one fragment file per page without it, and at most N with it', async () => {
    expect(records.length).toBeGreaterThan(1);
    const plain = mkdtempSync(join(tmpdir(), 'errdex-pf-plain-'));
    expect((await writePagefindIndex(records, plain)).files).toBe(records.length);
    const bundled = mkdtempSync(join(tmpdir(), 'errdex-pf-bundled-'));
    const found = await writePagefindIndex(records, bundled, undefined, { maxFragments: 1 });
    expect(found.files).toBe(1);
    expect(fragmentFiles(join(bundled, 'pagefind'))).toEqual({ files: found.files, bytes: found.bytes, largest: found.largest });
  });
});
