/**
 * The published JSON Schemas (src/views/schemas.ts): the committed files in schema/ are what the zod
 * schemas give (`npm run schema` rewrites them), every field is described, and `$id` follows the site.
 * (A record's `$schema` key is accepted and ignored: tests/unit/catalog/forms.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wrappedRecordSchema } from '../../../src/schema/record.ts';
import { catalogSchema, SCHEMA_NAMES, schemaText } from '../../../src/views/schemas.ts';

type Schema = { $id: string; properties?: Record<string, Schema>; items?: Schema; $defs?: Record<string, Schema>; description?: string };

const committed = (name: string) => readFileSync(`schema/${name}.schema.json`, 'utf8');

/** Every property below a schema, with its path, and whether it has a description. */
function properties(schema: Schema, path = ''): { path: string; described: boolean }[] {
  const out: { path: string; described: boolean }[] = [];
  for (const [key, value] of Object.entries(schema.properties ?? {})) {
    out.push({ path: `${path}${key}`, described: typeof value.description === 'string' && value.description.length > 20 });
    out.push(...properties(value, `${path}${key}.`));
  }
  if (schema.items) out.push(...properties(schema.items, `${path}[].`));
  return out;
}

describe('the catalog schemas', () => {
  it.each(SCHEMA_NAMES)('schema/%s.schema.json is up to date (npm run schema, then commit)', (name) => {
    const text = committed(name);
    const base = (JSON.parse(text) as Schema).$id.replace(/[^/]+\.json$/, '');
    expect(text, `schema/${name}.schema.json is stale: run npm run schema and commit it`).toBe(schemaText(name, base));
  });

  it('describes every field of a record, its wrapper, a failure class and a ledger entry', () => {
    const record = catalogSchema('error-record', 'https://x.test/schema/') as Schema;
    const fields = [...properties(record.$defs!.record!), ...properties(record.$defs!.wrappedRecord!), ...properties(catalogSchema('classes', '') as Schema), ...properties(catalogSchema('url-ledger', '') as Schema)];
    expect(fields.filter((f) => !f.described).map((f) => f.path).filter((p) => p !== 'record')).toEqual([]);
    expect(Object.keys(record.$defs!.record!.properties!)).toHaveLength(32);
  });

  it('takes its $id from the site URL it is served at', () => {
    expect(catalogSchema('classes', 'https://acme.github.io/errdex/schema/').$id).toBe('https://acme.github.io/errdex/schema/classes.json');
    expect(catalogSchema('error-record', 'https://acme.github.io/errdex/schema/').$id).toBe('https://acme.github.io/errdex/schema/error-record.json');
  });

  it('is explained field by field in docs/records.md, which links it', () => {
    const docs = readFileSync('docs/records.md', 'utf8');
    const record = catalogSchema('error-record', '') as Schema;
    for (const field of Object.keys(record.$defs!.record!.properties!)) expect(docs, field).toContain(`| \`${field}\` |`);
    for (const name of SCHEMA_NAMES) expect(docs).toContain(`schema/${name}.schema.json`);
  });

  it("docs/records.md's example is a valid record whose excerpt has the lines it says", () => {
    const docs = readFileSync('docs/records.md', 'utf8');
    const example = JSON.parse(/## An example[\s\S]*?```json\n([\s\S]*?)\n```/.exec(docs)![1]!) as { $schema: string; record: { sourceCode: string; sourceCodeStart: number; sourceCodeEnd: number } };
    const { $schema, ...wrapped } = example;
    expect($schema).toBe('https://errdex.dev/schema/error-record.json');
    expect(wrappedRecordSchema.safeParse(wrapped).error).toBeUndefined();
    const r = example.record;
    expect(r.sourceCode.split('\n')).toHaveLength(r.sourceCodeEnd - r.sourceCodeStart + 1);
  });
});
