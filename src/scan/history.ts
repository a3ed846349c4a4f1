/**
 * `--history`: when each raise site appeared, had its message changed and went away. Scans the
 * revisions of a range (oldest first) or the tags on HEAD's line (oldest first), pairs each scan with the one
 * before as `--merge` does (same id; or same file and similar wording: changed; or same message in
 * a renamed file: moved), and reports every site's events. A blob seen in the previous revision is
 * not parsed again, so each step costs about what changed.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { ErrorRecord, HistoryRevision, RecordHistory } from '../schema/record.ts';
import { commitDate, resolveCommit } from './git.ts';
import { slugOf } from './ids.ts';
import { mergeRecords } from './merge.ts';
import { resolveRepo, scan, type CachedFile } from './scan.ts';

export interface Revision {
  /** As given or listed: a tag name or a short sha. */
  name: string;
  sha: string;
  date: string;
}

export type HistoryEvent =
  | { kind: 'introduced'; at: Revision }
  /** `fromPattern`: the earlier message's pattern, which the paste search keeps matching. */
  | { kind: 'changed'; at: Revision; from: string; fromPattern: string; to: string }
  | { kind: 'moved'; at: Revision; from: string; to: string }
  | { kind: 'removed'; at: Revision };

export interface SiteHistory {
  id: string;
  /** The message, file and class where last seen. */
  errorMessage: string;
  filePath: string;
  errorClass: string | null;
  events: HistoryEvent[];
}

export interface HistoryResult {
  repo: string;
  revisions: Revision[];
  sites: SiteHistory[];
  /** Sites present at the first revision, whose introduction lies before the range. */
  presentAtStart: number;
  seconds: number;
  /**
   * The catalog the history makes (`withHistory`): the last revision's records and the removed
   * sites as last seen, each with its history. Not part of the JSON report.
   */
  records: ErrorRecord[];
}

/**
 * The revisions of `spec`: `tags` (the tags on HEAD's line, oldest first) or a range `A..B` (its
 * first-parent commits, oldest first; A itself is the baseline).
 */
export function listRevisions(dir: string, spec: string): Revision[] {
  const git = (args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).trim();
  if (spec === 'tags') {
    // Only the tags HEAD contains, in the order of their commits: tags of maintenance or release
    // branches, and version order across naming schemes (LANG_3_8 < STRUTS_1_1 < rel/3.10), would
    // interleave lines that never held each other's changes, and every step would remove and re-add
    // their differences. Version order breaks ties (several tags on one commit).
    const line = git(['rev-list', '--date-order', '--reverse', 'HEAD']).split('\n');
    const position = new Map(line.map((sha, i) => [sha, i]));
    const tags = git(['for-each-ref', '--merged=HEAD', '--sort=v:refname', '--format=%(refname:short)', 'refs/tags']).split('\n').filter(Boolean);
    const revisions = tags.map((name) => {
      const sha = resolveCommit(dir, `refs/tags/${name}`);
      return { name, sha, date: commitDate(dir, sha) };
    });
    return revisions
      .map((r, i) => ({ r, at: position.get(r.sha) ?? -1, i }))
      .sort((a, b) => a.at - b.at || a.i - b.i)
      .map(({ r }) => r);
  }
  const m = /^(.+?)\.\.(.+)$/.exec(spec);
  if (!m) {
    const sha = resolveCommit(dir, spec);
    return [{ name: spec, sha, date: commitDate(dir, sha) }];
  }
  const from = resolveCommit(dir, m[1]!);
  const to = resolveCommit(dir, m[2]!);
  const shas = [from, ...git(['rev-list', '--first-parent', '--reverse', `${from}..${to}`]).split('\n').filter(Boolean)];
  return shas.map((sha) => ({ name: sha.slice(0, 12), sha, date: commitDate(dir, sha) }));
}

