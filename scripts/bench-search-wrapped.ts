/**
 * `npm run bench:search-wrapped [-- --dev ../shared/search-dev]`
 *
 * The paste matcher on the real set's clean pastes as other tools print them and as other places
 * carry them (bench/lib/carriers.ts: log formats, runtimes and CLIs the set does not hold, Markdown,
 * HTML, JSON, an address): real messages in shapes the set's own pastes do not have. On the real
 * catalog alone, in Node. Per carrier: top-1 (the record, or one whose message is identical, first)
 * and the share shown as "no entry", against the same pastes bare.
 */
import { join, resolve } from 'node:path';
import { CARRIERS, type Carrier } from '../bench/lib/carriers.ts';
import { scriptOptions } from '../src/util/script-options.ts';
import { noConfidentMatch } from '../src/search/confidence.ts';
import { matchPaste } from '../src/search/matcher.ts';
import { buildMessageIndex, type EntryTuple } from '../src/search/message-index.ts';
import { loadDevRecords, readJsonl, type RealQuery } from './bench-search-real.ts';

const USAGE = `Usage: npm run bench:search-wrapped -- [--dev DIR]

The paste matcher on the real set's clean pastes (DIR, default ../shared/search-dev) as other tools
print them and other places carry them (bench/lib/carriers.ts): top-1 and the share shown as
"no entry" per carrier, against the same pastes bare.`;
const { values } = scriptOptions({ dev: { type: 'string', default: '../shared/search-dev' } }, USAGE);
const dev = resolve(values.dev!);

const records = loadDevRecords(dev);
const index = buildMessageIndex(records, {});
const load = async (i: number) => JSON.parse(index.shards[i]!) as EntryTuple[];
const clean = readJsonl<RealQuery>(join(dev, 'queries-clean.jsonl'));
const byForm = {
  line: clean.filter((q) => q.form === 'plain' && !q.query.includes('\n')),
  trace: clean.filter((q) => q.form === 'traceback'),
};

async function score(queries: RealQuery[], wrap: (p: string) => string): Promise<{ top1: number; noMatch: number }> {
  let top1 = 0;
  let noMatch = 0;
  for (const q of queries) {
    const { results } = await matchPaste(wrap(q.query), index.manifest, load);
    const first = results[0]?.entry.id;
    if (first !== undefined && (first === q.id || q.ambiguousWith.includes(first))) top1++;
    if (noConfidentMatch(results)) noMatch++;
  }
  return { top1, noMatch };
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
const rows: string[] = [];
const bare = {
  line: await score(byForm.line, (p) => p),
  trace: await score(byForm.trace, (p) => p),
};
for (const form of ['line', 'trace'] as const) {
  const n = byForm[form].length;
  rows.push(`| (bare) | ${form === 'line' ? 'one line' : 'traceback'} | ${n} | ${pct(bare[form].top1, n)} | ${pct(bare[form].noMatch, n)} |`);
}
for (const c of CARRIERS as Carrier[]) {
  const qs = byForm[c.form];
  const s = await score(qs, c.wrap);
  rows.push(`| ${c.name} | ${c.form === 'line' ? 'one line' : 'traceback'} | ${qs.length} | ${pct(s.top1, qs.length)} | ${pct(s.noMatch, qs.length)} |`);
}
console.log(
  [
    `The clean pastes of ${dev} (${records.length.toLocaleString('en')} records), as other tools print them and other places carry them:`,
    '',
    '| carrier | pastes | queries | top-1 | no match shown (wrongly) |',
    '| --- | --- | ---: | ---: | ---: |',
    ...rows,
  ].join('\n'),
);
