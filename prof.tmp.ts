import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wrappedRecordSchema } from './src/schema/record.ts';
import { matchPaste } from './src/search/matcher.ts';
import { benchQueries } from './scripts/lib/bench-queries.ts';
import { syntheticRecords } from './scripts/lib/synthetic.ts';
const size = Number(process.argv[2] ?? 10000);
const records = [...syntheticRecords({ count: size })].map((l) => wrappedRecordSchema.parse(JSON.parse(l)).record);
const root = `.errdex/bench-search/site-${size}/search-index`;
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
const queries = benchQueries(records, { clean: 200, perDamage: 40 });
const rows = [];
for (const q of queries) {
  const r = await matchPaste(q.text, manifest, async (n) => JSON.parse(readFileSync(join(root, manifest.version, `${n}.json`), 'utf8')), 5);
  rows.push({ ms: r.timings.rankMs + r.timings.normaliseMs, norm: r.timings.normaliseMs, cand: r.candidates, shards: r.shards.length, d: q.damage, kind: r.results[0]?.kind });
}
rows.sort((a, b) => b.ms - a.ms);
console.log(rows.slice(0, 15));
const byKind = {};
for (const r of rows) { const k = r.kind ?? 'none'; (byKind[k] ??= []).push(r.ms); }
for (const [k, v] of Object.entries(byKind)) console.log(k, v.length, (v.reduce((a, b) => a + b, 0) / v.length).toFixed(1));
