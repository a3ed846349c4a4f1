/**
 * The message index: what the paste matcher downloads to find records by their message text.
 *
 * Each record's compact entry (id, page, template, pattern, class and the fields search filters on)
 * is filed in the shards of a few of its keys, rare ones spread over the message (words and word pairs of its template's literal
 * text, and its class with the first letters of its message; see keys.ts); a key's shard is a stable hash of the key. A paste fetches the shards of its
 * own keys only, so a query loads a few kilobytes per key however large the catalog is.
 *
 * Built at build time into `/search-index/shards/<folder>/<shard>.json` with a small manifest at
 * `/search-index/manifest.json`. Each folder holds SHARDS_PER_FOLDER shards and is named by their
 * content hash, which the manifest lists: a cached manifest and its shards stay together, and an
 * edit moves only the folders of the shards it changed (every file of a host or a bucket would be
 * new if one version named them all).
 */
import { languageForPath, languageLabel } from '../highlight/languages.ts';
import { describe, plainProse } from '../util/text.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { raiseSite, raiseSites, type RaiseSite } from './raise-site.ts';
import { classKey, fileableKeys, hashKey, isPrefixPart, keyWords, shardOf, templateKeys, templateLeadingWord } from './keys.ts';

export const INDEX_FORMAT = 5;

/** Shards per folder: the manifest lists a hash per folder, and an edit's changed shard moves its folder's. */
export const SHARDS_PER_FOLDER = 256;
/** The shards' folders' parent, below `search-index/`: all its files are named by their content. */
export const SHARD_DIR = 'shards';

/** A record as the matcher sees it. */
export interface IndexEntry {
  id: string;
  repo: string;
  slug: string;
  template: string;
  pattern: string;
  errorClass: string | null;
  severity: string;
  errorType: string;
  language: string;
  tags: string[];
  /** The start of the record's explanation, shown under a result. */
  summary: string;
  /** Where it is raised (raise-site.ts): ranks records sharing a message by a pasted trace's frames, and shows on each row. */
  file: string;
  line: number | null;
  scope: string | null;
  /**
   * The message page (`/{owner}/{repo}/m/{slug}/`, without the base path) when other records of the
   * repository raise the same message: search shows it first when no frame picks one of them.
   */
  messagePage: string | null;
}

/** How an entry is stored in a shard: a tuple, since field names would double the bytes. */
export type EntryTuple = [string, string, string, string, string, string | null, string, string, string, string[], string, string, number | null, string | null, (string | null)?];

/** The message page is left out of the tuple when there is none (most records): bytes. */
export const toTuple = (e: IndexEntry): EntryTuple => {
  const t: EntryTuple = [e.id, e.repo, e.slug, e.template, e.pattern, e.errorClass, e.severity, e.errorType, e.language, e.tags, e.summary, e.file, e.line, e.scope];
  if (e.messagePage) t.push(e.messagePage);
  return t;
};

export function fromTuple(t: EntryTuple): IndexEntry {
  const [id, repo, slug, template, pattern, errorClass, severity, errorType, language, tags, summary, file, line, scope, messagePage] = t;
  return { id, repo, slug, template, pattern, errorClass, severity, errorType, language, tags, summary, file: file ?? '', line: line ?? null, scope: scope ?? null, messagePage: messagePage ?? null };
}

export interface MessageIndexManifest {
  format: number;
  /** Content hash of all the shards. */
  version: string;
  /** The content hash of each folder's shards (SHARDS_PER_FOLDER of them, in order): the folder's name (`shardFile`). */
  folders: string[];
  shards: number;
  seed: number;
  records: number;
  keysPerRecord: number;
  /**
   * Keys too common to file records under (shared by more than `maxShared` records) that no record
   * was filed under: a paste skips them, since their shards hold only other keys' records.
   */
  common: string[];
}

