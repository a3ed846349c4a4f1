/**
 * A lean validation (`lean`, src/catalog/validate.ts: the build's) keeps of each valid record what is
 * read across records, not its code and prose, and finds exactly what a whole one finds.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { textHash, textKey } from '../../../src/catalog/entry.ts';
import type { RawEntry } from '../../../src/catalog/load.ts';
import { validateEntries } from '../../../src/catalog/validate.ts';
import { dropCode, dropProse } from '../../../src/catalog/record-fields.ts';
import { readTwin } from '../../../src/schema/input-forms.ts';
import { flaggedSamples, SAMPLE_CLASSES, sampleWrapped, tempCatalog } from '../../support/records.ts';

const entryOf = (value: unknown, index: number): RawEntry => ({ file: 'c.jsonl', line: index + 1, text: JSON.stringify(value), value, isJsonl: true });
const VERSION = { buildDatasetVersion: '2026-01-01T00:00:00.000Z' };

/** A sample set with an error of its own, a warning, and a duplicate id found across records. */
function samples(): unknown[] {
  const [a, b, c] = sampleWrapped();
  const { warned, broken } = flaggedSamples();
  const twin = { ...a!, record: { ...a!.record, slug: 'another-slug' } };
  return [a, b, c, warned, broken, twin];
}

describe('lean validation', () => {
  it('finds the same problems, warnings and sound entries, with or without known entries', () => {
    const whole = validateEntries(samples().map(entryOf), { ...VERSION, known: new Set() });
    const lean = validateEntries(samples().map(entryOf), { ...VERSION, known: new Set(), lean: true });
    expect(lean.problems).toEqual(whole.problems);
    expect(lean.warnings).toEqual(whole.warnings);
    expect(lean.sound).toEqual(whole.sound);
    expect(whole.problems.map((p) => p.code)).toEqual(expect.arrayContaining(['duplicate-id', 'pattern']));
    const again = validateEntries(samples().map(entryOf), { ...VERSION, known: new Set(whole.sound), lean: true });
    expect(again.problems).toEqual(whole.problems);
    expect(again.valid.map((v) => v.text)).toEqual(whole.valid.map((v) => v.text));
  });

  it('keeps each record without its code and prose, and its text whole', () => {
    const whole = validateEntries(samples().map(entryOf), VERSION);
    const lean = validateEntries(samples().map(entryOf), { ...VERSION, lean: true });
    expect(lean.valid.map((v) => v.text)).toEqual(whole.valid.map((v) => v.text));
    lean.valid.forEach((v, i) => {
      const full = whole.valid[i]!.record;
      expect(full.sourceCode).not.toBeNull();
      expect(full.documentation).not.toBe('');
      expect(v.record).toMatchObject({ sourceCode: null, exampleFix: null, documentation: full.documentation, triggerScenarios: '', solutions: [], preventionTips: [] });
      expect(v.wrapped.record).toBe(v.record);
      // Everything else as the whole record has it.
      const { sourceCode, exampleFix, validationCode, typeGuard, tryCatchPattern, triggerScenarios, commonSituations, solutions, preventionTips, ...rest } = full;
      expect(v.record).toMatchObject(rest);
      expect(readTwin(v.text).record).toEqual(full);
    });
  });

  it('keeps each record as its text reads, field for field in its order, checked or found sound before', () => {
    // A record whose fields are not in the schema's order, and one without a failure class.
    // Each validation its own values, as a catalog's reader parses them: a lean one drops what it keeps of them.
    const values = () => {
      const [a, b, c] = sampleWrapped();
      const { backgroundTag: _, ...classless } = b!.record;
      return [{ ...a!, record: Object.fromEntries(Object.entries(a!.record).reverse()) }, { ...b!, record: classless }, c];
    };
    const first = validateEntries(values().map(entryOf), { ...VERSION, known: new Set(), lean: true });
    const again = validateEntries(values().map(entryOf), { ...VERSION, known: new Set(first.sound), lean: true });
    expect(first.valid.length).toBe(3);
    expect(again.valid.length).toBe(3);
    for (const v of [...first.valid, ...again.valid]) {
      // What the lean snapshot writes of it (src/catalog/snapshot.ts): readTwin's record, code and prose but the documentation dropped.
      const read = readTwin(v.text).record;
      dropCode(read);
      dropProse(read, true);
      expect(JSON.stringify(v.record)).toBe(JSON.stringify(read));
    }
  });

  it('still names a record rejected across records in the catalog', () => {
    const [a] = sampleWrapped();
    const twin = { ...a!, record: { ...a!.record, slug: 'another-slug' } };
    const root = tempCatalog({ 'classes.json': SAMPLE_CLASSES, 'x.jsonl': `${JSON.stringify(a)}\n${JSON.stringify(twin)}\n` });
    const whole = loadCatalog(root);
    const lean = loadCatalog(root, { lean: true });
    expect(lean.skipped).toEqual(whole.skipped);
    expect(lean.skipped.map((s) => s.id)).toEqual([a!.record.id]);
    expect(lean.problems).toEqual(whole.problems);
    expect(lean.entries.map((e) => e.sourceText)).toEqual(whole.entries.map((e) => e.sourceText));
    expect(lean.entries.map((e) => textHash(e.sourceText))).toEqual(whole.entries.map((e) => textHash(e.sourceText)));
  });

  it("carries the hash validation took of each entry's text, and none of a bare record's, whose twin is another text", () => {
    const [a, b] = sampleWrapped();
    const root = tempCatalog({ 'classes.json': SAMPLE_CLASSES, 'x.jsonl': `${JSON.stringify(a)}\n${JSON.stringify(b!.record)}\n` });
    for (const known of [new Set<string>(), new Set(loadCatalog(root, { known: new Set() }).sound)]) {
      const { entries } = loadCatalog(root, { known, lean: true });
      expect(entries.length).toBe(2);
      expect(entries.some((e) => e.datasetVersionFrom !== undefined)).toBe(true);
      for (const e of entries) expect(textKey(e)).toBe(textHash(e.sourceText));
    }
  });
});

