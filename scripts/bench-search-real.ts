/**
 * `npm run bench:search-real [-- --dev ../shared/search-dev --distractors 0,100000 --hold-out encode/httpx,prettier/prettier --chromium 150 --misses damage --dump]`
 *
 * The paste matcher on real records and real pastes (the search-dev folder: records of seven public
 * codebases, pastes clean, damaged, and damaged the way real tools print them; its README), in Node
 * with the worker's code, on that catalog alone and mixed into a synthetic catalog of
 * `--distractors` records. Also run at the end of `npm run bench:search`.
 *
 * Scores per query file and per `damage`: top-1 and top-5 (the first result is the record or one
 * whose message is identical), the right raise site first for pastes with a stack frame of a
 * message raised in several places, and negatives: pastes whose records are left out of the built
 * catalog (the `--hold-out` repositories), and hand-written pastes of other tools' common errors
 * (bench/lib/negatives.ts), scored as "no match shown" (`noConfidentMatch`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ErrorRecord } from '../src/schema/record.ts';
import { wrappedRecordSchema } from '../src/schema/record.ts';
import { matchPaste, type PasteMatch } from '../src/search/matcher.ts';
import { evidence, noConfidentMatch } from '../src/search/confidence.ts';
import { literalLength } from '../src/schema/message-template.ts';
import { shardFile, type EntryTuple, type MessageIndexManifest } from '../src/search/message-index.ts';
import { NEGATIVE_PASTES } from '../bench/lib/negatives.ts';
import { baseSite, pageOutcomes, type PageOutcome } from '../bench/lib/real-chromium.ts';
import { coldOutcomes } from '../bench/lib/cold-queries.ts';
import { checkSite, lookupCheck } from '../bench/lib/lookup-check.ts';
import { MESSAGE_INDEX_DIR, writeMessageIndex } from '../src/build/search-index.ts';
import { syntheticRecords } from '../bench/lib/synthetic.ts';
import { messagePath } from '../src/catalog/derive/message-groups.ts';
import { scriptOptions, wholeNumber } from '../src/util/script-options.ts';

export interface RealQuery {
  id: string;
  query: string;
  ambiguousWith: string[];
  form: string;
  damage?: string;
  repo: string;
}

interface Scored {
  file: string;
  damage: string;
  rank: number;
  siteFirst: boolean | null;
  noMatch: boolean;
  /** The rows the page shows as possibly related (confidence.ts `possiblyRelated`), and whether the paste's record is among them. */
  related: number;
  relatedRight: boolean;
  bytes: number;
  ms: number;
  /** For `--slowest`: the phases, how many candidates were ranked, the paste's start. */
  normaliseMs: number;
  rankMs: number;
  candidates: number;
  query: string;
}

/** `--dump`, when run as a script (not when bench-search.ts or bench-search-wrapped.ts import it). */
let DUMP = false;
const dumped: string[] = [];

export const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

export function loadDevRecords(dir: string): ErrorRecord[] {
  return readJsonl<unknown>(join(dir, 'records.jsonl')).map((raw, i) => {
    const parsed = wrappedRecordSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`${dir}/records.jsonl line ${i + 1}: ${parsed.error.message}`);
    return parsed.data.record;
  });
}

function synthetic(count: number): ErrorRecord[] {
  const out: ErrorRecord[] = [];
  for (const line of syntheticRecords({ count })) out.push(wrappedRecordSchema.parse(JSON.parse(line)).record);
  return out;
}

/** Whether the paste shows a stack frame (a file and a line number in a frame line). */
const FRAME_LINE = /File "[^"]+", line \d+|\bat .*:\d+(?::\d+)?\)?\s*$|panicked at \S+:\d+:\d+|\.go:\d+|\(\w+\.java:\d+\)/m;