export async function history(options: { dir: string; spec: string; repo?: string; onRevision?: (r: Revision, i: number, n: number) => void }): Promise<HistoryResult> {
  const started = performance.now();
  const repo = resolveRepo(options.dir, options.repo);
  const revisions = listRevisions(options.dir, options.spec);
  if (revisions.length === 0) throw new Error(`--history ${options.spec}: no revisions (no tags, or an empty range)`);
  const cache = new Map<string, CachedFile>();
  const sites = new Map<string, SiteHistory>();
  let previous: ErrorRecord[] | null = null;
  let presentAtStart = 0;
  // A changed or moved site has a new id of its own; it is known by the id it first had from then on.
  const firstId = new Map<string, string>();
  // Each site as last seen, for the records of removed sites.
  const lastSeen = new Map<string, ErrorRecord>();
  for (const [i, revision] of revisions.entries()) {
    options.onRevision?.(revision, i, revisions.length);
    const fresh = (await scan({ dir: options.dir, rev: revision.sha, repo, cache })).records;
    // A new site whose own id is the first id of a site followed here (it raises that site's earlier
    // message in its place) is set aside under an id derived from it, or the catalog would hold one id twice.
    const followed = new Set(fresh.flatMap((r) => (firstId.has(r.id) ? [firstId.get(r.id)!] : [])));
    const scanned = fresh.map((r) => {
      const id = firstId.get(r.id) ?? (followed.has(r.id) ? asideId(r.id) : undefined);
      return id ? { ...r, id, slug: slugOf(r.errorMessage, id) } : r;
    });
    const remember = (r: ErrorRecord) => {
      const s = sites.get(r.id) ?? { id: r.id, errorMessage: r.errorMessage, filePath: r.filePath, errorClass: r.errorClass, events: [] };
      Object.assign(s, { errorMessage: r.errorMessage, filePath: r.filePath, errorClass: r.errorClass });
      sites.set(r.id, s);
      return s;
    };
    if (!previous) {
      for (const r of scanned) remember(r).events.push({ kind: 'introduced', at: revision });
      presentAtStart = scanned.length;
      for (const r of scanned) lastSeen.set(r.id, r);
      previous = scanned;
      continue;
    }
    // Paired sites keep the earlier id, so one site is followed across edits and renames.
    const { records, report } = mergeRecords(scanned, previous);
    for (const r of report.added) remember(r).events.push({ kind: 'introduced', at: revision });
    // Paired in the same file with the same message: the function around it was renamed, not the message.
    for (const c of report.changed) if (c.before.errorMessage !== c.after.errorMessage) remember(c.after).events.push({ kind: 'changed', at: revision, from: c.before.errorMessage, fromPattern: c.before.messagePattern, to: c.after.errorMessage });
    for (const c of report.moved) remember(c.after).events.push({ kind: 'moved', at: revision, from: c.before.filePath, to: c.after.filePath });
    for (const g of report.gone) remember(g).events.push({ kind: 'removed', at: revision });
    for (const [j, r] of records.entries()) {
      remember(r);
      lastSeen.set(r.id, r);
      if (r.id !== fresh[j]!.id) firstId.set(fresh[j]!.id, r.id);
    }
    previous = records;
  }
  const all = [...sites.values()];
  return { repo, revisions, sites: all, presentAtStart, seconds: (performance.now() - started) / 1000, records: withHistory(revisions, all, previous ?? [], lastSeen) };
}

/** The same for the same id, so that the site set aside keeps it from one revision to the next. */
const asideId = (id: string): string => createHash('sha256').update(`${id}\nhistory`).digest('hex').slice(0, 16);

const revisionOf = (r: Revision): HistoryRevision => ({ name: r.name, sha: r.sha, date: r.date });

/** A site's events as a record's `history` field (src/schema/record.ts). */
export function recordHistory(site: SiteHistory, scannedFrom: Revision): RecordHistory {
  const introduced = site.events.findLast((e) => e.kind === 'introduced');
  const last = site.events.at(-1);
  const history: RecordHistory = {
    scannedFrom: revisionOf(scannedFrom),
    // Every site's first event is its introduction; the fallback only keeps the type total.
    introduced: revisionOf(introduced?.at ?? scannedFrom),
    messageChanges: site.events.flatMap((e) => (e.kind === 'changed' ? [{ at: revisionOf(e.at), errorMessage: e.from, messagePattern: e.fromPattern }] : [])),
  };
  if (last?.kind === 'removed') history.removed = revisionOf(last.at);
  return history;
}

/**
 * The catalog of a history: the records of the last revision, then those of the sites removed on
 * the way as last seen (by the revision that removed them, then file and line), each with its
 * history. Removed sites stay so that their pages, old links and old pastes still land.
 */
