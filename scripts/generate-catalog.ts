/**
 * `npm run generate -- --count 10000 --out .errdex/catalogs/10k [--seed 1] [--profile lean|rich]`: writes a
 * synthetic catalog (bench/lib/synthetic.ts; the lean profile unless told) as .jsonl files of at most 10,000 records each.
 */
import { generateCatalog } from '../bench/lib/generate.ts';
import { scriptOptions } from '../src/util/script-options.ts';
import { PROFILES, type Profile } from '../bench/lib/synthetic.ts';

const USAGE = `Usage: npm run generate -- [--count N] [--out DIR] [--seed N] [--profile ${PROFILES.join('|')}]

Writes a synthetic catalog of N records (default 1000) to DIR (default .errdex/catalogs/N), as .jsonl
files of at most 10,000 records each. The same seed (default 1) writes the same catalog. The lean
profile is the default here; npm run bench uses the rich one (docs/benchmarks.md).`;

const { values } = scriptOptions(
  { count: { type: 'string', default: '1000' }, out: { type: 'string' }, seed: { type: 'string', default: '1' }, profile: { type: 'string', default: 'lean' } },
  USAGE,
);
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(Number(values.seed))) {
  console.error(`--count must be a whole number of at least 1 and --seed a whole number; got --count ${values.count} --seed ${values.seed}\n\n${USAGE}`);
  process.exit(2);
}
if (!(PROFILES as readonly string[]).includes(values.profile)) {
  console.error(`--profile must be one of ${PROFILES.join(', ')}; got ${values.profile}`);
  process.exit(2);
}
const out = values.out ?? `.errdex/catalogs/${count}`;
const started = performance.now();
await generateCatalog(out, count, Number(values.seed), values.profile as Profile);
console.log(`${count} records in ${out} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
