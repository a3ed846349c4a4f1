/**
 * Titles that tell different messages apart. A title cuts a long headline on a word; two different
 * messages that open alike (`Extension {name} cannot be applied to select` / `… to delete`) would be
 * cut to the same words, and a browser tab, a search result or a link unfurl could not tell them
 * apart. Such a title keeps its opening, leaves out (`…`) what it shares with the others, and shows
 * the words where it starts to differ: `Extension {name} … delete`.
 *
 * One message raised in several places is told apart by its place instead (message-groups.ts).
 */
import { parseTemplate, shortenOnWord } from '../../schema/message-template.ts';
import type { ErrorRecord } from '../../schema/record.ts';
import { showBidiControls } from '../../schema/text-safety.ts';
import { errorHeadline, PLACED_TITLE_MAX, TITLE_MAX } from '../headline.ts';

/** The headline as titles show it: bidirectional controls as visible markers (text-safety.ts). */
export const shownHeadline = (r: Pick<ErrorRecord, 'errorClass' | 'errorMessage'>): string => showBidiControls(errorHeadline(r), 'text');

/** The most of a title's length its opening takes before the differing words get theirs: a title names the error first. */
const OPENING_SHARE = 0.5;

/** A text's words, split on spaces; a placeholder holding spaces (`{', '.join(names)}`) stays one word. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  let word = '';
  for (const p of parseTemplate(text)) {
    if (p.kind === 'hole') {
      word += p.raw;
      continue;
    }
    const pieces = p.raw.split(' ');
    word += pieces[0];
    for (const piece of pieces.slice(1)) {
      words.push(word);
      word = piece;
    }
  }
  words.push(word);
  return words.filter((w) => w !== '');
}

/** A word as it is compared: the punctuation around it and its case do not tell messages apart (`tables.` / `tables`). */
const compared = (w: string): string => w.replace(/^[^\p{L}\p{N}{%$_]+|[^\p{L}\p{N}}_]+$/gu, '').toLowerCase();

function commonWords(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && compared(a[n]!) === compared(b[n]!)) n++;
  return n;
}

/** What an opening that stops before the end loses at its end: punctuation a `…` replaces. */
const trimOpening = (s: string): string => s.replace(/[\s,;.(/\-–—]+$/, '');

/**
 * The text of `words` as a title shows it: the first `opening` words, `…` where words are left out,
 * the words from `from` to `to`, and `…` when more follow.
 */
function layout(words: readonly string[], opening: number, from: number, to: number): string {
  const stretch = words.slice(from, to).join(' ') + (to < words.length ? '…' : '');
  if (opening >= from) return `${words.slice(0, to).join(' ')}${to < words.length ? '…' : ''}`;
  const head = words.slice(0, opening).join(' ');
  return `${opening > 1 ? trimOpening(head) : head} … ${stretch}`;
}

/**
 * The title form of one text within `max` characters that shows its words from `from` (where it starts
 * to differ from the others): the opening and the differing words each up to their share, then more of
 * the opening, then more of the differing words, then the shared words just before them. Null when the
 * opening's first word (two when the first names the class, `ValueError:`) and the first differing word
 * do not fit.
 */
function distinguishingForm(words: readonly string[], from: number, max: number): string | null {
  let opening = Math.min(from, words[0]!.endsWith(':') ? 2 : 1);
  let to = from + 1;
  if (layout(words, opening, from, to).length > max) return null;
  const stretchLength = () => words.slice(from, to).join(' ').length;
  while (opening < from && words.slice(0, opening + 1).join(' ').length <= max * OPENING_SHARE && layout(words, opening + 1, from, to).length <= max) opening++;
  while (to < words.length && layout(words, opening, from, to + 1).length <= max && stretchLength() <= max * (1 - OPENING_SHARE)) to++;
  while (opening < from && layout(words, opening + 1, from, to).length <= max) opening++;
  while (to < words.length && layout(words, opening, from, to + 1).length <= max) to++;
  while (from > opening && layout(words, opening, from - 1, to).length <= max) from--;
  return layout(words, opening, from, to);
}

/**
 * For each of some texts whose cut at `max` characters (shortenOnWord) another of them shares, a
 * form within `max` that no other of them shares: the opening, then the words from where it first
 * differs from the text it shares the longest opening with (a text that ends where another goes on
 * shows its end). Texts no such form tells apart are left out.
 */
export function tellApart(texts: readonly string[], max: number): Map<string, string> {
  const byCut = new Map<string, string[]>();
  for (const t of new Set(texts)) {
    const cut = shortenOnWord(t, max);
    const list = byCut.get(cut);
    if (list) list.push(t);
    else byCut.set(cut, [t]);
  }
  const found = new Map<string, string>();
  for (const group of byCut.values()) {
    if (group.length < 2) continue;
    const words = group.map(wordsOf);
    group.forEach((t, i) => {
      const w = words[i]!;
      const shared = Math.max(...words.map((other, j) => (j === i ? 0 : commonWords(w, other))));
      // A text that ends within another's opening is told apart by its end.
      const form = w.length === 0 ? null : distinguishingForm(w, Math.max(0, Math.min(shared, w.length - 1)), max);
      if (form !== null) found.set(t, form);
    });
  }
  // A form is kept only when no other text reads the same: not another's form (of its own cut or of
  // another's, which can show the same later words), nor another's cut.
  const count = new Map<string, number>();
  for (const f of found.values()) count.set(f, (count.get(f) ?? 0) + 1);
  const forms = new Map<string, string>();
  for (const [t, f] of found) if (count.get(f) === 1 && !byCut.has(f)) forms.set(t, f);
  return forms;
}

type TitleFields = Pick<ErrorRecord, 'id' | 'repo' | 'errorClass' | 'errorMessage'>;

/**
 * The headline each page title shows, by record id, where it is not the headline cut at TITLE_MAX:
 * a message raised in several places of its repository is cut at PLACED_TITLE_MAX (its title adds
 * the place); and a headline whose cut another message of the repository shares keeps the words that
 * differ (tellApart).
 */
export function titleHeadlines(records: readonly TitleFields[]): Map<string, string> {
  const byRepo = new Map<string, Map<string, string[]>>();
  for (const r of records) {
    let heads = byRepo.get(r.repo);
    if (!heads) byRepo.set(r.repo, (heads = new Map()));
    const h = shownHeadline(r);
    const ids = heads.get(h);
    if (ids) ids.push(r.id);
    else heads.set(h, [r.id]);
  }
  const out = new Map<string, string>();
  for (const heads of byRepo.values()) {
    const texts = [...heads.keys()];
    const full = tellApart(texts, TITLE_MAX);
    const placed = tellApart(texts, PLACED_TITLE_MAX);
    for (const [h, ids] of heads) {
      const form = ids.length > 1 ? (placed.get(h) ?? shortenOnWord(h, PLACED_TITLE_MAX)) : full.get(h);
      if (form !== undefined) for (const id of ids) out.set(id, form);
    }
  }
  return out;
}

/** The headline a record's page title shows: as titleHeadlines gives it, or its headline cut at TITLE_MAX. */
export function titleHeadline(r: TitleFields, headlines: ReadonlyMap<string, string>): string {
  return headlines.get(r.id) ?? shortenOnWord(shownHeadline(r), TITLE_MAX);
}
