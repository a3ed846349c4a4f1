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
for (const q of queries) {
  if (q.damage !== (process.argv[3] ?? q.damage) || q.damage === "clean") continue;
  const r = await matchPaste(q.text, manifest, async (n) => JSON.parse(readFileSync(join(root, manifest.version, `${n}.json`), 'utf8')), 5);
  const ok = r.results[0]?.entry.id === q.target.id;
  if (!ok) {
    console.log(`--- ${q.damage}: ${JSON.stringify(q.text)}\n  target: ${q.target.errorMessage}  [${q.target.errorClass}]`);
    for (const x of r.results.slice(0, 3)) console.log(`  got ${x.kind} ${x.score.toFixed(3)} ${x.entry.template} ${x.entry.id === q.target.id ? '<==' : ''}`);
    console.log(`  msgs: ${JSON.stringify(r.paste.messages.map((m) => m.text).slice(0, 3))}`);
  }
}
