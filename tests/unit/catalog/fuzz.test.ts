/**
 * Property-based fuzzing of the loader and validator (fast-check): catalog files made by mutating
 * real-looking records (fields set to other types, deleted, renamed, nested deep, filled with odd
 * Unicode or huge strings) and their text (cut short, bytes swapped for bad UTF-8, characters
 * inserted or removed, keys given twice), and wholly random ones. For every input: nothing throws;
 * every record read is either valid or rejected with a problem; every problem names the file, a line
 * that exists and a field; and a file with nothing readable says so. ERRDEX_FUZZ_RUNS sets the count.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING, nesting } from '../../../src/catalog/json-locate.ts';
import { readCatalogBytes, type RawEntry } from '../../../src/catalog/load.ts';
import { formatProblem, formatReport, type Problem } from '../../../src/catalog/problems.ts';
import { validateEntries } from '../../../src/catalog/validate.ts';
import { baseRecord } from '../../fixtures/bad-catalogs/cases.ts';

const RUNS = Number(process.env.ERRDEX_FUZZ_RUNS) || 10_000;
const FILE = 'fuzz/catalog';

/** Real-looking records to start from: the fixtures' (wrapped and bare), and the corpus's base record. */
const SEEDS: Record<string, unknown>[] = [
  baseRecord(1),
  ...['tests/fixtures/catalogs/basic/samples.jsonl', 'tests/fixtures/catalogs/hostile/payloads.jsonl', 'tests/fixtures/catalogs/forms/lines.jsonl']
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>),
];
const FIELDS = Object.keys(baseRecord(1).record);

/** Strings that have broken text handling somewhere: controls, bidi, invisible and unpaired characters, lookalikes. */
const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 40 }),
  fc.constantFrom(
    '\u202Eexe.txt', '\u2066x\u2069', '\u200B', '\u00AD', '\uFEFF', '\uD800', '\uDFFF', 'a\r', '\r\n', '\u0000', '\u001B[31m', '\u2028',
    '\u{E0041}', '\uFE0F', '\u3164', '..', '../..', '%2e%2e', '\\', 'A'.repeat(5000), '__proto__', 'constructor', '<script>', '{"a":1}',
  ),
);

const jsonValue = fc.jsonValue({ maxDepth: 4 });
// Deep values are put into the text after JSON.stringify (which recurses, and would overflow on them).
const deepValue = fc.integer({ min: 1, max: 5000 }).map((n) => `@@deep${n}@@`);
const deepen = (text: string) => text.replace(/"@@deep(\d+)@@"/g, (_, n: string) => `${'['.repeat(Number(n))}1${']'.repeat(Number(n))}`);
const hugeString = fc.integer({ min: 1, max: 300_000 }).map((n) => 'x'.repeat(n));

type Mutation = (r: Record<string, unknown>) => void;
const fieldMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(jsonValue, oddText, deepValue, hugeString)).map(([f, v]) => (r: Record<string, unknown>) => void (r[f] = v)),
  fc.constantFrom(...FIELDS).map((f) => (r: Record<string, unknown>) => void delete r[f]),
  fc.tuple(fc.constantFrom(...FIELDS), oddText).map(([f, text]) => (r: Record<string, unknown>) => void (r[f] = typeof r[f] === 'string' ? `${r[f] as string}${text}` : text)),
  fc.tuple(fc.oneof(oddText, fc.constantFrom(...FIELDS.map((f) => f.toUpperCase()), '$comment', '$schema')), jsonValue).map(([k, v]) => (r: Record<string, unknown>) => void (r[k] = v)),
);

/** A record, wrapped or bare as its seed is, with some of its fields mutated. */
const mutatedRecord = fc.tuple(fc.constantFrom(...SEEDS), fc.array(fc.tuple(fieldMutation, fc.boolean()), { maxLength: 4 }), fc.boolean()).map(([seed, mutations, unwrap]) => {
  const value = structuredClone(seed) as Record<string, unknown>;
  const inner = (value.record && typeof value.record === 'object' ? value.record : value) as Record<string, unknown>;
  // A mutation changes the record, or now and then its wrapper.
  for (const [m, onWrapper] of mutations) m(onWrapper && mutations.length > 2 ? value : inner);
  return unwrap && inner !== value ? inner : value;
});

type TextMutation = (b: Buffer) => Buffer;
const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }).map((at) => (b: Buffer) => b.subarray(0, Math.floor(b.length * at))),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.uint8Array({ minLength: 1, maxLength: 4 })).map(([at, bytes]) => (b: Buffer) => {
    const i = Math.floor(b.length * at);
    return Buffer.concat([b.subarray(0, i), bytes, b.subarray(i)]);
  }),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 40 })).map(([at, n]) => (b: Buffer) => {
    const i = Math.floor(b.length * at);
    return Buffer.concat([b.subarray(0, i), b.subarray(i + n)]);
  }),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('\n', '\r', '\r\n', '"', '{', '[', ',', '\\', '\uFEFF', '\u2028')).map(([at, s]) => (b: Buffer) => {
    const i = Math.floor(b.length * at);
    return Buffer.concat([b.subarray(0, i), Buffer.from(s), b.subarray(i)]);
  }),
  // A key given twice: the first key of the text repeated with another value.
  fc.constant((b: Buffer) => Buffer.from(b.toString('utf8').replace(/\{"(\w+)":/, '{"$1":null,"$1":'))),
  fc.constant((b: Buffer) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])),
);

