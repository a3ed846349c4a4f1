/**
 * `npm run generate -- --count 10000 --out .errdex/catalogs/10k [--seed 1] [--profile lean|rich]`: writes a
 * synthetic catalog (bench/lib/synthetic.ts; the lean profile unless told) as .jsonl files of at most 10,000 records each.
 */
import { parseArgs } from 'node:util';
import { generateCatalog } from '../bench/lib/generate.ts';
import { PROFILES, type Profile } from '../bench/lib/synthetic.ts';

const { values } = parseArgs({
  strict: true,
  options: { count: { type: 'string', default: '1000' }, out: { type: 'string' }, seed: { type: 'string', default: '1' }, profile: { type: 'string', default: 'lean' } },
});
const count = Number(values.count);
if (!(PROFILES as readonly string[]).includes(values.profile)) {
  console.error(`--profile must be one of ${PROFILES.join(', ')}; got ${values.profile}`);
  process.exit(2);
}
const out = values.out ?? `.errdex/catalogs/${count}`;
const started = performance.now();
await generateCatalog(out, count, Number(values.seed), values.profile as Profile);
console.log(`${count} records in ${out} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
