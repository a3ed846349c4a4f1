/**
 * `npm run bench:history -- <git dir>=<owner/name> [--spec tags|A..B] [--sample 30] [--seed 1] [--reuse <history.json>]`:
 * `npm run scan -- --history` on a real repository, timed, and its events checked against git's own
 * pickaxe. For a sample of sites with something to check (introduced, message changed or removed
 * after the first revision), each event's revision must be the first one that holds the commit git
 * names for it: `git log -S <words>` over the site's file(s) lists the commits that changed how often
 * the words occur; one of them must lie between the revision before the event and the event's.
 * The words are the longest run of the message's words that the file holds as written (for a change,
 * one the earlier wording lacks); a site whose stretch is shorter than 8 characters is not sampled, since git would find it
 * everywhere. Prints each disagreement with git's commits, and a Markdown summary.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { refuseOption, scriptOptions, wholeNumber } from '../src/util/script-options.ts';

interface Revision {
  name: string;
  sha: string;
}
/** As src/scan/history.ts writes them (read from its JSON, so the check does not share its code). */
type HistoryEvent =
  | { kind: 'introduced'; at: Revision }
  | { kind: 'removed'; at: Revision }
  | { kind: 'changed'; at: Revision; from: string; to: string }
  | { kind: 'moved'; at: Revision; from: string; to: string };
interface SiteHistory {
  id: string;
  errorMessage: string;
  filePath: string;
  events: HistoryEvent[];
}

const USAGE = `Usage: npm run bench:history -- <git dir>=<owner/name> [--spec tags|A..B] [--sample 30] [--seed 1] [--reuse <history.json>]

Scans the repository's history (npm run scan -- --history; --spec: its tags, the default, or a range
A..B), timed, and checks a sample of its sites' events (default 30, drawn with --seed, default 1)
against git's pickaxe. --reuse: check a history written before instead of scanning (no time then).`;
const { values, positionals } = scriptOptions(
  { spec: { type: 'string', default: 'tags' }, sample: { type: 'string', default: '30' }, seed: { type: 'string', default: '1' }, reuse: { type: 'string', default: '' } },
  USAGE,
  { positionals: true },
);
const spec = positionals[0];
if (!spec?.includes('=') || positionals.length > 1) refuseOption(`bench:history: expected one <git dir>=<owner/name>; got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`, USAGE);
const [dir, repo] = spec.split('=') as [string, string];
const range = values.spec;
const sampleSize = wholeNumber(values.sample, '--sample', USAGE, 1);
let seed = wholeNumber(values.seed, '--seed', USAGE);