async function run(dir: string, queries: { file: string; q: RealQuery }[], records: ErrorRecord[], negatives: boolean, misses: Set<string>): Promise<Scored[]> {
  const root = join(dir, MESSAGE_INDEX_DIR);
  const manifestText = readFileSync(join(root, 'manifest.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as MessageIndexManifest;
  const byId = new Map(records.map((r) => [r.id, r]));
  const out: Scored[] = [];
  for (const { file, q } of queries) {
    let bytes = Buffer.byteLength(manifestText);
    const load = async (n: number) => {
      const text = readFileSync(join(root, shardFile(manifest, n)), 'utf8');
      bytes += Buffer.byteLength(text);
      return JSON.parse(text) as EntryTuple[];
    };
    const r: PasteMatch = await matchPaste(q.query, manifest, load, 5);
    const noMatch = noConfidentMatch(r.results);
    const right = new Set([q.id, ...q.ambiguousWith].map((id) => byId.get(id)).filter((x) => x !== undefined).map((x) => x.id));
    const rank = negatives ? 0 : r.results.findIndex((x) => right.has(x.entry.id)) + 1;
    const siteFirst = !negatives && q.ambiguousWith.length > 0 && FRAME_LINE.test(q.query) ? r.results[0]?.entry.id === q.id : null;
    const damage = q.damage ?? q.form;
    if (misses.has(damage) || misses.has('all') || (misses.has('site') && siteFirst === false) || (misses.has('neg') && negatives && !noMatch) || (misses.has('fp') && !negatives && noMatch)) {
      if (negatives ? !noMatch : rank !== 1 || siteFirst === false || noMatch) {
        console.log(
          [
            `MISS ${file} ${damage} rank=${rank || '>5'} site=${siteFirst} noMatch=${noMatch}`,
            negatives ? '' : `  target : ${byId.get(q.id)?.errorMessage} (${byId.get(q.id)?.filePath}:${byId.get(q.id)?.lineNumber})`,
            `  paste  : ${JSON.stringify(q.query.length > 400 ? `${q.query.slice(0, 400)}…` : q.query)}`,
            `  msgs   : ${JSON.stringify(r.paste.messages.slice(0, 2).map((m) => m.text))}`,
            ...r.results.slice(0, 3).map((x, i) => `  #${i + 1} ${x.kind} ${x.score.toFixed(3)}: ${x.entry.template} (${x.entry.file}:${x.entry.line} ${x.entry.scope ?? ''})`),
          ].join('\n'),
        );
      }
    }
    out.push({ file, damage, rank, siteFirst, noMatch, related: r.related.length, relatedRight: r.related.some((x) => right.has(x.entry.id)), bytes, ms: r.timings.normaliseMs + r.timings.rankMs, normaliseMs: r.timings.normaliseMs, rankMs: r.timings.rankMs, candidates: r.candidates, query: q.query.slice(0, 60) });
    if (DUMP) {
      const top = r.results[0];
      dumped.push(JSON.stringify({ negative: negatives, file, damage, rank, kind: top?.kind ?? null, score: top?.score ?? null, literal: top ? literalLength(top.entry.template) : 0, line: top?.line.length ?? 0, template: top?.entry.template ?? null, msg: r.paste.messages[0]?.text ?? '', second: r.results[1] ? [r.results[1].kind, r.results[1].score] : null, evidence: r.results.slice(0, 5).map((x) => ({ kind: x.kind, score: x.score, tail: x.tailScore ?? 0, site: x.siteFit ?? 0, literal: literalLength(x.entry.template), ...evidence(x) })) }));
    }
  }
  return out;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '–');
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const bytesCell = (xs: Scored[]) => `${(quantile(xs.map((x) => x.bytes), 0.95) / 1024).toFixed(0)} / ${(Math.max(...xs.map((x) => x.bytes)) / 1024).toFixed(0)} KB`;

function table(label: string, positives: Scored[], negatives: Scored[]): string[] {
  const files = [...new Set(positives.map((s) => s.file))];
  const lines = [
    `#### ${label}`,
    '',
    row(['pastes', 'queries', 'top-1', 'top-5', 'no match shown (wrongly)', 'of those, the record possibly related', 'right raise site first (multi-site, with a frame)', 'bytes p95 / max', 'matching p95 (Node)']),
    row(Array(9).fill('---')),
  ];
  const line = (name: string, xs: Scored[]) => {
    const site = xs.filter((x) => x.siteFirst !== null);
    return row([
      name,
      String(xs.length),
      pct(xs.filter((x) => x.rank === 1).length, xs.length),
      pct(xs.filter((x) => x.rank >= 1 && x.rank <= 5).length, xs.length),
      pct(xs.filter((x) => x.noMatch).length, xs.length),
      `${xs.filter((x) => x.relatedRight).length} of ${xs.filter((x) => x.noMatch).length}`,
      site.length ? `${pct(site.filter((x) => x.siteFirst).length, site.length)} of ${site.length}` : '–',
      bytesCell(xs),
      `${quantile(xs.map((x) => x.ms), 0.95).toFixed(1)} ms`,
    ]);
  };
  for (const f of files) lines.push(line(f, positives.filter((s) => s.file === f)));
  lines.push('', 'Top-1 by damage:', '', row(['pastes', 'damage', 'queries', 'top-1', 'top-5']), row(Array(5).fill('---')));
  for (const f of files) {
    const xs = positives.filter((s) => s.file === f);
    for (const d of [...new Set(xs.map((x) => x.damage))].sort()) {
      const ys = xs.filter((x) => x.damage === d);
      lines.push(row([f, d, String(ys.length), pct(ys.filter((x) => x.rank === 1).length, ys.length), pct(ys.filter((x) => x.rank >= 1 && x.rank <= 5).length, ys.length)]));
    }
  }
  const negFiles = [...new Set(negatives.map((s) => s.file))];
  lines.push('', row(['negatives', 'queries', 'no match shown', 'possibly related rows shown (queries with any)', 'bytes p95 / max', 'matching p95 (Node)']), row(Array(6).fill('---')));
  for (const f of negFiles) {
    const xs = negatives.filter((s) => s.file === f);
    const shown = xs.filter((x) => x.related > 0);
    lines.push(row([f, String(xs.length), pct(xs.filter((x) => x.noMatch).length, xs.length), `${shown.reduce((n, x) => n + x.related, 0)} (${shown.length})`, bytesCell(xs), `${quantile(xs.map((x) => x.ms), 0.95).toFixed(1)} ms`]));
  }
  return [...lines, ''];
}

function slowestTable(n: number, xs: Scored[]): string[] {
  const slow = [...xs].sort((a, b) => b.ms - a.ms).slice(0, n);
  return [
    `Slowest ${slow.length} queries (Node):`,
    '',
    row(['pastes', 'damage', 'normalise', 'rank', 'candidates', 'bytes', 'paste']),
    row(Array(7).fill('---')),
    ...slow.map((x) => row([x.file, x.damage, `${x.normaliseMs.toFixed(1)} ms`, `${x.rankMs.toFixed(1)} ms`, String(x.candidates), `${(x.bytes / 1024).toFixed(0)} KB`, `\`${x.query.replace(/[\n|`]/g, ' ')}\``])),
    '',
  ];
}

