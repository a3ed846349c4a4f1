/**
 * Related errors, computed once per build from real relatedness, never filler.
 *
 * Signals, each from an inverted index:
 *  - the same file (more when the lines are near each other), the same directory;
 *  - the same failure class (`backgroundTag`);
 *  - shared tags, weighted by how rare they are (inverse document frequency);
 *  - similar wording: cosine similarity of the message templates' literal words, IDF-weighted;
 *  - the same repository, as a small bonus and the first tie-break.
 * A candidate must reach MIN_SCORE: a shared common tag or the same repository alone never does.
 *
 * Cost is about linear: every index list is in (repo, file, line) order, and a list longer than
 * WINDOW contributes only the WINDOW entries around the record (its neighbours in the code), so
 * each record looks at a bounded number of candidates whatever the catalog's size.
 */
import { createHash } from 'node:crypto';
import type { ErrorRecord } from '../../schema/record.ts';
import { directoryOf } from '../../util/text.ts';
import { parseTemplate } from '../../schema/message-template.ts';

export type RelatedInput = Pick<ErrorRecord, 'id' | 'repo' | 'filePath' | 'lineNumber' | 'backgroundTag' | 'tags' | 'errorMessage'>;

/** Why two errors are related: what the page shows next to the link. */
export interface RelatedReasons {
  sameFile: boolean;
  /** Lines apart, when both are in the same file and both lines are known. */
  lineDistance: number | null;
  sameDirectory: boolean;
  sameClass: boolean;
  sharedTags: string[];
  /** Cosine similarity of the messages' words (0-1), when it counted. */
  wording: number;
  sameRepo: boolean;
}

export interface RelatedLink {
  /** Index into the input array. */
  index: number;
  score: number;
  reasons: RelatedReasons;
}

export const RELATED_LIMIT = 6;
export const MIN_SCORE = 3;
/** Longest stretch of one index list that a record looks at. */
export const WINDOW = 64;

const WEIGHT = {
  sameFile: 4,
  /** Added in full at 0 lines apart, fading to nothing at NEAR_LINES apart. */
  nearLines: 2,
  sameDirectory: 1.5,
  sameClass: 2,
  /** Per shared tag: TAG × idf, at most TAG_MAX. */
  tag: 0.5,
  tagMax: 2.5,
  /** × cosine similarity of the wording, counted from WORDING_MIN up. */
  wording: 5,
  sameRepo: 0.5,
} as const;
const NEAR_LINES = 100;
const WORDING_MIN = 0.2;

// Words that say nothing about which error it is.
const STOPWORDS = new Set(
  (
    'a an the of to in on at by for from with without into onto as is are was were be been being it its this that these those ' +
    'and or but not no nor if then than so such only also too very can could cannot should would will must may might do does did ' +
    'done has have had got get gets expected expect unexpected error errors failed fail fails failure invalid unknown unable ' +
    'while when which what who whom where why how there here some any all each every one two more most less other own same ' +
    'value values given found none null nil undefined true false ok'
  ).split(' '),
);

