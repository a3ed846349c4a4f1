/**
 * `npm run bench:scan -- <git dir>=<owner/name>[@old-rev] ...`: the scanner on real repositories.
 * For each: scan time and counts; every record checked by the catalog's own loader and validator;
 * every githubUrl's lines read back for the raise (src/scan/link-check.ts); each scanned message
 * pasted with values filled in (prefixed with its class, as a traceback prints it) into the site's
 * paste matcher (the code the search worker runs), top-1 counted (a record that prints the very same
 * text also counts); with `@old-rev`, the older commit
 * scanned too and the share of unchanged sites (same file, message, class and raising line) that
 * keep their id. Results as a Markdown table (also in .errdex/bench-scan/results.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCatalog } from '../src/catalog/catalog.ts';
import type { ErrorRecord } from '../src/schema/record.ts';
import { linkProblems } from '../src/scan/link-check.ts';
import { scan, type ScanResult } from '../src/scan/scan.ts';
import { matchPaste } from '../src/search/matcher.ts';
import { buildMessageIndex, type EntryTuple } from '../src/search/message-index.ts';
import { parseTemplate } from '../src/schema/message-template.ts';

const WORK = resolve('.errdex/bench-scan');
const VALUES = ['42', "'alpha'", '/srv/data/input.csv', 'user_id', '3.5'];

function filled(template: string): string {
  let i = 0;
  return parseTemplate(template)
    .map((p) => (p.kind === 'text' ? p.text : VALUES[i++ % VALUES.length]))
    .join('');
}

function paste(r: ErrorRecord): string {
  const message = filled(r.errorMessage);
  if (r.errorType === 'panic') return `thread 'main' panicked at ${r.filePath}:${r.lineNumber}:5:\n${message}`;
  return r.errorClass ? `${r.errorClass.split('::').at(-1)}: ${message}` : `Error: ${message}`;
}

async function searchTop1(records: ErrorRecord[]): Promise<{ found: number; misses: string[] }> {
  const built = buildMessageIndex(records);
  const shards = built.shards.map((text) => JSON.parse(text) as EntryTuple[]);
  const pathOf = (r: { repo: string; slug: string }) => `/${r.repo}/${r.slug}/`;
  // Records that print the same text with the same values are indistinguishable: any of them first is right.
  const byMessage = new Map<string, Set<string>>();
  for (const r of records) byMessage.set(filled(r.errorMessage), (byMessage.get(filled(r.errorMessage)) ?? new Set()).add(pathOf(r)));
  let found = 0;
  const misses: string[] = [];
  for (const r of records) {
    const q = paste(r);
    const m = await matchPaste(q, built.manifest, async (n) => shards[n]!, 5);
    const top = m.results[0];
    if (top && byMessage.get(filled(r.errorMessage))!.has(pathOf(top.entry))) found++;
    else misses.push(`${JSON.stringify(q.slice(0, 160))} -> ${top ? top.entry.template : 'nothing'}`);
  }
  return { found, misses };
}

/** Share of unchanged sites (same file, message, class, raising line's text) whose id is the same. */
function idStability(older: ScanResult, newer: ScanResult, lines: (r: ErrorRecord) => string): { unchanged: number; kept: number } {
  const key = (r: ErrorRecord) => [r.filePath, r.errorMessage, r.errorClass, lines(r)].join('\n');
  const index = (rs: ErrorRecord[]) => {
    const m = new Map<string, ErrorRecord[]>();
    for (const r of rs) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
    return m;
  };
  const a = index(older.records);
  const b = index(newer.records);
  let unchanged = 0;
  let kept = 0;
  for (const [k, olds] of a) {
    const news = b.get(k);
    if (olds.length !== 1 || news?.length !== 1) continue;
    unchanged++;
    if (olds[0]!.id === news[0]!.id) kept++;
  }
  return { unchanged, kept };
}

const rows: string[] = [];
const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
mkdirSync(WORK, { recursive: true });
for (const spec of process.argv.slice(2)) {
  const m = /^(.+)=([^@=]+)(?:@(.+))?$/.exec(spec);
  if (!m) throw new Error(`bench:scan: expected <git dir>=<owner/name>[@old-rev], got ${spec}`);
  const [, dir, repo, oldRev] = m;
  const result = await scan({ dir: dir!, repo });
  const s = result.summary;
  const file = join(WORK, `${repo!.replace('/', '-')}.jsonl`);
  writeFileSync(file, result.records.map((r) => JSON.stringify({ record: r, datasetVersion: result.analyzedAt })).join('\n') + '\n');
  const catalog = loadCatalog(file);
  const links = await linkProblems(dir!, result.records);
  const search = await searchTop1(result.records);
  let stability = '–';
  if (oldRev) {
    const older = await scan({ dir: dir!, repo, rev: oldRev });
    const lineText = new Map<string, string>();
    for (const r of [...older.records, ...result.records]) {
      const code = r.sourceCode!.split('\n')[r.lineNumber! - r.sourceCodeStart!]!.trim();
      lineText.set(r.id + r.analyzedSha, code);
    }
    const st = idStability(older, result, (r) => lineText.get(r.id + r.analyzedSha)!);
    stability = `${pct(st.kept, st.unchanged)} of ${st.unchanged} (${older.summary.sha.slice(0, 8)} → ${s.sha.slice(0, 8)})`;
  }
  const files = Object.values(s.filesRead).reduce((a, b) => a + b, 0);
  const skippedFiles = Object.values(s.filesSkipped).reduce((a, b) => a + (b ?? 0), 0);
  rows.push(
    `| ${repo} @ ${s.sha.slice(0, 8)} | ${files} read, ${skippedFiles} skipped | ${s.seconds.toFixed(1)} s | ${s.sites} | ` +
      `${catalog.problems.length === 0 ? 'all valid' : `${catalog.problems.length} problems`} | ${links.length} | ${pct(search.found, s.sites)} | ${stability} |`,
  );
  console.log(rows.at(-1));
  for (const p of [...catalog.problems.slice(0, 5).map((p) => `${p.file}:${p.line} ${p.field} ${p.message}`), ...links.slice(0, 10)]) console.log(`  ${p}`);
  if (process.argv.includes('--misses') || search.misses.length <= 10) for (const miss of search.misses.slice(0, 30)) console.log(`  MISS ${miss}`);
}
const table = [
  '| repository | files | scan time | records | validation | githubUrl lines without the raise | paste search top-1 | ids kept (unchanged sites) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows,
].join('\n');
writeFileSync(join(WORK, 'results.md'), `${table}\n`);
console.log(`\n${table}`);
