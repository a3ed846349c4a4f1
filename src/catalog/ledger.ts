/**
 * The URL ledger: every page URL the catalog has published, kept in `url-ledger.json` beside the
 * catalog and committed with it. Each build reads the previous ledger, plans what old URLs become
 * (a redirect to the record's new page, or a notice that the record was removed, and in which
 * dataset version), and writes the updated ledger after publishing.
 *
 * Paths are stored without the base path: they are the catalog's URLs, wherever it is deployed.
 * The plan is a pure function of (previous ledger, records, dataset version): a rebuild of the same
 * catalog plans the same pages and writes the same ledger, byte for byte.
 */
import { join } from 'node:path';
import { locateJson, parseJson } from './json-locate.ts';
import { catalogFolder, displayPath, pathTaken, readCatalogOwnFile } from './load.ts';
import { RESERVED_OWNERS } from '../util/urls.ts';
import { FILE_LEVEL, type Problem } from './problems.ts';

export const LEDGER_FILE = 'url-ledger.json';
export const LEDGER_VERSION = 1;

export interface LedgerEntry {
  id: string;
  repo: string;
  /** `Class: message`, for the removal notice. */
  title: string;
  /** Every page path this record has had, oldest first; the last one is its current page while it lives. */
  paths: string[];
  /** Dataset version in which it was first published. */
  since: string;
  /** Dataset version in which it disappeared from the catalog; null while it lives. */
  removedIn: string | null;
}

/** A message page published (src/catalog/derive/message-ledger.ts plans what its URL becomes). */
export interface MessagePageEntry {
  path: string;
  repo: string;
  /** The message, for the notice once it is gone. */
  title: string;
  /** Dataset version in which the page was first published. */
  since: string;
  /** Dataset version from which no record raises the message; null while one does. */
  goneIn: string | null;
}

/** What message pages' URLs become in this build. */
export interface MessagePagePlan {
  entries: MessagePageEntry[];
  /** Message pages whose message one record alone raises now: they lead to its page. */
  redirects: { from: string; to: string }[];
  /** Message pages whose message no record raises now. */
  gone: MessagePageEntry[];
}

export interface Ledger {
  entries: LedgerEntry[];
  /** Every message page path published (src/catalog/derive/message-ledger.ts); absent while there are none. */
  messages?: MessagePageEntry[];
}

export interface PublishedRecord {
  id: string;
  repo: string;
  title: string;
  path: string;
}

export interface LedgerRedirect {
  id: string;
  from: string;
  to: string;
}

export interface RemovedPage {
  entry: LedgerEntry;
  /** Its old page paths still shown as removal notices (not taken by a live page). */
  paths: string[];
}

