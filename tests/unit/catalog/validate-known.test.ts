/**
 * Entries an earlier validation by the same code found sound alone (`known`, src/catalog/validate.ts)
 * are not checked alone again, but are still checked across records, and read as every later process
 * reads them (readTwin).
 */
import { describe, expect, it } from 'vitest';
import { textHash } from '../../../src/catalog/entry.ts';
import type { RawEntry } from '../../../src/catalog/load.ts';
import { validateEntries } from '../../../src/catalog/validate.ts';
import { readTwin } from '../../../src/schema/input-forms.ts';
import { flaggedSamples, sampleWrapped } from '../../support/records.ts';

const entryOf = (value: unknown, index: number): RawEntry => ({ file: 'c.jsonl', line: index + 1, text: JSON.stringify(value), value, isJsonl: true });
const VERSION = { buildDatasetVersion: '2026-01-01T00:00:00.000Z' };

describe('validation with the entries known to be sound', () => {
  const [a, b, c] = sampleWrapped();
  const { warned, broken } = flaggedSamples();

  it('names the sound ones only: no warning, no error of their own', () => {
    const entries = [a, b, c, warned, broken].map(entryOf);
    const plain = validateEntries(entries, VERSION);
    const first = validateEntries(entries, { ...VERSION, known: new Set() });
    expect(first.problems).toEqual(plain.problems);
    expect(first.warnings).toEqual(plain.warnings);
    expect(plain.problems.length + plain.warnings.length).toBeGreaterThanOrEqual(2);
    const flagged = new Set([...plain.problems, ...plain.warnings].map((p) => p.line));
    expect(first.sound).toEqual(entries.filter((e) => !flagged.has(e.line)).map((e) => textHash(e.text)));
    expect(validateEntries(entries, VERSION).sound).toEqual([]);
  });

  it('reads a known entry as the snapshot reads it, and gives the same records and problems', () => {
    const entries = [a, b, c, warned, broken].map(entryOf);
    const first = validateEntries(entries, { ...VERSION, known: new Set() });
    const again = validateEntries(entries, { ...VERSION, known: new Set(first.sound) });
    expect(again.problems).toEqual(first.problems);
    expect(again.warnings).toEqual(first.warnings);
    expect(again.valid.map((v) => v.record)).toEqual(first.valid.map((v) => v.record));
    for (const v of again.valid) expect(v.record).toEqual(readTwin(v.text).record);
  });

  it('still checks a known entry across records and against the catalog: duplicate ids, unknown classes', () => {
    const twin = { ...a!, record: { ...a!.record, slug: 'another-slug' } };
    const entries = [a, twin].map(entryOf);
    const known = new Set(entries.map((e) => textHash(e.text)));
    const codes = (classIds?: Set<string>) =>
      validateEntries(entries, { ...VERSION, known, ...(classIds ? { classIds, classesFile: 'classes.json' } : {}) }).problems.map((p) => `${p.line} ${p.code}`);
    expect(codes()).toEqual(['2 duplicate-id']);
    expect(codes(new Set(['no-such-class']))).toEqual(['1 unknown-class', '2 unknown-class']);
  });

  it('trusts what it is told: an entry given as known is not checked alone (so the build keys what it keeps by its code)', () => {
    const entries = [broken].map(entryOf);
    expect(validateEntries(entries, VERSION).problems.map((p) => p.code)).toEqual(['pattern']);
    expect(validateEntries(entries, { ...VERSION, known: new Set([textHash(entries[0]!.text)]) }).problems).toEqual([]);
  });
});