// `--reuse <history.json>` checks a history written before instead of scanning (no time then).
const reuse = values.reuse;
const out = reuse || join(mkdtempSync(join(tmpdir(), 'errdex-history-')), 'history.json');
const started = performance.now();
if (!reuse) {
  const scanArgs = ['scripts/scan.ts', resolve(dir), '--repo', repo, '--history', range === 'tags' ? '--tags' : range, '--history-out', out, '--quiet'];
  const run = spawnSync(process.execPath, scanArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (run.status !== 0) {
    console.error(run.stdout);
    process.exit(1);
  }
}
const seconds = reuse ? null : (performance.now() - started) / 1000;
const h = JSON.parse(readFileSync(out, 'utf8')) as { revisions: Revision[]; sites: SiteHistory[] };
const files = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', h.revisions.at(-1)!.sha], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).split('\n').filter(Boolean).length;

const git = (args: string[]) => spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const isAncestor = (a: string, b: string) => git(['merge-base', '--is-ancestor', a, b]).status === 0;

/** The files' text at a revision (those of `paths` that exist there). */
function text(rev: string, paths: string[]): string {
  return paths.map((p) => git(['show', `${rev}:${p}`]).stdout ?? '').join('\n');
}

/**
 * The longest run of the message's words (no placeholder inside, none of what a source file escapes)
 * that the source holds as written: a message concatenated over lines is found by one of its parts.
 * With `not`, only runs that are not in that (earlier) wording: what the change brought.
 */
function words(message: string, source: string, not = ''): string {
  let best = '';
  for (const stretch of message.split(/\{[^}]*\}|[\n"'\\`]/)) {
    const w = stretch.split(' ');
    for (let i = 0; i < w.length; i++) {
      for (let j = w.length; j > i; j--) {
        const run = w.slice(i, j).join(' ').trim();
        if (run.length <= best.length) break;
        if (source.includes(run) && !not.includes(run)) best = run;
      }
    }
  }
  return best;
}

interface Check {
  site: SiteHistory;
  event: HistoryEvent;
  words: string;
  agrees: boolean;
  commits: string[];
  /** For a removed site that git does not see removed: its words stay in the file (a helper call or a variable raises them now, which the scanner does not read as a raise). */
  wordsStay: boolean;
}

// By name: several tags can name one commit.
const index = new Map(h.revisions.map((r, i) => [r.name, i]));
const checks: { site: SiteHistory; event: Exclude<HistoryEvent, { kind: 'moved' }>; words: string }[][] = [];
for (const site of h.sites) {
  const own = site.events.flatMap((event) => {
    if (event.kind === 'moved' || index.get(event.at.name) === 0) return [];
    const at = index.get(event.at.name)!;
    // A removed site is read where it was last seen, the others where the event put them.
    const source = text(event.kind === 'removed' ? h.revisions[at - 1]!.sha : event.at.sha, pathsOf(site));
    const w = event.kind === 'changed' ? words(event.to, source, event.from) : words(eventMessage(site, event), source);
    return w.length >= 8 ? [{ site, event, words: w }] : [];
  });
  if (own.length > 0 && own.length === site.events.filter((e) => e.kind !== 'moved' && index.get(e.at.name) !== 0).length) checks.push(own);
}

function pathsOf(site: SiteHistory): string[] {
  return [...new Set([site.filePath, ...site.events.flatMap((e) => (e.kind === 'moved' ? [e.from, e.to] : []))])];
}

/** The message a site had at an event: its wording after the last change at or before it. */
function eventMessage(site: SiteHistory, event: HistoryEvent): string {
  const at = index.get(event.at.name)!;
  const changes = site.events.filter((e): e is Extract<HistoryEvent, { kind: 'changed' }> => e.kind === 'changed');
  const before = changes.filter((c) => index.get(c.at.name)! <= at).at(-1);
  if (before) return before.to;
  return changes[0]?.from ?? site.errorMessage;
}

// A seeded shuffle: the same sample for the same history.
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
for (let i = checks.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [checks[i], checks[j]] = [checks[j]!, checks[i]!];
}
const sample = checks.slice(0, sampleSize);

const results: Check[] = [];
for (const group of sample) {
  for (const { site, event, words: w } of group) {
    const paths = pathsOf(site);
    const at = index.get(event.at.name)!;
    const previous = h.revisions[at - 1]!.sha;
    const log = git(['log', '-S', w, '--format=%H', event.at.sha, '--', ...paths]);
    const commits = log.stdout.split('\n').filter(Boolean);
    // An event agrees when git names a commit that the event's revision holds and the one before does not.
    const agrees = commits.some((c) => !isAncestor(c, previous));
    const wordsStay = !agrees && event.kind === 'removed' && text(event.at.sha, paths).includes(w);
    results.push({ site, event, words: w, agrees, commits, wordsStay });
  }
}

const sites = new Set(results.map((r) => r.site.id)).size;
const count = (kind: string, ok?: boolean) => results.filter((r) => r.event.kind === kind && (ok === undefined || r.agrees === ok)).length;
for (const r of results.filter((x) => !x.agrees)) {
  console.log(`disagrees: ${r.event.kind} at ${r.event.at.name} ${r.site.filePath} ${r.site.id} ${JSON.stringify(r.words)}; git log -S: ${r.commits.map((c) => c.slice(0, 10)).join(' ') || 'no commit'}${r.wordsStay ? ' (the words stay in the file: no literal raise of them is left)' : ''}`);
}
console.log(`\n| repository | files | revisions | history time | sites | sampled sites | introduced agree | changed agree | removed agree | removed, the words stay in the file |`);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: |');
console.log(
  `| ${repo} | ${files} | ${h.revisions.length} (${range}) | ${seconds === null ? '–' : `${seconds.toFixed(1)} s`} | ${h.sites.length} | ${sites} of ${checks.length} | ${count('introduced', true)} of ${count('introduced')} | ${count('changed', true)} of ${count('changed')} | ${count('removed', true)} of ${count('removed')} | ${results.filter((r) => r.wordsStay).length} |`,
);
