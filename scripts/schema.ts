/**
 * `npm run schema`: writes the JSON Schemas of the catalog's files into schema/ (committed: editors and
 * tools read them from the repository): error-record.schema.json (a record file or line),
 * classes.schema.json and url-ledger.schema.json, each with its `$id` at the configured site's
 * `/schema/{name}.json`, where the site serves it. `--check` writes nothing and fails when a file
 * differs from what the zod schemas give (tests/unit/views/schemas.test.ts runs the same check).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scriptOptions } from '../src/util/script-options.ts';
import { absoluteUrl } from '../src/util/urls.ts';
import { SCHEMA_NAMES, schemaText } from '../src/views/schemas.ts';

const USAGE = 'Usage: npm run schema [-- --check]\n\nWrites schema/{error-record,classes,url-ledger}.schema.json for the site of errdex.config.mjs\n(ERRDEX_SITE_URL, ERRDEX_BASE_PATH); --check only compares them.';
const { values } = scriptOptions({ check: { type: 'boolean', default: false } }, USAGE);

const base = absoluteUrl('/schema/');
const stale: string[] = [];
mkdirSync('schema', { recursive: true });
for (const name of SCHEMA_NAMES) {
  const file = join('schema', `${name}.schema.json`);
  const text = schemaText(name, base);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (current === text) continue;
  if (values.check) stale.push(file);
  else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
if (stale.length > 0) {
  console.error(`Stale: ${stale.join(', ')} differ from the zod schemas (src/schema/). Run npm run schema and commit them.`);
  process.exit(1);
}
if (values.check) console.log('schema/ is up to date.');