export interface BuiltMessageIndex {
  manifest: MessageIndexManifest;
  /** JSON text of each shard, by shard number; '[]' for an empty one. */
  shards: string[];
  /** Records whose template has no literal word to be found by (`{}: {}`): listed, never silently dropped. */
  unindexed: { id: string; template: string }[];
  /** Largest shard in bytes: what one unlucky key costs. */
  largestShard: number;
}

export interface MessageIndexOptions {
  /** Keys each record is filed under: more survive typos and truncation, and cost bytes. */
  keysPerRecord?: number;
  /**
   * Keys shared by more records than this are avoided (see chooseKeys): a key's records all sit in
   * its one shard, so this bounds the largest shards a paste may fetch (about 300 bytes a record).
   */
  maxShared?: number;
  /** Average shard size to aim for, in bytes. */
  targetShardBytes?: number;
  /** At most this many shards (`--max-index-files`, for hosts that cap files): larger shards, more bytes per paste. */
  maxShards?: number | undefined;
  seed?: number;
  /**
   * The path of a message's page (src/catalog/derive/message-groups.ts, given by the build: this
   * module also runs in the browser), for the records whose message another record of their
   * repository raises too.
   */
  messagePage?: (r: Pick<ErrorRecord, 'repo' | 'errorMessage'>) => string;
  /**
   * Each record's raise site (`raiseSites` over the catalog, in its order), when the caller read them
   * apart: the records may then come without their code, which at 100,000 rich records is most of
   * what they hold.
   */
  sites?: readonly RaiseSite[];
  /** Each record's summary (`summaryOf`), when the caller read them apart: the records may then come without their prose. */
  summaries?: readonly string[];
}

export const SUMMARY_MAX = 110;

/** The start of a record's explanation, as a result shows it: plain text, `code` spans keep their text, not their backticks (as meta descriptions). */
export const summaryOf = (r: Pick<ErrorRecord, 'documentation'>): string => describe(plainProse(r.documentation), SUMMARY_MAX);

/** A record's entry; `site`: its raise site as `raiseSites` reads it over the whole catalog (else from its own excerpt). */
export function indexEntry(r: ErrorRecord, site: RaiseSite = raiseSite(r), messagePage: string | null = null, summary: string = summaryOf(r)): IndexEntry {
  return {
    id: r.id,
    repo: r.repo,
    slug: r.slug,
    template: r.errorMessage,
    pattern: r.messagePattern,
    errorClass: r.errorClass,
    severity: r.severity,
    errorType: r.errorType,
    language: languageLabel(languageForPath(r.filePath)),
    tags: r.tags,
    summary,
    ...site,
    messagePage,
  };
}

/**
 * The keys a record is filed under, chosen so that a damaged paste still holds some of them: greedily,
 * the key that best protects the record against losing any one word (a typo, a changed or dropped
 * word: at least two chosen keys should avoid each word) and against a cut (every start of the message
 * holding at least half of its words should contain two whole keys), less a cost for how common the
 * key is (a common key makes a big shard for every paste that contains it). Keys shared by more than
 * `maxShared` records are used only when a record has no other: a paste holding only common words
 * matches too many templates for them to help. `keys` are in template order (keys.ts).
 */