async function coldTable(n: number, full: string, queries: { file: string; q: RealQuery }[]): Promise<string[]> {
  const out = await coldOutcomes(join(full, MESSAGE_INDEX_DIR), spread(queries, n).map(({ q }) => q.query));
  const ms = out.map((o) => o.normaliseMs + o.rankMs);
  const slow = [...out].sort((a, b) => b.normaliseMs + b.rankMs - a.normaliseMs - a.rankMs).slice(0, 10);
  return [
    `Cold in Node (${out.length} pastes spread over the three files, each in a new thread after the warm-up match, as a fresh page's worker): matching median ${quantile(ms, 0.5).toFixed(1)} ms, p95 ${quantile(ms, 0.95).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms. Slowest:`,
    '',
    row(['normalise', 'rank', 'candidates', 'shards', 'paste']),
    row(Array(5).fill('---')),
    ...slow.map((o) => row([`${o.normaliseMs.toFixed(1)} ms`, `${o.rankMs.toFixed(1)} ms`, String(o.candidates), String(o.shards), `\`${o.query.slice(0, 60).replace(/[\n|`]/g, ' ')}\``])),
    '',
  ];
}

/** Every n-th of `xs`, to take `count` spread over the list. */
const spread = <T>(xs: readonly T[], count: number): T[] => (count >= xs.length ? [...xs] : Array.from({ length: count }, (_, i) => xs[Math.floor((i * xs.length) / count)]!));

