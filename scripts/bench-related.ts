/**
 * `npm run bench:related [-- 10000 50000 100000]`: times the related-errors derivation on synthetic
 * catalogs (bench/lib/synthetic.ts) and prints a Markdown table for docs/benchmarks.md.
 * Generation and JSON parsing are outside the timing: only `relatedErrors` is measured.
 */
import { relatedErrors, type RelatedInput } from '../src/catalog/derive/related.ts';
import { syntheticRecords } from '../bench/lib/synthetic.ts';
import { refuseOption, scriptOptions } from '../src/util/script-options.ts';

const USAGE = `Usage: npm run bench:related -- [N ...]

Times the related-errors derivation on synthetic catalogs of N records each (default 10000 50000
100000) and prints a Markdown table.`;
const { positionals } = scriptOptions({}, USAGE, { positionals: true });
const sizes = positionals.map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) refuseOption(`bench:related: the sizes are record counts, whole numbers of at least 1; got ${positionals.join(' ')}`, USAGE);
if (sizes.length === 0) sizes.push(10_000, 50_000, 100_000);
const classIds = ['protocol-mismatch', 'unsupported-configuration', 'version-skew', 'resource-exhaustion', 'permission-denied', 'timeout'];

console.log('| records | time | per record | records with ≥ 1 link | links per record | heap used |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const count of sizes) {
  const records: RelatedInput[] = [];
  for (const line of syntheticRecords({ count, seed: 1, classIds })) records.push((JSON.parse(line) as { record: RelatedInput }).record);
  globalThis.gc?.();
  const started = performance.now();
  const links = relatedErrors(records);
  const ms = performance.now() - started;
  const linked = links.filter((l) => l.length > 0).length;
  const total = links.reduce((s, l) => s + l.length, 0);
  console.log(
    `| ${count.toLocaleString('en-US')} | ${(ms / 1000).toFixed(2)} s | ${((ms * 1000) / count).toFixed(0)} µs | ` +
      `${((100 * linked) / count).toFixed(0)} % | ${(total / count).toFixed(2)} | ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB |`,
  );
}