export function chooseKeys(keys: string[], df: Map<string, number>, count: number, maxShared = Infinity): string[] {
  const words: string[] = [];
  for (const k of keys) if (!k.includes(' ') && !words.includes(k)) words.push(k);
  const n = words.length;
  const eligible = keys.filter((k) => df.get(k)! <= maxShared);
  // Each key's words (by position) and how far into the message it ends. The start of a long word
  // (`required genera~`, after `required`) survives a typo past it and a cut inside the word.
  // A key holding a long word's start does not survive that word's loss (a changed or dropped
  // word), only a cut inside it or a typo past its start: the word counts among its words for
  // `avoid` (it is the one after the word before it, whose letters the start has).
  const startOf = (prev: string, part: string): number => {
    const letters = [...part.slice(0, -1)];
    const pair = keys.find((p) => p.startsWith(`${prev} `) && !isPrefixPart(p) && letters.every((c) => p.slice(prev.length + 1).includes(c)));
    return pair ? words.indexOf(pair.slice(prev.length + 1)) : -1;
  };
  const info = new Map(
    eligible.map((k) => {
      const parts = keyWords(k);
      const ws = parts.filter((w) => !isPrefixPart(w)).map((w) => words.indexOf(w));
      const started = parts.length === 2 && isPrefixPart(parts[1]!) ? startOf(parts[0]!, parts[1]!) : -1;
      return [k, { lost: started >= 0 ? [...ws, started] : ws, last: Math.max(...ws) + (parts.some(isPrefixPart) ? 0.5 : 0) }];
    }),
  );
  // Cuts keeping the first m words, for m from half the words to all but the last one.
  const cuts: number[] = [];
  for (let m = Math.max(1, Math.ceil(n / 2)); m < n; m++) cuts.push(m);
  const avoid = new Array<number>(n).fill(0);
  const within = new Array<number>(cuts.length).fill(0);
  const chosen: string[] = [];
  const value = (k: string): number => {
    const { lost, last } = info.get(k)!;
    let gain = 0;
    // A first key surviving a damage counts twice as much as a second one.
    for (let w = 0; w < n; w++) if (!lost.includes(w)) gain += PROTECT[avoid[w]!] ?? 0;
    cuts.forEach((m, i) => {
      if (last < m) gain += PROTECT[within[i]!] ?? 0;
    });
    return gain - COMMON_COST * Math.log2(df.get(k)!);
  };
  while (chosen.length < count) {
    let best: string | null = null;
    let bestValue = -Infinity;
    for (const k of eligible) {
      if (chosen.includes(k)) continue;
      const v = value(k);
      if (v > bestValue || (v === bestValue && best !== null && tieBreak(k, best, df) < 0)) {
        best = k;
        bestValue = v;
      }
    }
    if (best === null) break;
    chosen.push(best);
    const { lost, last } = info.get(best)!;
    for (let w = 0; w < n; w++) if (!lost.includes(w)) avoid[w]!++;
    cuts.forEach((m, i) => {
      if (last < m) within[i]!++;
    });
  }
  if (chosen.length === 0 && keys.length > 0) chosen.push([...keys].sort((a, b) => tieBreak(a, b, df))[0]!);
  return chosen;
}

/** Most records filed under one class key (keys.ts `classKey`): a paste holding only it fetches them all. */
export const MAX_CLASS_SHARED = 16;

/** How much a doubling of a key's record count weighs against one protected word or cut. */
export const COMMON_COST = 1;
const PROTECT = [6, 1];