async function chromiumTable(options: BenchRealOptions, records: ErrorRecord[], full: string, partial: string, queries: { file: string; q: RealQuery }[], negatives: { file: string; q: RealQuery }[]): Promise<string[]> {
  const t = performance.now();
  const base = baseSite(options.work, records.slice(-20));
  const pos = spread(queries, options.chromium);
  const neg = spread(negatives, Math.ceil(options.chromium / 3));
  const posOut = await pageOutcomes(base, options.work, full, pos.map(({ q }) => q.query));
  const negOut = await pageOutcomes(base, options.work, partial, neg.map(({ q }) => q.query));
  const byId = new Map(records.map((r) => [r.id, `/${r.repo}/${r.slug}/`]));
  // The message page of the right record's message, shown first when no frame picks a raise site, lists the record: right too.
  const grouped = new Map<string, number>();
  for (const r of records) grouped.set(messagePath(r), (grouped.get(messagePath(r)) ?? 0) + 1);
  const pageOf = new Map(records.filter((r) => grouped.get(messagePath(r))! > 1).map((r) => [r.id, messagePath(r)]));
  const right = posOut.filter((o, i) => [pos[i]!.q.id, ...pos[i]!.q.ambiguousWith].some((id) => byId.get(id) === o.firstPath || pageOf.get(id) === o.firstPath)).length;
  const all = [...posOut, ...negOut];
  const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;
  const msText = (m: number) => `${m.toFixed(1)} ms`;
  const q3 = (xs: number[], f: (n: number) => string) => `${f(quantile(xs, 0.5))} / ${f(quantile(xs, 0.95))} / ${f(Math.max(...xs))}`;
  // A query that ran into the page's deadline has no matcher time (answered by full text): counted
  // apart, and as the slowest in the quantiles (a NaN would unsort them).
  const ms = (os: PageOutcome[]) => os.map((o) => (Number.isFinite(o.matchMs) ? o.matchMs : Infinity));
  const late = (os: PageOutcome[]) => os.filter((o) => !Number.isFinite(o.matchMs)).length;
  console.log(`  Chromium: ${all.length} queries in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  if (options.misses.has('chromium')) {
    posOut.forEach((o, i) => {
      const q = pos[i]!.q;
      if (![q.id, ...q.ambiguousWith].some((id) => byId.get(id) === o.firstPath || pageOf.get(id) === o.firstPath)) console.log(`MISS chromium ${pos[i]!.file} ${q.damage ?? ''}: got ${o.firstPath}, want ${byId.get(q.id)}\n  paste: ${JSON.stringify(q.query.slice(0, 160))}`);
    });
  }
  const late1 = (o: PageOutcome) => (Number.isFinite(o.matchMs) ? o.matchMs : Infinity);
  const slowest = options.slowest
    ? [...all.map((o, i) => ({ o, paste: (i < pos.length ? pos[i]! : neg[i - pos.length]!).q.query }))].sort((a, b) => late1(b.o) - late1(a.o)).slice(0, options.slowest)
    : [];
  return [
    `In Chromium (a fresh page per query, cold cache, pasted a second after the page opened, while its worker may still be warming up; index bytes after the manifest; the message index only; "paste to results shown" also holds fetching the shards from a local server and waiting for the worker): ${pos.length} pastes spread over the three files, and ${neg.length} negatives on the catalog without the held-out repositories.`,
    '',
    row(['pastes', 'top-1', 'no match shown', 'index bytes per query (median / p95 / max)', 'matching in the worker (median / p95 / max)', 'paste to results shown (median / p95 / max)', 'past the 4 s deadline']),
    row(Array(7).fill('---')),
    row(['positives', pct(right, pos.length), pct(posOut.filter((o) => o.noMatch).length, pos.length), q3(posOut.map((o) => o.bytes), kb), q3(ms(posOut), msText), q3(posOut.map((o) => o.totalMs), msText), String(late(posOut))]),
    row(['negatives', '–', pct(negOut.filter((o) => o.noMatch).length, neg.length), q3(negOut.map((o) => o.bytes), kb), q3(ms(negOut), msText), q3(negOut.map((o) => o.totalMs), msText), String(late(negOut))]),
    '',
    ...(slowest.length
      ? [`Slowest ${slowest.length} in Chromium:`, '', row(['matching', 'paste to results', 'paste']), row(Array(3).fill('---')), ...slowest.map(({ o, paste }) => row([msText(o.matchMs), msText(o.totalMs), `\`${paste.slice(0, 60).replace(/[\u0000-\u001f|`]/g, ' ')}\``])), '']
      : []),
  ];
}

