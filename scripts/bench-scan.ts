/**
 * `npm run bench:scan -- <git dir>=<owner/name>[@old-rev] ... [--browser N] [--misses]`: the scanner on real repositories.
 * For each: scan time and counts; every record checked by the catalog's own loader and validator;
 * every githubUrl's lines read back for the raise (src/scan/link-check.ts); each scanned message
 * pasted with values filled in (prefixed with its class, as a traceback prints it) into the site's
 * paste matcher (the code the search worker runs), top-1 counted (a record that prints the very same
 * text also counts); with `@old-rev`, the older commit
 * scanned too and the share of unchanged sites (same file, message, class and raising line) that
 * keep their id, from the id alone and after `--merge` against the older commit's records. With
 * `--browser N`, the site is built from the scan and N records (spread over it) are pasted into its
 * search page in Chromium, where Pagefind can also rank results. Results as a Markdown table (also in .errdex/bench-scan/results.md).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { launchChromium } from '../tests/support/browser.ts';
import { serveStatic } from '../tests/support/static-server.ts';
import { loadCatalog } from '../src/catalog/catalog.ts';
import type { ErrorRecord } from '../src/schema/record.ts';
import { linkProblems } from '../src/scan/link-check.ts';
import { mergeRecords } from '../src/scan/merge.ts';
import { scan, type ScanResult } from '../src/scan/scan.ts';
import { matchPaste } from '../src/search/matcher.ts';
import { buildMessageIndex, type EntryTuple } from '../src/search/message-index.ts';
import { parseTemplate } from '../src/schema/message-template.ts';
import { messagePath } from '../src/catalog/derive/message-groups.ts';
import { searchAnswered } from '../tests/support/search-page.ts';
import { refuseOption, scriptOptions, wholeNumber } from '../src/util/script-options.ts';

const USAGE = `Usage: npm run bench:scan -- <git dir>=<owner/name>[@old-rev] ... [--browser N] [--misses]

Scans each repository and checks its records: validation, githubUrl lines, paste search top-1 in
Node; with @old-rev, the share of unchanged sites that keep their id. --browser N: also N records
pasted into the site's search page in Chromium (default 0: none). --misses: print the first 30 Node
misses even when there are more than 10 (10 or fewer are always printed). Writes
.errdex/bench-scan/results.md.`;
const { values: options, positionals: specs } = scriptOptions({ browser: { type: 'string', default: '0' }, misses: { type: 'boolean', default: false } }, USAGE, { positionals: true });
const BROWSER = wholeNumber(options.browser, '--browser', USAGE, 0);
const SPEC = /^(.+)=([^@=]+)(?:@(.+))?$/;
for (const spec of specs) if (!SPEC.test(spec)) refuseOption(`bench:scan: expected <git dir>=<owner/name>[@old-rev], got ${spec}`, USAGE);

const WORK = resolve('.errdex/bench-scan');
const VALUES = ['42', "'alpha'", '/srv/data/input.csv', 'user_id', '3.5'];

function filled(template: string): string {
  let i = 0;
  return parseTemplate(template)
    .map((p) => (p.kind === 'text' ? p.text : VALUES[i++ % VALUES.length]))
    .join('');
}

const PYTHON_BUILTINS = new Set(
  'ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError BufferError ConnectionError ConnectionRefusedError ConnectionResetError EOFError EnvironmentError Exception FileExistsError FileNotFoundError FloatingPointError IOError ImportError IndexError InterruptedError IsADirectoryError KeyError LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError PermissionError RecursionError ReferenceError RuntimeError StopIteration SyntaxError SystemError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError ValueError ZeroDivisionError'.split(' '),
);

/** The message as a program prints it: Python's last traceback line, a Rust or Go panic, Ruby's `file:line:in 'm': message (Class)` (the class after a message's first line), `Class: message` otherwise. */
function paste(r: ErrorRecord): string {
  const message = filled(r.errorMessage);
  const lang = r.filePath.slice(r.filePath.lastIndexOf('.') + 1);
  if (r.errorType === 'panic') return lang === 'go' ? `panic: ${message}` : `thread 'main' panicked at ${r.filePath}:${r.lineNumber}:5:\n${message}`;
  if (lang === 'py' && r.errorClass) {
    // Python prints a class outside the builtins with its module: `httpx._exceptions.InvalidURL: ...`.
    const module = r.filePath.replace(/\.py$/, '').replace(/\/__init__$/, '').split('/').join('.');
    return `${PYTHON_BUILTINS.has(r.errorClass) ? '' : `${module}.`}${r.errorClass}: ${message}`;
  }
  // Ruby prints the message before the class: `lib/x.rb:12:in 'deliver': message (ArgumentError)`,
  // and a message of several lines with the class after its first line, the rest below.
  if (lang === 'rb') {
    const [first, ...rest] = message.split('\n');
    return [`${r.filePath}:${r.lineNumber}:in 'method': ${first} (${r.errorClass ?? 'RuntimeError'})`, ...rest].join('\n');
  }
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
function idStability(older: ScanResult, newer: ScanResult, lines: (r: ErrorRecord) => string): { unchanged: number; kept: number; keptByMerge: number } {
  // What --merge writes for the newer commit against the older catalog.
  const merged = mergeRecords(newer.records, older.records).records;
  const mergedId = new Map(newer.records.map((r, i) => [r, merged[i]!.id]));
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
  let keptByMerge = 0;
  for (const [k, olds] of a) {
    const news = b.get(k);
    if (olds.length !== 1 || news?.length !== 1) continue;
    unchanged++;
    if (olds[0]!.id === news[0]!.id) kept++;
    if (olds[0]!.id === mergedId.get(news[0]!)) keptByMerge++;
  }
  return { unchanged, kept, keptByMerge };
}

/** Builds the site from the scanned file (its own build cache: other builds in this work tree may run meanwhile) and pastes `n` records (spread over the catalog) into its search page in Chromium. */
async function browserTop1(file: string, records: ErrorRecord[], n: number): Promise<{ found: number; tried: number; misses: string[] }> {
  const dist = join(WORK, `site-${basename(file, '.jsonl')}`);
  const build = spawnSync(process.execPath, ['scripts/build.ts', '--no-ledger-update'], { encoding: 'utf8', env: { ...process.env, ERRDEX_DATA: file, ERRDEX_DIST: dist, ERRDEX_CACHE_DIR: `${dist}-cache` }, maxBuffer: 64 * 1024 * 1024 });
  if (build.status !== 0) throw new Error(`build of ${file} failed:\n${build.stderr}${build.stdout}`);
  const pathOf = (r: { repo: string; slug: string }) => `/${r.repo}/${r.slug}/`;
  const same = new Map<string, Set<string>>();
  for (const r of records) same.set(filled(r.errorMessage), (same.get(filled(r.errorMessage)) ?? new Set()).add(pathOf(r)));
  // A message raised in several places has a page listing them, shown first when the paste names no
  // raise site (these pastes have no stack frame): right too, as in bench:search-real.
  const sites = new Map<string, number>();
  for (const r of records) sites.set(messagePath(r), (sites.get(messagePath(r)) ?? 0) + 1);
  for (const r of records) if (sites.get(messagePath(r))! > 1) same.get(filled(r.errorMessage))!.add(messagePath(r));
  const step = Math.max(1, records.length / n);
  const picked = Array.from({ length: Math.min(n, records.length) }, (_, i) => records[Math.floor(i * step)]!);
  const server = await serveStatic(dist);
  const browser = await launchChromium();
  const misses: string[] = [];
  let found = 0;
  try {
    const page = await browser.newPage();
    for (const r of picked) {
      const q = paste(r);
      await page.goto(`${server.url}/search/?q=${encodeURIComponent(q)}`);
      await searchAnswered(page, q, 30_000);
      const top = await page.locator('[data-search-results] a').first().evaluate((a) => new URL((a as HTMLAnchorElement).href).pathname).catch(() => null);
      if (top && same.get(filled(r.errorMessage))!.has(top)) found++;
      else misses.push(`${JSON.stringify(q.slice(0, 160))} -> ${top ?? 'nothing'}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { found, tried: picked.length, misses };
}

const rows: string[] = [];
const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
mkdirSync(WORK, { recursive: true });
for (const spec of specs) {
  const [, dir, repo, oldRev] = SPEC.exec(spec)!;
  const result = await scan({ dir: dir!, repo });
  const s = result.summary;
  const file = join(WORK, `${repo!.replace('/', '-')}.jsonl`);
  writeFileSync(file, result.records.map((r) => JSON.stringify({ record: r, datasetVersion: result.analyzedAt })).join('\n') + '\n');
  const catalog = loadCatalog(file);
  const links = await linkProblems(dir!, result.records);
  const search = await searchTop1(result.records);
  let chromium = '–';
  if (BROWSER > 0) {
    const b = await browserTop1(file, result.records, BROWSER);
    chromium = `${pct(b.found, b.tried)} of ${b.tried}`;
    for (const miss of b.misses) console.log(`  CHROMIUM MISS ${miss}`);
  }
  let stability = '–';
  if (oldRev) {
    const older = await scan({ dir: dir!, repo, rev: oldRev });
    const lineText = new Map<string, string>();
    for (const r of [...older.records, ...result.records]) {
      const code = r.sourceCode!.split('\n')[r.lineNumber! - r.sourceCodeStart!]!.trim();
      lineText.set(r.id + r.analyzedSha, code);
    }
    const st = idStability(older, result, (r) => lineText.get(r.id + r.analyzedSha)!);
    stability = `${pct(st.kept, st.unchanged)} of ${st.unchanged}; ${pct(st.keptByMerge, st.unchanged)} with --merge (${older.summary.sha.slice(0, 8)} → ${s.sha.slice(0, 8)})`;
  }
  const files = Object.values(s.filesRead).reduce((a, b) => a + b, 0);
  const skippedFiles = Object.values(s.filesSkipped).reduce((a, b) => a + (b ?? 0), 0);
  rows.push(
    `| ${repo} @ ${s.sha.slice(0, 8)} | ${files} read, ${skippedFiles} skipped | ${s.seconds.toFixed(1)} s | ${s.sites} | ` +
      `${catalog.problems.length === 0 ? 'all valid' : `${catalog.problems.length} problems`} | ${links.length} | ${pct(search.found, s.sites)} | ${chromium} | ${stability} |`,
  );
  console.log(rows.at(-1));
  for (const p of [...catalog.problems.slice(0, 5).map((p) => `${p.file}:${p.line} ${p.field} ${p.message}`), ...links.slice(0, 10)]) console.log(`  ${p}`);
  if (options.misses || search.misses.length <= 10) for (const miss of search.misses.slice(0, 30)) console.log(`  MISS ${miss}`);
}
const table = [
  '| repository | files | scan time | records | validation | githubUrl lines without the raise | paste search top-1 (Node, all) | top-1 in Chromium (sample) | ids kept (unchanged sites) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows,
].join('\n');
writeFileSync(join(WORK, 'results.md'), `${table}\n`);
console.log(`\n${table}`);
