/**
 * `npm run generate -- --count 10000 --out .errdex/catalogs/10k [--seed 1]`: writes a synthetic catalog
 * (bench/lib/synthetic.ts) as .jsonl files of at most 10,000 records each.
 */
import { parseArgs } from 'node:util';
import { generateCatalog } from '../bench/lib/generate.ts';

const { values } = parseArgs({
  strict: true,
  options: { count: { type: 'string', default: '1000' }, out: { type: 'string' }, seed: { type: 'string', default: '1' } },
});
const count = Number(values.count);
const out = values.out ?? `.errdex/catalogs/${count}`;
const started = performance.now();
await generateCatalog(out, count, Number(values.seed));
console.log(`${count} records in ${out} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