export interface LedgerPlan {
  ledger: Ledger;
  /** Old page paths of live records: each redirects to the record's current page. */
  redirects: LedgerRedirect[];
  /** Every record the ledger knows as removed, in this build or an earlier one. */
  removed: RemovedPage[];
  /** What the message pages' old paths become (src/catalog/derive/message-ledger.ts); absent where no catalog was derived. */
  messages?: MessagePagePlan;
  /** Records the previous ledger had as published (not removed): what this build's removals are a share of. */
  publishedBefore: number;
  /** What this build changed, for the build report. */
  changes: {
    added: number;
    renamed: LedgerRedirect[];
    removedNow: LedgerEntry[];
    restored: LedgerEntry[];
    /** Old paths that a live page (or an earlier claim) now uses: they are that page's, not a redirect. */
    shadowed: { id: string; path: string }[];
  };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function ledgerPath(catalogRoot: string): string {
  return join(catalogFolder(catalogRoot), LEDGER_FILE);
}

export function planLedger(previous: Ledger, records: readonly PublishedRecord[], datasetVersion: string): LedgerPlan {
  const old = new Map(previous.entries.map((e) => [e.id, e]));
  const live = new Map(records.map((r) => [r.id, r]));
  const changes: LedgerPlan['changes'] = { added: 0, renamed: [], removedNow: [], restored: [], shadowed: [] };
  const entries: LedgerEntry[] = [];

  for (const r of records) {
    const before = old.get(r.id);
    if (!before) {
      changes.added++;
      entries.push({ id: r.id, repo: r.repo, title: r.title, paths: [r.path], since: datasetVersion, removedIn: null });
      continue;
    }
    const current = before.paths.at(-1);
    if (current !== r.path && before.removedIn === null && current !== undefined) changes.renamed.push({ id: r.id, from: current, to: r.path });
    if (before.removedIn !== null) changes.restored.push(before);
    entries.push({ ...before, repo: r.repo, title: r.title, paths: [...before.paths.filter((p) => p !== r.path), r.path], removedIn: null });
  }
  for (const e of previous.entries) {
    if (live.has(e.id)) continue;
    if (e.removedIn === null) {
      const removed = { ...e, removedIn: datasetVersion };
      changes.removedNow.push(removed);
      entries.push(removed);
    } else entries.push(e);
  }
  entries.sort((a, b) => cmp(a.id, b.id));

  // Who serves each path: live pages first, then each removed record's last page, then older pages
  // (by id). A path is served once; the others that claimed it are reported as shadowed.
  const taken = new Set(records.map((r) => r.path));
  const claim = (id: string, path: string): boolean => {
    if (taken.has(path)) {
      changes.shadowed.push({ id, path });
      return false;
    }
    taken.add(path);
    return true;
  };
  const removedEntries = entries.filter((e) => e.removedIn !== null);
  const removedPaths = new Map<string, string[]>(removedEntries.map((e) => [e.id, []]));
  for (const e of removedEntries) if (claim(e.id, e.paths.at(-1)!)) removedPaths.get(e.id)!.push(e.paths.at(-1)!);
  const redirects: LedgerRedirect[] = [];
  for (const e of entries) {
    for (const path of e.paths.slice(0, -1)) {
      if (!claim(e.id, path)) continue;
      if (e.removedIn === null) redirects.push({ id: e.id, from: path, to: e.paths.at(-1)! });
      else removedPaths.get(e.id)!.push(path);
    }
  }
  changes.shadowed.sort((a, b) => cmp(a.path, b.path) || cmp(a.id, b.id));

  return {
    ledger: { entries },
    redirects: redirects.sort((a, b) => cmp(a.from, b.from)),
    removed: removedEntries.map((entry) => ({ entry, paths: removedPaths.get(entry.id)!.sort() })),
    publishedBefore: previous.entries.filter((e) => e.removedIn === null).length,
    changes,
  };
}

/** One entry per line, sorted by id: small diffs when operators commit it. */
export function serializeLedger(ledger: Ledger): string {
  const lines = ledger.entries.map((e) =>
    JSON.stringify({ id: e.id, repo: e.repo, title: e.title, paths: e.paths, since: e.since, removedIn: e.removedIn }),
  );
  const messages = (ledger.messages ?? []).map((m) => JSON.stringify({ path: m.path, repo: m.repo, title: m.title, since: m.since, goneIn: m.goneIn }));
  // Message pages only once there are some: a catalog without any keeps the ledger it had.
  const messagesPart = messages.length > 0 ? `,\n  "messages": [\n${messages.map((l) => `    ${l}`).join(',\n')}\n  ]` : '';
  return (
    `{\n  "about": "errdex URL ledger: every page URL this catalog has published. The build reads and updates it; commit it with the catalog.",\n` +
    `  "version": ${LEDGER_VERSION},\n  "entries": [\n${lines.map((l) => `    ${l}`).join(',\n')}\n  ]${messagesPart}\n}\n`
  );
}

const HEX16 = /^[0-9a-f]{16}$/;
/** The characters of owners, repository names and slugs: a page path holds nothing else. */
const SEGMENT = /^[A-Za-z0-9._-]+$/;
/** The longest segment a page path may have (a slug's limit; owners and names are shorter). */
export const MAX_PATH_SEGMENT = 200;

/**
 * What is wrong with a ledger page path, checked like the slugs it was made of: a redirect or a
 * removal notice is written at it, so it must be `/owner/repo/slug/`, each segment plain characters
 * (no `..`, no control characters or line breaks, none longer than MAX_PATH_SEGMENT), and outside
 * the site's own folders (`/search/`, `/e/`, …). Null when it is sound.
 */
export function ledgerPathProblem(path: unknown): string | null {
  const form = 'a page path such as "/owner/repo/slug/"';
  if (typeof path !== 'string') return `must be ${form}; got ${path === null ? 'null' : Array.isArray(path) ? 'an array' : typeof path}`;
  const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.exec(path);
  if (control) return `contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}; it must be ${form}, on one line`;
  const shown = JSON.stringify(path.length > 120 ? `${path.slice(0, 120)}…` : path);
  if (!path.startsWith('/') || !path.endsWith('/') || path.length < 2) return `is ${shown}; it must be ${form}, starting and ending with "/"`;
  const segments = path.slice(1, -1).split('/');
  if (segments.length !== 3) return `is ${shown}, with ${segments.length} segment${segments.length === 1 ? '' : 's'}; it must be ${form}`;
  for (const segment of segments) {
    if (segment === '.' || segment === '..') return `is ${shown}: its segment "${segment}" would leave its folder`;
    if (segment === '') return `is ${shown}, with an empty segment; it must be ${form}`;
    if (segment.length > MAX_PATH_SEGMENT) return `has a segment of ${segment.length} characters; the limit is ${MAX_PATH_SEGMENT}`;
    if (!SEGMENT.test(segment)) return `is ${shown}: a segment may hold only letters, digits, ".", "_" and "-"`;
  }
  const owner = segments[0]!.toLowerCase();
  if (RESERVED_OWNERS.has(owner)) return `is ${shown}, inside the site's own folder /${owner}/; a record's page is never there`;
  return null;
}

/** Parses a ledger text; every problem is placed on its line. */
export function parseLedger(text: string, file: string): { ledger: Ledger; problems: Problem[] } {
  const problems: Problem[] = [];
  const empty = { ledger: { entries: [] }, problems };
  const parsed = parseJson(text, file);
  if (!parsed.ok) {
    problems.push(parsed.problem);
    return empty;
  }
  const value = parsed.value;
  // Located only when a problem needs a line: a valid ledger of 100k entries is read by every
  // render process, and locating it took longer than parsing it (1.5 s against 0.2 at 100k).
  let loc: ReturnType<typeof locateJson> | undefined;
  const lineOf = (path: string) => {
    loc ??= locateJson(text);
    return loc.ok ? (loc.lines.get(path) ?? loc.lines.get(path.slice(0, path.lastIndexOf('.'))) ?? 1) : 1;
  };
  const obj = value as { version?: unknown; entries?: unknown };
  if (!obj || typeof obj !== 'object' || !Array.isArray(obj.entries)) {
    problems.push({ file, line: 1, field: FILE_LEVEL, message: 'must be an object {"version": 1, "entries": [...]} as the build writes it' });
    return empty;
  }
  if (obj.version !== LEDGER_VERSION) {
    problems.push({ file, line: lineOf('version'), field: 'version', message: `must be ${LEDGER_VERSION}; got ${JSON.stringify(obj.version)}` });
    return empty;
  }
  const entries: LedgerEntry[] = [];
  const seen = new Set<string>();
  const str = (v: unknown) => typeof v === 'string' && v.length > 0;
  for (const [i, raw] of obj.entries.entries()) {
    const e = raw as Partial<LedgerEntry> | null;
    const at = `entries.${i}`;
    const bad = (field: string, message: string) => problems.push({ file, line: lineOf(`${at}.${field}`), field: `${at}.${field}`, message });
    const before = problems.length;
    if (!e || typeof e !== 'object') {
      problems.push({ file, line: lineOf(at), field: at, message: 'must be an object {"id", "repo", "title", "paths", "since", "removedIn"}' });
      continue;
    }
    if (typeof e.id !== 'string' || !HEX16.test(e.id)) bad('id', 'must be a record id (16 lowercase hex characters)');
    else if (seen.has(e.id)) bad('id', `duplicates id ${e.id}`);
    if (!str(e.repo)) bad('repo', 'must be "owner/name"');
    if (typeof e.title !== 'string') bad('title', 'must be a string');
    if (!Array.isArray(e.paths) || e.paths.length === 0) bad('paths', 'must be a non-empty list of page paths such as "/owner/repo/slug/"');
    else {
      e.paths.forEach((path: unknown, j) => {
        const problem = ledgerPathProblem(path);
        if (problem) bad(`paths.${j}`, typeof e.id === 'string' ? `${problem} (in the entry of record ${e.id})` : problem);
      });
    }
    if (!str(e.since)) bad('since', 'must be a dataset version');
    if (e.removedIn !== null && !str(e.removedIn)) bad('removedIn', 'must be a dataset version or null');
    if (problems.length === before) {
      seen.add(e.id!);
      entries.push({ id: e.id!, repo: e.repo!, title: e.title!, paths: e.paths!, since: e.since!, removedIn: e.removedIn ?? null });
    }
  }
  const messages = parseMessagePages(obj as { messages?: unknown }, (field, message) => problems.push({ file, line: lineOf(field), field, message }));
  return { ledger: messages ? { entries, messages } : { entries }, problems };
}

const MESSAGE_PATH = /^\/[^/]+\/[^/]+\/m\/[^/]+\/$/;

/** The ledger's message pages, each checked; undefined when the file has none. */
function parseMessagePages(obj: { messages?: unknown }, bad: (field: string, message: string) => void): MessagePageEntry[] | undefined {
  if (obj.messages === undefined) return undefined;
  if (!Array.isArray(obj.messages)) {
    bad('messages', 'must be a list of message pages {"path", "repo", "title", "since", "goneIn"}');
    return [];
  }
  const out: MessagePageEntry[] = [];
  for (const [i, raw] of obj.messages.entries()) {
    const m = raw as Partial<MessagePageEntry> | null;
    const at = `messages.${i}`;
    if (!m || typeof m !== 'object') {
      bad(at, 'must be an object {"path", "repo", "title", "since", "goneIn"}');
      continue;
    }
    const errors: [string, string][] = [];
    if (typeof m.path !== 'string' || !MESSAGE_PATH.test(m.path)) errors.push(['path', 'must be a message page path such as "/owner/repo/m/slug/"']);
    if (typeof m.repo !== 'string' || m.repo === '') errors.push(['repo', 'must be "owner/name"']);
    if (typeof m.title !== 'string') errors.push(['title', 'must be a string']);
    if (typeof m.since !== 'string' || m.since === '') errors.push(['since', 'must be a dataset version']);
    if (m.goneIn !== null && (typeof m.goneIn !== 'string' || m.goneIn === '')) errors.push(['goneIn', 'must be a dataset version or null']);
    for (const [field, message] of errors) bad(`${at}.${field}`, message);
    if (errors.length === 0) out.push({ path: m.path!, repo: m.repo!, title: m.title!, since: m.since!, goneIn: m.goneIn ?? null });
  }
  return out;
}

/** The catalog's ledger; an empty one when the catalog has none yet (its first build). */
export function readLedger(catalogRoot: string): { file: string; exists: boolean; ledger: Ledger; problems: Problem[] } {
  const path = ledgerPath(catalogRoot);
  const file = displayPath(path);
  if (!pathTaken(path)) return { file, exists: false, ledger: { entries: [] }, problems: [] };
  const read = readCatalogOwnFile(path);
  if (!read.ok) return { file, exists: true, ledger: { entries: [] }, problems: [read.problem] };
  return { file, exists: true, ...parseLedger(read.text, file) };
}

/** The build's account of what happened to published URLs: one summary line, then one line per change. */
export function ledgerReport(plan: LedgerPlan, hadLedger: boolean): string[] {
  const { added, renamed, removedNow, restored, shadowed } = plan.changes;
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  if (!hadLedger) return [`URL ledger: none yet; starting one with ${n(added, 'page', 'pages')}.`];
  const lines = [
    `URL ledger: ${n(renamed.length, 'slug changed', 'slugs changed')} (old URLs redirect), ` +
      `${n(removedNow.length, 'record removed', 'records removed')} (old URLs say so), ` +
      `${n(restored.length, 'restored', 'restored')}, ${n(added, 'new page', 'new pages')}.`,
  ];
  for (const r of renamed) lines.push(`  moved     ${r.from} -> ${r.to}`);
  for (const e of removedNow) lines.push(`  removed   ${e.paths.at(-1)} (${e.id}) in dataset version ${e.removedIn}`);
  for (const e of restored) lines.push(`  restored  ${e.paths.at(-1)} (${e.id}), removed in ${e.removedIn}`);
  for (const s of shadowed) lines.push(`  note      ${s.path} (an old URL of ${s.id}) is now another record's page`);
  return lines;
}