async function lookupTable(options: BenchRealOptions, records: ErrorRecord[], full: string, partial: string, queries: { file: string; q: RealQuery }[], negatives: { file: string; q: RealQuery }[]): Promise<string[]> {
  const t = performance.now();
  const base = baseSite(options.work, records.slice(-20));
  const sets = [
    { label: 'pastes (whole catalog)', index: full, pastes: spread(queries, options.lookupCheck!).map(({ q }) => q.query) },
    { label: 'negatives (held-out repositories left out, other tools)', index: partial, pastes: spread(negatives, options.lookupCheck!).map(({ q }) => q.query) },
  ];
  const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;
  const msText = (m: number) => `${m.toFixed(0)} ms`;
  const q3 = (xs: number[], f: (n: number) => string) => `${f(quantile(xs, 0.5))} / ${f(quantile(xs, 0.95))} / ${f(Math.max(...xs))}`;
  const lines = [
    'errdex lookup against the search page in Chromium (the same served site; one page, the pastes one after another; each lookup fresh over HTTP: manifest, shards and the one twin fetched again; its time in process, from the paste to the answer, without starting Node): the first answer, no entry or the first page, must be the same.',
    '',
    row(['pastes', 'queries', 'same first answer', 'different', 'page past its deadline', 'lookup bytes (median / p95 / max)', 'of them, the index (median / p95 / max)', 'lookup time (median / p95 / max)']),
    row(Array(8).fill('---')),
  ];
  const differing: string[] = [];
  for (const set of sets) {
    const dir = checkSite(base, options.work, set.index, records);
    const rows = await lookupCheck(dir, set.pastes, (n) => n % 200 === 0 && console.log(`  lookup check, ${set.label}: ${n}/${set.pastes.length}`));
    const late = rows.filter((r) => r.late);
    const judged = rows.filter((r) => !r.late);
    const differ = judged.filter((r) => r.page !== r.lookup);
    for (const r of differ) differing.push(`- page ${r.page ?? 'no entry'}, lookup ${r.lookup ?? 'no entry'}: \`${r.paste.slice(0, 100).replace(/[\u0000-\u001f|`]/g, ' ')}\``);
    lines.push(row([set.label, String(rows.length), `${judged.length - differ.length} of ${judged.length}`, String(differ.length), String(late.length), q3(rows.map((r) => r.bytes), kb), q3(rows.map((r) => r.indexBytes), kb), q3(rows.map((r) => r.ms), msText)]));
  }
  console.log(`  lookup check: ${((performance.now() - t) / 1000).toFixed(0)} s`);
  return [...lines, '', ...(differing.length ? ['Different first answers:', '', ...differing, ''] : [])];
}

export interface BenchRealOptions {
  dev: string;
  distractors: number[];
  holdOut: string[];
  work: string;
  misses: Set<string>;
  /** Pastes measured in Chromium on the largest catalog (0: none). */
  chromium: number;
  /** Only the Chromium pass (no Node tables): the browser's figures alone, quickly. */
  chromiumOnly?: boolean;
  /** Query files scored in Node (`clean`, `damaged`, `real`); all when empty. */
  only?: Set<string>;
  /** Print the slowest queries in Node with their phases. */
  slowest?: number;
  /** Pastes run cold in Node (a fresh thread each, as a fresh page's worker), on the largest catalog. */
  cold?: number;
  /** Pastes (and as many negatives, spread over their files; Infinity: all) looked up by `errdex lookup` and on the search page, on the largest catalog. */
  lookupCheck?: number;
}