function tieBreak(a: string, b: string, df: Map<string, number>): number {
  return df.get(a)! - df.get(b)! || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Each record's message page, when another record of its repository raises the same message. */
export function messagePages(records: readonly Pick<ErrorRecord, 'repo' | 'errorMessage'>[], path: MessageIndexOptions['messagePage']): (r: Pick<ErrorRecord, 'repo' | 'errorMessage'>) => string | null {
  if (!path) return () => null;
  const key = (r: Pick<ErrorRecord, 'repo' | 'errorMessage'>) => `${r.repo}\u0000${r.errorMessage}`;
  const count = new Map<string, number>();
  for (const r of records) count.set(key(r), (count.get(key(r)) ?? 0) + 1);
  return (r) => ((count.get(key(r)) ?? 0) > 1 ? path(r) : null);
}

/**
 * What the index files of a record: its message and, for a record with a history, each earlier wording
 * of it (its template and pattern then) as one more entry of the same record, so that a paste of an
 * old message lands on the record.
 */
function wordings(r: ErrorRecord): { template: string; pattern: string }[] {
  const out = [{ template: r.errorMessage, pattern: r.messagePattern }];
  for (const c of r.history?.messageChanges ?? []) {
    if (!out.some((w) => w.template === c.errorMessage)) out.push({ template: c.errorMessage, pattern: c.messagePattern });
  }
  return out;
}

/** A wording as the index files it: its record's entry (a tuple's JSON) with the wording's template, and the record's class key for it. */
export interface IndexItem {
  id: string;
  template: string;
  entry: string;
  classKey: string | null;
}

/**
 * A record's items, one per wording (its current message first): `site`, its raise site (`raiseSites`
 * over the catalog); `page`, its message page or null; `summary`, its summary (`summaryOf`).
 */
export function recordItems(r: ErrorRecord, site: RaiseSite, page: string | null, summary: string): IndexItem[] {
  return wordings(r).map((w) => ({
    id: r.id,
    template: w.template,
    // The message page lists the current message's sites: an earlier wording has none.
    entry: JSON.stringify(toTuple({ ...indexEntry(r, site, w.template === r.errorMessage ? page : null, summary), template: w.template, pattern: w.pattern })),
    classKey: classKey(r.errorClass, templateLeadingWord(w.template)),
  }));
}

/** How many items each key is a key of: `words`, the templates' keys (templateKeys); `classes`, the class keys. */
export interface KeyCounts {
  words: Map<string, number>;
  classes: Map<string, number>;
}

/** Adds (`by` 1) or takes away (-1) an item's keys to the counts: `keys`, its template's (templateKeys). */
export function countKeys(counts: KeyCounts, keys: readonly string[], classKey: string | null, by = 1): void {
  for (const k of keys) counts.words.set(k, (counts.words.get(k) ?? 0) + by);
  if (classKey) counts.classes.set(classKey, (counts.classes.get(classKey) ?? 0) + by);
}

/** The index's settings with their defaults. */
function settings(options: MessageIndexOptions) {
  return { keysPerRecord: options.keysPerRecord ?? 4, target: options.targetShardBytes ?? 3_072, seed: options.seed ?? 0x5eed, maxShared: options.maxShared ?? 100 };
}

/**
 * The keys an item is filed under: `keys`, its template's (templateKeys). Each record with a class is
 * also filed under its class key (keys.ts `classKey`), unless more than `MAX_CLASS_SHARED` records share
 * it: the key is the record's only one a paste may show, so every paste with that class and start
 * would fetch them all. (Not listed as common: a paste fetching such a key's shard for nothing pays one
 * shard; the manifest would pay for every search.) In place of one of its word keys: the index keeps its
 * size (a class key survives any cut after the first letters, which the word keys chosen for cuts
 * cover from half the message on). None: the item is not filed (`unindexed`).
 */
export function itemKeys(keys: string[], classKey: string | null, counts: KeyCounts, options: MessageIndexOptions = {}): string[] {
  const { keysPerRecord, maxShared } = settings(options);
  const ck = classKey && counts.classes.get(classKey)! <= MAX_CLASS_SHARED ? classKey : null;
  const chosen = chooseKeys(fileableKeys(keys), counts.words, ck ? keysPerRecord - 1 : keysPerRecord, maxShared);
  if (ck) chosen.push(ck);
  return chosen;
}

/** An item with the keys it is filed under (`itemKeys`). */
export type FiledItem = IndexItem & { keys: string[] };

const hex = (hash: number): string => hash.toString(16).padStart(8, '0');

/** Where shard `n` of an index lives, below `search-index/`. */
export const shardFile = (manifest: Pick<MessageIndexManifest, 'folders'>, n: number): string => `${SHARD_DIR}/${manifest.folders[Math.floor(n / SHARDS_PER_FOLDER)]}/${n}.json`;

/**
 * The number of shards for a catalog that needs `needed`: the next step of a ladder about 6 % apart.
 * Each key's shard is its hash modulo the count, so a count that changed would change every shard,
 * every file of the index: one more record now seldom crosses a step (with the count `needed`
 * itself, one record added to 100,000 took it from 48,180 shards to 48,181). Shards are then up to
 * 6 % under the target size on average.
 */
export function shardCountFor(needed: number): number {
  let n = 1;
  while (n < needed) n += Math.max(1, n >> 4);
  return n;
}

/** Each record's items filed under their keys, and the key counts they were chosen by: what `messageIndex` makes the index of. */
export function fileRecords(catalog: readonly ErrorRecord[], options: MessageIndexOptions = {}): { items: FiledItem[]; counts: KeyCounts } {
  if (options.sites && options.sites.length !== catalog.length) throw new Error(`${options.sites.length} raise sites for ${catalog.length} records`);
  if (options.summaries && options.summaries.length !== catalog.length) throw new Error(`${options.summaries.length} summaries for ${catalog.length} records`);
  const sites = options.sites ?? raiseSites(catalog);
  const pageOf = messagePages(catalog, options.messagePage);
  const items = catalog.flatMap((r, i) => recordItems(r, sites[i]!, pageOf(r), options.summaries?.[i] ?? summaryOf(r)));
  const keys = items.map((item) => templateKeys(item.template));
  const counts: KeyCounts = { words: new Map(), classes: new Map() };
  items.forEach((item, i) => countKeys(counts, keys[i]!, item.classKey));
  return { items: items.map((item, i) => ({ ...item, keys: itemKeys(keys[i]!, item.classKey, counts, options) })), counts };
}

export function buildMessageIndex(catalog: readonly ErrorRecord[], options: MessageIndexOptions = {}): BuiltMessageIndex {
  const { items, counts } = fileRecords(catalog, options);
  return messageIndex(items, counts, catalog.length, options);
}

/**
 * The index of items filed under their keys (`fileRecords`, or kept from an earlier build), chosen by
 * `counts`: each item is in the shard of each of its keys, a key's shard a stable hash of it.
 */
export function messageIndex(items: readonly FiledItem[], counts: KeyCounts, records: number, options: MessageIndexOptions = {}): BuiltMessageIndex {
  const { keysPerRecord, target, seed, maxShared } = settings(options);
  let total = 0;
  const used = new Set<string>();
  const unindexed: BuiltMessageIndex['unindexed'] = [];
  for (const item of items) {
    if (item.keys.length === 0) unindexed.push({ id: item.id, template: item.template });
    for (const k of item.keys) used.add(k);
    total += item.entry.length * item.keys.length;
  }

  // As many shards as make them `target` bytes on average (at most 65,536 files): what a paste pays
  // per key it looks up. (Not a power of two: that made a shard between one and two targets, and a
  // catalog a little larger than another pay half as much per key.)
  const shardCount = Math.min(1 << 16, options.maxShards ?? Infinity, shardCountFor(Math.ceil(total / target)));

  const members: number[][] = Array.from({ length: shardCount }, () => []);
  items.forEach((item, entry) => {
    const seen = new Set<number>();
    for (const key of item.keys) {
      const s = shardOf(key, shardCount, seed);
      if (seen.has(s)) continue;
      seen.add(s);
      members[s]!.push(entry);
    }
  });
  const shards = members.map((m) => `[${m.map((i) => items[i]!.entry).join(',')}]`);
  const folders: string[] = [];
  let largestShard = 0;
  for (let first = 0; first < shards.length; first += SHARDS_PER_FOLDER) {
    let hash = 0;
    for (const s of shards.slice(first, first + SHARDS_PER_FOLDER)) {
      hash = hashKey(s, hash);
      largestShard = Math.max(largestShard, s.length);
    }
    folders.push(hex(hash));
  }
  return {
    manifest: {
      format: INDEX_FORMAT,
      version: hex(hashKey(folders.join(','), 0)),
      folders,
      shards: shardCount,
      seed,
      records,
      keysPerRecord,
      common: [...counts.words].filter(([k, n]) => n > maxShared && !used.has(k)).map(([k]) => k).sort(),
    },
    shards,
    unindexed,
    largestShard,
  };
}
