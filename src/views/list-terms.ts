/**
 * The words of a listing's filter index (src/views/list-index.ts): how a row and a query are cut into
 * words, which rows a word names, and how those word lists are cut into files a query fetches a few of.
 *
 * A row matches a query when each word of the query starts a word of the row (its message, file,
 * line, severity, exception class, failure class, repository). Words are cut at anything not a letter or
 * digit, and a word in camel case also counts as its parts: `ValueError` is found by `valueerr`,
 * `value` and `error`. Matching word starts, not any substring, is what lets the index be cut by a
 * word's leading characters, so that a query fetches only the few files its words name.
 *
 * The words are a tree of prefixes: a prefix whose words and row lists fit the budget is a leaf (its
 * words and their rows, together); a bigger one keeps only the union of its words' rows (for a query
 * word that is the prefix itself) and is cut by one more character. Nodes are then packed, in order,
 * into files of about the budget each.
 */

/** The words of a text, lowercase, each once: whole words and the parts of camel-case ones. */
export function words(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    out.add(word.toLowerCase());
    const parts = word.match(/\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+|[\p{L}\p{N}]+/gu);
    if (parts && parts.length > 1) for (const p of parts) out.add(p.toLowerCase());
  }
  return [...out];
}

/** A query's words, without those that another one starts (any row matching `valueerr` matches `value`). */
export function queryWords(query: string): string[] {
  const ws = words(query);
  return ws.filter((w) => !ws.some((o) => o !== w && o.startsWith(w)));
}

/** Whether every query word starts one of the row's words. */
export const matchesWords = (rowWords: readonly string[], query: readonly string[]): boolean => query.every((q) => rowWords.some((w) => w.startsWith(q)));

/** Row numbers, ascending, as differences from the one before (the first from -1), which gzip well. */
export function encodeIds(ids: readonly number[]): number[] {
  let last = -1;
  return ids.map((id) => {
    const d = id - last;
    last = id;
    return d;
  });
}

export function decodeIds(deltas: readonly number[]): number[] {
  let id = -1;
  return deltas.map((d) => (id += d));
}

/** One file of words: leaf words with their rows, and unions of big prefixes' rows. */
export interface TermFile {
  /** Words, sorted. */
  t: string[];
  /** The rows of each word (encodeIds). */
  p: number[][];
  /** Prefix → the rows of all its words (encodeIds). */
  u: Record<string, number[]>;
}

/** Where each prefix of the tree is: `keys[i]` is in file `nodes[i] >> 1`, a union when `nodes[i] & 1`. */
export interface TermTree {
  keys: string[];
  nodes: number[];
}

interface Term {
  word: string;
  ids: number[];
  bytes: number;
}

/** JSON bytes of a row list as encodeIds writes it. */
function idsBytes(ids: readonly number[]): number {
  let n = 2;
  let last = -1;
  for (const id of ids) {
    n += String(id - last).length + 1;
    last = id;
  }
  return n;
}

/** The union of row lists, ascending. */
function unionIds(lists: readonly (readonly number[])[], total: number): number[] {
  const seen = new Uint8Array(total);
  for (const l of lists) for (const id of l) seen[id] = 1;
  const out: number[] = [];
  for (let i = 0; i < total; i++) if (seen[i]) out.push(i);
  return out;
}

const nextPrefix = (word: string, prefix: string): string => prefix + String.fromCodePoint(word.codePointAt(prefix.length)!);

/** The words of `rows` (each row's words, in row order) as a prefix tree packed into files of about `budget` JSON bytes. */
export function termFiles(rows: readonly (readonly string[])[], budget: number): { tree: TermTree; files: TermFile[] } {
  const byWord = new Map<string, number[]>();
  rows.forEach((ws, id) => {
    for (const w of ws) {
      let ids = byWord.get(w);
      if (!ids) byWord.set(w, (ids = []));
      ids.push(id);
    }
  });
  const terms: Term[] = [...byWord]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([word, ids]) => ({ word, ids, bytes: word.length + 4 + idsBytes(ids) }));

  // Nodes in prefix order: leaves carry their words, unions their rows.
  const nodes: { key: string; bytes: number; terms?: Term[]; union?: number[] }[] = [];
  const visit = (prefix: string, ts: Term[]): void => {
    const bytes = ts.reduce((n, t) => n + t.bytes, 0);
    if (bytes <= budget || ts.every((t) => t.word === prefix)) {
      nodes.push({ key: prefix, bytes, terms: ts });
      return;
    }
    if (prefix !== '') {
      const union = unionIds(ts.map((t) => t.ids), rows.length);
      nodes.push({ key: prefix, bytes: idsBytes(union) + prefix.length + 4, union });
    }
    let i = 0;
    const longer = ts.filter((t) => t.word !== prefix);
    while (i < longer.length) {
      const key = nextPrefix(longer[i]!.word, prefix);
      let j = i;
      while (j < longer.length && longer[j]!.word.startsWith(key)) j++;
      visit(key, longer.slice(i, j));
      i = j;
    }
  };
  visit('', terms);

  const tree: TermTree = { keys: [], nodes: [] };
  const files: TermFile[] = [];
  let file: TermFile | null = null;
  let size = 0;
  for (const node of nodes) {
    if (!file || (size > 0 && size + node.bytes > budget)) {
      files.push((file = { t: [], p: [], u: {} }));
      size = 0;
    }
    size += node.bytes;
    tree.keys.push(node.key);
    tree.nodes.push((files.length - 1) * 2 + (node.union ? 1 : 0));
    if (node.union) file.u[node.key] = encodeIds(node.union);
    for (const t of node.terms ?? []) {
      file.t.push(t.word);
      file.p.push(encodeIds(t.ids));
    }
  }
  return { tree, files };
}

/** The node a query word is looked up in: the longest prefix of it in the tree; null when no row has a word starting so. */
export function nodeOf(tree: TermTree, word: string): { file: number; union: boolean; key: string } | null {
  const points = [...word];
  for (let n = points.length; n >= 0; n--) {
    const key = points.slice(0, n).join('');
    const i = tree.keys.indexOf(key);
    if (i === -1) continue;
    const union = (tree.nodes[i]! & 1) === 1;
    // A union answers for its prefix only; a longer word has a node of its own, or no row has it.
    if (union && n < points.length) return null;
    return { file: tree.nodes[i]! >> 1, union, key };
  }
  return null;
}

/** The rows (ascending) having a word that starts with `word`, from the file nodeOf named. */
export function rowsOf(file: TermFile, node: { union: boolean; key: string }, word: string): number[] {
  if (node.union) return decodeIds(file.u[node.key] ?? []);
  const lists: number[][] = [];
  for (let i = 0; i < file.t.length; i++) if (file.t[i]!.startsWith(word)) lists.push(decodeIds(file.p[i]!));
  if (lists.length <= 1) return lists[0] ?? [];
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

/** Rows in every list (each ascending). */
export function intersectIds(lists: readonly (readonly number[])[]): number[] {
  if (lists.length === 0) return [];
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let out = [...sorted[0]!];
  for (const l of sorted.slice(1)) {
    const has = new Set(l);
    out = out.filter((id) => has.has(id));
  }
  return out;
}