/**
 * The source files the message index is made from (their imports, followed), the records and the
 * catalog's make-up: an index written for the same stamp is reused, since writing 100k records'
 * index takes minutes and a change to the matcher alone does not change it.
 */
function indexStamp(dev: string, size: number, holdOut: string[]): string {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)) visit(resolve(dirname(file), m[1]!));
  };
  for (const f of ['src/build/search-index.ts', 'bench/lib/synthetic.ts']) visit(resolve(f));
  const h = createHash('sha256').update(JSON.stringify({ size, holdOut }));
  for (const f of [...seen].sort()) h.update(f).update(readFileSync(f));
  h.update(readFileSync(join(dev, 'records.jsonl')));
  return h.digest('hex');
}

/** Writes the message index of `records()` into `dir`, unless the one there was written for `stamp`. */
function indexFor(dir: string, stamp: string, records: () => ErrorRecord[]): void {
  const file = join(dir, 'stamp.txt');
  if (existsSync(file) && readFileSync(file, 'utf8') === stamp) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeMessageIndex(records(), dir);
  writeFileSync(file, stamp);
}

export async function benchReal(options: BenchRealOptions): Promise<string> {
  const all = loadDevRecords(options.dev);
  const files = ['queries-clean.jsonl', 'queries-damaged.jsonl', 'queries-real.jsonl'];
  const queries = files.flatMap((file) => readJsonl<RealQuery>(join(options.dev, file)).map((q) => ({ file: file.replace(/^queries-|\.jsonl$/g, ''), q })));
  const held = new Set(options.holdOut);
  const kept = all.filter((r) => !held.has(r.repo));
  const heldQueries = queries.filter(({ q }) => held.has(q.repo)).map(({ file, q }) => ({ file: `${[...held].join(' + ')} left out (${file})`, q }));
  const written = NEGATIVE_PASTES.map((query, i) => ({ file: 'hand-written, other tools', q: { id: `neg-${i}`, query, ambiguousWith: [], form: 'negative', repo: '' } }));
  const scored = (xs: { file: string; q: RealQuery }[]) => (options.only?.size ? xs.filter(({ file }) => [...options.only!].some((o) => file === o || file.endsWith(`(${o})`))) : xs);
  const report: string[] = [];
  const largest = Math.max(...options.distractors);
  for (const size of options.distractors) {
    const chromium = options.chromium > 0 && size === largest;
    if (options.chromiumOnly && size !== largest) continue;
    const label = size > 0 ? `Real records (${all.length.toLocaleString('en-US')}) among ${size.toLocaleString('en-US')} synthetic` : `Real records alone (${all.length.toLocaleString('en-US')})`;
    console.log(label);
    const full = join(options.work, `real-${size}`);
    const partial = join(options.work, `real-${size}-held-out`);
    const stamp = indexStamp(options.dev, size, options.holdOut);
    let distractors: ErrorRecord[] | null = null;
    const synth = () => (distractors ??= size > 0 ? synthetic(size) : []);
    indexFor(full, stamp, () => [...synth(), ...all]);
    indexFor(partial, stamp, () => [...synth(), ...kept]);
    if (!options.chromiumOnly) {
      const t = performance.now();
      const positives = await run(full, scored(queries), all, false, options.misses);
      const negatives = [...(await run(partial, scored(heldQueries), all, true, options.misses)), ...(await run(partial, written, all, true, options.misses))];
      console.log(`  ${positives.length + negatives.length} queries in ${((performance.now() - t) / 1000).toFixed(0)} s`);
      report.push(...table(label, positives, negatives));
      if (options.slowest) report.push(...slowestTable(options.slowest, [...positives, ...negatives]));
    }
    if (options.cold && size === largest) report.push(...(await coldTable(options.cold, full, queries)));
    if (chromium) report.push(...(await chromiumTable(options, all, full, partial, queries, [...heldQueries, ...written])));
    if (options.lookupCheck && size === largest) report.push(...(await lookupTable(options, all, full, partial, queries, [...heldQueries, ...written])));
  }
  return report.join('\n');
}