export function withHistory(revisions: readonly Revision[], sites: readonly SiteHistory[], last: readonly ErrorRecord[], lastSeen: ReadonlyMap<string, ErrorRecord>): ErrorRecord[] {
  const byId = new Map(sites.map((s) => [s.id, s]));
  const from = revisions[0]!;
  const present = new Set(last.map((r) => r.id));
  const order = new Map(revisions.map((r, i) => [r.sha, i]));
  const removed = sites
    .filter((s) => s.events.at(-1)?.kind === 'removed' && !present.has(s.id) && lastSeen.has(s.id))
    .map((s) => ({ record: lastSeen.get(s.id)!, at: order.get(s.events.at(-1)!.at.sha) ?? 0 }))
    .sort((a, b) => a.at - b.at || cmp(a.record.filePath, b.record.filePath) || (a.record.lineNumber ?? 0) - (b.record.lineNumber ?? 0) || cmp(a.record.id, b.record.id))
    .map((x) => x.record);
  return [...last, ...removed].map((r) => {
    const site = byId.get(r.id);
    return site ? { ...r, history: recordHistory(site, from) } : r;
  });
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The report as printed: counts per revision, then what happened to each site (at most `limit` lines per kind). */
export function historyLines(h: HistoryResult, limit = 20): string[] {
  const lines = [`history ${h.repo}: ${h.revisions.length} revisions (${h.revisions[0]!.name} .. ${h.revisions.at(-1)!.name}), ${h.sites.length} sites, in ${h.seconds.toFixed(1)} s.`];
  for (const [i, r] of h.revisions.entries()) {
    const at = (k: HistoryEvent['kind']) => h.sites.reduce((n, s) => n + s.events.filter((e) => e.kind === k && e.at.sha === r.sha).length, 0);
    // Revisions where nothing happened are left out, except the first and the last.
    if (i > 0 && i < h.revisions.length - 1 && at('introduced') + at('changed') + at('moved') + at('removed') === 0) continue;
    lines.push(`  ${r.name.padEnd(14)} ${r.date.slice(0, 10)}  ${i === 0 ? `${at('introduced')} present` : `+${at('introduced')} introduced, ${at('changed')} changed, ${at('moved')} moved, -${at('removed')} removed`}`);
  }
  const changed = h.sites.flatMap((s) => s.events.filter((e) => e.kind === 'changed').map((e) => `  changed ${e.at.name} ${s.filePath} ${s.id}: ${JSON.stringify(e.from)} -> ${JSON.stringify(e.to)}`));
  lines.push(...changed.slice(0, limit));
  if (changed.length > limit) lines.push(`  … ${changed.length - limit} more changes in the JSON report`);
  return lines;
}

/** A commit as a history names it: its newest tag in version order, else its short sha (as a range's commits are named). */
export function revisionAt(dir: string, sha: string): Revision {
  const tags = execFileSync('git', ['-C', dir, 'tag', '--points-at', sha, '--sort=-v:refname'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return { name: tags[0] ?? sha.slice(0, 12), sha, date: commitDate(dir, sha) };
}

/**
 * A plain scan merged (`--merge`) into a catalog written with `--history`: the histories go on
 * rather than being dropped. A paired record keeps its history and, when its message changed, gains
 * the change at `revision`; a site back after its removal is introduced again there; a new site is
 * introduced there; a site gone from the scan stays, removed at `revision` (one removed before stays
 * as it was). A catalog without histories is left to the merge alone.
 */
export function carryHistory(records: readonly ErrorRecord[], previous: readonly ErrorRecord[], gone: readonly ErrorRecord[], revision: Revision): ErrorRecord[] {
  const scannedFrom = previous.find((r) => r.history)?.history?.scannedFrom;
  if (!scannedFrom) return [...records];
  const at = revisionOf(revision);
  const before = new Map(previous.map((r) => [r.id, r]));
  const carried = records.map((r): ErrorRecord => {
    const b = before.get(r.id);
    if (!b) return { ...r, history: { scannedFrom, introduced: at, messageChanges: [] } };
    if (!b.history) return r;
    const { removed, ...h } = b.history;
    const messageChanges = b.errorMessage === r.errorMessage ? h.messageChanges : [...h.messageChanges, { at, errorMessage: b.errorMessage, messagePattern: b.messagePattern }];
    return { ...r, history: { ...h, introduced: removed ? at : h.introduced, messageChanges } };
  });
  const kept = gone.filter((g) => g.history).map((g): ErrorRecord => (g.history!.removed ? g : { ...g, history: { ...g.history!, removed: at } }));
  return [...carried, ...kept];
}