/** The distinctive words of a message template: its literal text, lowercased, without placeholders and stopwords. */
export function templateWords(template: string): string[] {
  const words = new Set<string>();
  for (const part of parseTemplate(template)) {
    if (part.kind !== 'text') continue;
    for (const w of part.text.toLowerCase().match(/[a-z0-9_]+/g) ?? []) {
      const word = w.replace(/^_+|_+$/g, '');
      if (word.length >= 2 && !/^\d+$/.test(word) && !STOPWORDS.has(word)) words.add(word);
    }
  }
  return [...words].sort();
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const idf = (n: number, df: number): number => Math.log((n + 1) / df);

/** Code order: repository, file path, line, id. Neighbours in this order are neighbours in the code. */
export function compareCodeOrder(x: Pick<ErrorRecord, 'id' | 'repo' | 'filePath' | 'lineNumber'>, y: Pick<ErrorRecord, 'id' | 'repo' | 'filePath' | 'lineNumber'>): number {
  return cmp(x.repo, y.repo) || cmp(x.filePath, y.filePath) || (x.lineNumber ?? 0) - (y.lineNumber ?? 0) || cmp(x.id, y.id);
}

/**
 * What relatedErrors reads, as one hash: the same key, the same related errors (they are a function
 * of these fields, in this order). A build whose edit leaves them alone (prose, code) reuses them.
 */
export function relatedInputsKey(records: readonly RelatedInput[]): string {
  const hash = createHash('sha1');
  for (const r of records) hash.update(JSON.stringify([r.id, r.repo, r.filePath, r.lineNumber, r.backgroundTag, r.tags, r.errorMessage])).update('\n');
  return hash.digest('hex');
}

/** Interns strings as small integers, so the hot loop compares numbers in typed arrays. */
function interner(): (key: string) => number {
  const ids = new Map<string, number>();
  return (key) => {
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
}

export function relatedErrors(records: readonly RelatedInput[]): RelatedLink[][] {
  const n = records.length;
  // Code order: neighbours in this order are neighbours in the code.
  const order = records.map((_, i) => i);
  order.sort((a, b) => compareCodeOrder(records[a]!, records[b]!));
  const rank = new Int32Array(n);
  order.forEach((index, position) => (rank[index] = position));

  // Every index list holds record numbers in code order.
  const lists = new Map<string, number[]>();
  const listOf = (key: string): number[] => {
    let list = lists.get(key);
    if (!list) lists.set(key, (list = []));
    return list;
  };
  const repoOf = interner();
  const fileOf = interner();
  const repoId = new Int32Array(n);
  const fileId = new Int32Array(n);
  const line = new Int32Array(n);
  const fileList: number[][] = new Array(n);
  const dirList: number[][] = new Array(n);
  const classList: (number[] | null)[] = new Array(n);
  const tagLists: number[][][] = new Array(n);
  const wordLists: number[][][] = new Array(n);
  for (const i of order) {
    const r = records[i]!;
    repoId[i] = repoOf(r.repo);
    fileId[i] = fileOf(`${r.repo}\0${r.filePath}`);
    line[i] = r.lineNumber ?? -1;
    (fileList[i] = listOf(`f\0${r.repo}\0${r.filePath}`)).push(i);
    (dirList[i] = listOf(`d\0${r.repo}\0${directoryOf(r.filePath)}`)).push(i);
    classList[i] = r.backgroundTag ? listOf(`c\0${r.backgroundTag}`) : null;
    classList[i]?.push(i);
    tagLists[i] = [...new Set(r.tags)].map((t) => listOf(`t\0${t}`));
    for (const l of tagLists[i]!) l.push(i);
    wordLists[i] = templateWords(r.errorMessage).map((w) => listOf(`w\0${w}`));
    for (const l of wordLists[i]!) l.push(i);
  }
  const norms = new Float64Array(n);
  for (let i = 0; i < n; i++) norms[i] = Math.sqrt(wordLists[i]!.reduce((s, l) => s + idf(n, l.length) ** 2, 0));

  const structural = new Float64Array(n);
  const dot = new Float64Array(n);
  const seen = new Uint8Array(n);
  const touched: number[] = [];
  let lo = 0;
  let hi = 0;
  /** Sets [lo, hi) to the part of a list a record looks at: all of it, or the WINDOW entries around the record. */
  const around = (list: number[], i: number): void => {
    if (list.length <= WINDOW) {
      lo = 0;
      hi = list.length;
      return;
    }
    let a = 0;
    let b = list.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (rank[list[mid]!]! < rank[i]!) a = mid + 1;
      else b = mid;
    }
    lo = Math.max(0, Math.min(a - WINDOW / 2, list.length - WINDOW));
    hi = lo + WINDOW;
  };
  const addTo = (scores: Float64Array, list: number[], i: number, weight: number, skipSameFile: boolean) => {
    around(list, i);
    for (let k = lo; k < hi; k++) {
      const j = list[k]!;
      if (j === i || (skipSameFile && fileId[j] === fileId[i])) continue;
      if (!seen[j]) {
        seen[j] = 1;
        touched.push(j);
      }
      scores[j]! += weight;
    }
  };

  const result: RelatedLink[][] = [];
  for (let i = 0; i < n; i++) {
    addTo(structural, fileList[i]!, i, WEIGHT.sameFile, false);
    if (line[i]! >= 0) {
      // Nearby lines in the same file: the file's list is in line order, so its window holds them.
      around(fileList[i]!, i);
      for (let k = lo; k < hi; k++) {
        const j = fileList[i]![k]!;
        if (j !== i && line[j]! >= 0) structural[j]! += WEIGHT.nearLines * Math.max(0, 1 - Math.abs(line[i]! - line[j]!) / NEAR_LINES);
      }
    }
    addTo(structural, dirList[i]!, i, WEIGHT.sameDirectory, true);
    const cls = classList[i];
    if (cls) addTo(structural, cls, i, WEIGHT.sameClass, false);
    for (const list of tagLists[i]!) addTo(structural, list, i, Math.min(WEIGHT.tagMax, WEIGHT.tag * idf(n, list.length)), false);
    for (const list of wordLists[i]!) addTo(dot, list, i, idf(n, list.length) ** 2, false);

    // The reasons are worked out for the links kept only: a record has hundreds of candidates.
    const candidates: { index: number; score: number; wording: number; sameRepo: boolean }[] = [];
    for (const j of touched) {
      const cosine = dot[j]! > 0 ? dot[j]! / (norms[i]! * norms[j]!) : 0;
      const wording = cosine >= WORDING_MIN ? cosine : 0;
      const sameRepo = repoId[i] === repoId[j];
      const score = structural[j]! + WEIGHT.wording * wording + (sameRepo ? WEIGHT.sameRepo : 0);
      if (score >= MIN_SCORE) candidates.push({ index: j, score: Math.round(score * 1000) / 1000, wording, sameRepo });
      structural[j] = 0;
      dot[j] = 0;
      seen[j] = 0;
    }
    touched.length = 0;
    candidates.sort(
      (x, y) =>
        y.score - x.score ||
        Number(y.sameRepo) - Number(x.sameRepo) ||
        Math.abs(rank[x.index]! - rank[i]!) - Math.abs(rank[y.index]! - rank[i]!) ||
        cmp(records[x.index]!.id, records[y.index]!.id),
    );
    result.push(candidates.slice(0, RELATED_LIMIT).map((c) => ({ index: c.index, score: c.score, reasons: reasonsFor(records[i]!, records[c.index]!, c.wording) })));
  }
  return result;
}

function reasonsFor(a: RelatedInput, b: RelatedInput, wording: number): RelatedReasons {
  const sameRepo = a.repo === b.repo;
  const sameFile = sameRepo && a.filePath === b.filePath;
  const tags = new Set(a.tags);
  return {
    sameFile,
    lineDistance: sameFile && a.lineNumber !== null && b.lineNumber !== null ? Math.abs(a.lineNumber - b.lineNumber) : null,
    sameDirectory: sameRepo && !sameFile && directoryOf(a.filePath) === directoryOf(b.filePath),
    sameClass: a.backgroundTag !== null && a.backgroundTag === b.backgroundTag,
    sharedTags: [...new Set(b.tags)].filter((t) => tags.has(t)).sort(),
    wording: Math.round(wording * 100) / 100,
    sameRepo,
  };
}