/** A catalog file: some records (mutated or random values), as .jsonl lines or one .json value, its text perhaps mutated. */
const catalogFile = fc
  .tuple(
    fc.array(fc.oneof({ weight: 4, arbitrary: mutatedRecord }, { weight: 1, arbitrary: jsonValue }), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('jsonl', 'json-one', 'json-array', 'json-pretty'),
    fc.array(textMutation, { maxLength: 2 }),
    fc.option(fc.string({ unit: 'binary', maxLength: 200 }), { freq: 10 }),
  )
  .map(([values, form, mutations, random]) => {
    const isJsonl = form === 'jsonl';
    let text: string;
    if (random !== null) text = random;
    else if (isJsonl) text = values.map((v) => JSON.stringify(v)).join('\n');
    else if (form === 'json-one') text = JSON.stringify(values[0]);
    else text = JSON.stringify(values, null, form === 'json-pretty' ? 2 : undefined);
    let bytes: Buffer = Buffer.from(deepen(text), 'utf8');
    for (const m of mutations) bytes = m(bytes);
    // A failure shows the file as text (bad bytes as U+FFFD), not as a list of byte values.
    return { bytes, isJsonl, [fc.toStringMethod]: () => `${isJsonl ? '.jsonl' : '.json'} ${JSON.stringify(bytes.toString('utf8'))}` };
  });

function lineCount(bytes: Buffer): number {
  let n = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}

/** Loads and validates one file's bytes, and checks what the loader and validator promise. */
function check({ bytes, isJsonl }: { bytes: Buffer; isJsonl: boolean }): void {
  const entries: RawEntry[] = [];
  const problems: Problem[] = [];
  let unreadable = 0;
  readCatalogBytes(FILE, bytes, isJsonl, { entry: (e) => entries.push(e), problem: (p) => problems.push(p), unreadable: () => unreadable++ });
  expect(entries.length + unreadable, 'every file yields records or says why it holds none').toBeGreaterThan(0);
  if (unreadable > 0) expect(problems.length).toBeGreaterThan(0);
  for (const e of entries) expect(nesting(e.value).depth).toBeLessThanOrEqual(MAX_NESTING);

  const result = validateEntries(entries, { buildDatasetVersion: '2026-01-01T00:00:00.000Z' });
  const valid = new Set(result.valid.map((v) => v.entry));
  const invalid = new Set(result.invalid.map((i) => i.entry));
  for (const e of entries) expect(valid.has(e) !== invalid.has(e), `entry at line ${e.line} is valid or rejected, not both or neither`).toBe(true);
  for (const i of result.invalid) expect(i.problems.some((p) => p.severity !== 'warning')).toBe(true);
  for (const v of result.valid) expect(() => JSON.parse(v.text)).not.toThrow();

  const lines = lineCount(bytes);
  for (const p of [...problems, ...result.problems, ...result.warnings]) {
    expect(p.file).toBe(FILE);
    expect(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines, `line ${p.line} of ${lines}: ${p.message}`).toBe(true);
    expect(p.field.length, formatProblem(p)).toBeGreaterThan(0);
    expect(p.field.length, formatProblem(p)).toBeLessThanOrEqual(200);
    expect(p.message.length).toBeGreaterThan(0);
    const line = formatProblem(p);
    expect(line.includes('\n'), line).toBe(false);
  }
  formatReport([...problems, ...result.problems, ...result.warnings], entries.length + unreadable, result.invalid.length + unreadable, 1);

  // The entries a first run found sound alone, not checked alone again: the same records, problems and warnings.
  const first = validateEntries(entries, { buildDatasetVersion: '2026-01-01T00:00:00.000Z', known: new Set() });
  const again = validateEntries(entries, { buildDatasetVersion: '2026-01-01T00:00:00.000Z', known: new Set(first.sound) });
  const view = (r: typeof result) => ({
    valid: r.valid.map((v) => ({ line: v.entry.line, record: v.record, text: v.text, datasetVersion: v.datasetVersion, from: v.datasetVersionFrom })),
    invalid: r.invalid.map((i) => ({ line: i.entry.line, problems: i.problems })),
    problems: r.problems,
    warnings: r.warnings,
  });
  expect(view(first)).toEqual(view(result));
  expect(view(again)).toEqual(view(result));
  expect(again.sound).toEqual(first.sound);
}

describe('fuzzing the loader and validator', () => {
  it(`${RUNS.toLocaleString('en-US')} mutated and random catalog files: no exception; every record valid or reported, every problem placed`, () => {
    fc.assert(fc.property(catalogFile, check), { numRuns: RUNS });
  }, 600_000); // a ceiling against a hang, not a speed target: about 10 CPU-seconds, far longer on a busy machine
});