const USAGE = `Usage: npm run bench:search-real -- [options]

The paste matcher on the search-dev folder's real records and pastes (docs/benchmarks.md, "Search").
  --dev DIR             the search-dev folder (default ../shared/search-dev, or ERRDEX_SEARCH_DEV)
  --distractors N,M     synthetic records mixed in, one run per size (default 0,100000; 0: the real records alone)
  --hold-out A,B        repositories left out of the catalog for the negatives (default encode/httpx,prettier/prettier)
  --chromium N          also N pastes in Chromium on the largest catalog (default 0)
  --chromium-only       only the Chromium passes on the largest catalog (no Node tables): --chromium, --lookup-check
  --only F,...          score only these query files in Node (clean, damaged, real); the negatives too
  --cold N              also N pastes run cold in Node (a new thread each, after the warm-up match) on the largest catalog
  --slowest N           list the N slowest queries in Node, with the time of each phase (and in Chromium)
  --lookup-check [N]    errdex lookup over HTTP against the search page in Chromium, on the largest catalog: every
                        paste and negative (or N of each, spread), the same first answer (no entry, or the same page)
  --misses D,...        print the misses of these damages (plain, drift, …), or all, site, neg, fp, chromium
  --dump                write each query's top results to .errdex/bench-search-real/top-results.jsonl
The message index of each catalog is written once and reused while what it is made from is unchanged
(its stamp.txt). Writes .errdex/bench-search-real/results.md and prints it.`;

if (import.meta.url === `file://${process.argv[1]}`) {
  // `-h` as `--help`; `--lookup-check` takes a count only when one follows it (alone: every paste).
  const args = process.argv.slice(2).map((a, i, all) => (a === '-h' ? '--help' : a === '--lookup-check' && !/^\d+$/.test(all[i + 1] ?? '') ? '--lookup-check=' : a));
  const { values } = scriptOptions(
    {
      dev: { type: 'string' },
      distractors: { type: 'string', default: '0,100000' },
      'hold-out': { type: 'string', default: 'encode/httpx,prettier/prettier' },
      chromium: { type: 'string', default: '0' },
      'chromium-only': { type: 'boolean', default: false },
      only: { type: 'string', default: '' },
      cold: { type: 'string', default: '0' },
      slowest: { type: 'string', default: '0' },
      'lookup-check': { type: 'string' },
      misses: { type: 'string', default: '' },
      dump: { type: 'boolean', default: false },
    },
    USAGE,
    { args },
  );
  const lookup = values['lookup-check'];
  const options: BenchRealOptions = {
    dev: resolve(values.dev || (process.env.ERRDEX_SEARCH_DEV ?? ['../shared/search-dev', '../../shared/search-dev'].find((d) => existsSync(d)) ?? '../shared/search-dev')),
    distractors: values.distractors.split(',').map((n) => wholeNumber(n, '--distractors', USAGE, 0)),
    holdOut: values['hold-out'].split(','),
    work: resolve('.errdex/bench-search-real'),
    misses: new Set(values.misses.split(',').filter(Boolean)),
    chromium: wholeNumber(values.chromium, '--chromium', USAGE, 0),
    chromiumOnly: values['chromium-only'],
    only: new Set(values.only.split(',').filter(Boolean)),
    slowest: wholeNumber(values.slowest, '--slowest', USAGE, 0),
    cold: wholeNumber(values.cold, '--cold', USAGE, 0),
    lookupCheck: lookup === undefined ? 0 : lookup === '' ? Infinity : wholeNumber(lookup, '--lookup-check', USAGE, 0),
  };
  DUMP = values.dump;
  mkdirSync(options.work, { recursive: true });
  const text = await benchReal(options);
  writeFileSync(join(options.work, 'results.md'), text);
  if (DUMP) writeFileSync(join(options.work, 'top-results.jsonl'), `${dumped.join('\n')}\n`);
  console.log(`\n${text}`);
}
