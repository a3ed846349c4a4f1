/**
 * The JSON Schemas of the catalog's files: a record file (`error-record`), `classes.json` and
 * `url-ledger.json`, each with its `$id` below `base` (the site's `/schema/` URL). The site serves them
 * at `/schema/{name}.json` (src/pages/schema/); `npm run schema` writes them to the repository's
 * `schema/` folder as `{name}.schema.json`, for editors and tools that read files.
 */
import { z } from 'astro/zod';
import { failureClassesFileSchema } from '../schema/failure-class.ts';
import { errorRecordJsonSchema } from '../schema/record.ts';
import { urlLedgerFileSchema } from '../schema/url-ledger.ts';
import { absoluteUrl } from '../util/urls.ts';

export const SCHEMA_NAMES = ['error-record', 'classes', 'url-ledger'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** The site path a schema is served at. */
export const schemaPath = (name: SchemaName): string => `/schema/${name}.json`;

const plain = (schema: z.ZodType, id: string): Record<string, unknown> => {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = json;
  return { $schema, $id: id, ...rest };
};

/** One schema, with its `$id` at `base` + `{name}.json` (base: the site's `/schema/` URL). */
export function catalogSchema(name: SchemaName, base: string): Record<string, unknown> {
  const id = `${base}${name}.json`;
  if (name === 'error-record') return errorRecordJsonSchema(id);
  return plain(name === 'classes' ? failureClassesFileSchema : urlLedgerFileSchema, id);
}

export const schemaText = (name: SchemaName, base: string): string => `${JSON.stringify(catalogSchema(name, base), null, 2)}\n`;

/** What the site serves: each schema with its `$id` at this site's URL. */
export const servedSchemaText = (name: SchemaName): string => schemaText(name, absoluteUrl('/schema/'));
