/** Small text helpers shared by pages: prose with `code` spans, descriptions, dates. */

/** Text for HTML: safe in element content and in double-quoted attribute values alike. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** Text to match literally inside a regular expression. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export type ProseSegment = { code: boolean; text: string };

/**
 * Splits prose into plain text and `backtick` spans, as Markdown reads them: a span opens with a run
 * of backticks and closes at the next run of as many on the same line (docstrings write
 * ``double`` ones), one space inside each end dropped; a run left unclosed is text. Everything stays
 * text to be escaped by the template, never HTML. Linear: each run is looked at once.
 */
export function proseSegments(text: string): ProseSegment[] {
  const runs: { at: number; length: number; line: number }[] = [];
  let line = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n') line++;
    else if (text[i] === '`') {
      let end = i + 1;
      while (text[end] === '`') end++;
      runs.push({ at: i, length: end - i, line });
      i = end - 1;
    }
  }
  // Each run's next run of the same length, found from the end.
  const next: number[] = new Array(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    next[k] = seen.get(runs[k]!.length) ?? -1;
    seen.set(runs[k]!.length, k);
  }
  const out: ProseSegment[] = [];
  let last = 0;
  for (let k = 0; k < runs.length; k++) {
    const open = runs[k]!;
    const close = runs[next[k]!];
    if (!close || close.line !== open.line) continue;
    let code = text.slice(open.at + open.length, close.at);
    if (code.length > 1 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
    if (open.at > last) out.push({ code: false, text: text.slice(last, open.at) });
    out.push({ code: true, text: code });
    last = close.at + close.length;
    k = next[k]!;
  }
  if (last < text.length) out.push({ code: false, text: text.slice(last) });
  return out;
}

/** Prose as plain text, for places that show no formatting (meta descriptions, link previews): `code` spans keep their text, not their backticks. */
export function plainProse(text: string): string {
  return proseSegments(text)
    .map((s) => s.text)
    .join('');
}

/** Plain-text summary for meta descriptions: collapsed white space, cut on a word boundary. */
export function describe(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max - 1);
  return `${flat.slice(0, cut > max * 0.6 ? cut : max - 1).replace(/[\s,;:.]+$/, '')}…`;
}

/** `2026-08-14` from an ISO timestamp, as the date a record was analysed. */
export function isoDate(iso: string): string {
  return iso.slice(0, 10);
}

/** A count as readers write it: `4,409`. */
export const formatNumber = (n: number): string => n.toLocaleString('en-US');

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** The directory of a repository path: `a/b` for `a/b/c.py`, '' for a file at the root. */
export function directoryOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

/**
 * A message's first words as slugs start: lowercase ASCII letters and digits (accents folded), at most six
 * words joined by '-', cut on a word under 60 characters; '' when it has none. Record slugs, message
 * page paths and the list index's packed slugs are all made from it, so they read alike.
 */
export function slugWords(message: string): string {
  const words = message
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
    .slice(0, 6);
  const stem = words.join('-');
  return stem.length > 60 ? stem.slice(0, 60).replace(/-[^-]*$/, '') : stem;
}
