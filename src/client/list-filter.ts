/**
 * Filter as you type on listing pages. Rows of this page that do not match every typed word (each
 * word starting a word of the row: src/views/list-terms.ts), or not the chosen quick filter's class or
 * file, are hidden with their empty groups. The matches on the listing's other pages are found in its
 * filter index (src/views/list-index.ts): the head, the word files the query's words name, then the row
 * files of the matches shown, a step at a time, so that a query costs about the same on a listing of
 * any size; asked once typing pauses, not at every key. They are listed below the filter box, in page order.
 */
import {
  facetFileName,
  LIST_INDEX_VERSION,
  type FacetFile,
  type ListIndexEntry,
  type ListIndexHead,
  type RowFile,
  rowEntries,
  rowFileName,
  rowFileOf,
  rowStarts,
  rowsToShow,
  rowText,
  SHOWN_STEP,
  termFileName,
} from '../views/list-index.ts';
import { decodeIds, intersectIds, matchesWords, nodeOf, queryWords, rowsOf, type TermFile, words } from '../views/list-terms.ts';
import { formatNumber, plural } from '../util/text.ts';


interface Row {
  el: HTMLElement;
  words: string[];
  errorClass: string;
  file: string;
}

interface Facet {
  kind: string;
  value: string;
}

/** A fetched file's bytes as JSON, gunzipped here unless the server already did (gzip starts 1f 8b). */
async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return JSON.parse(new TextDecoder().decode(bytes)) as T;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text()) as T;
}

/** A listing's filter index, its files fetched once each, when a query first needs them. */
class ListIndex {
  readonly head: Promise<ListIndexHead>;
  private readonly files = new Map<string, Promise<unknown>>();
  private readonly rowFiles = new Map<number, Promise<ListIndexEntry[]>>();
  private starts: number[] = [];
  private readonly url: string;

  constructor(url: string) {
    this.url = url;
    this.head = fetchJson<ListIndexHead>(url).then((head) => {
      if (head.v !== LIST_INDEX_VERSION) throw new Error(`${url}: version ${head.v}, expected ${LIST_INDEX_VERSION}`);
      this.starts = rowStarts(head.rows);
      return head;
    });
  }

  private file<T>(head: ListIndexHead, name: string): Promise<T> {
    const url = new URL(`${head.dir}/${name}`, new URL(this.url, location.href)).href;
    let f = this.files.get(url);
    if (!f) this.files.set(url, (f = fetchJson<T>(url)));
    return f as Promise<T>;
  }

  /** The rows matching every word and the quick filter, ascending. */
  async match(query: readonly string[], facet: Facet | null): Promise<number[]> {
    const head = await this.head;
    const lists = await Promise.all(
      query.map(async (w) => {
        const node = nodeOf(head.terms, w);
        return node ? rowsOf(await this.file<TermFile>(head, termFileName(node.file)), node, w) : [];
      }),
    );
    if (facet) {
      const i = head.facets.findIndex(([kind, value]) => kind === facet.kind && value === facet.value);
      lists.push(i === -1 ? [] : decodeIds((await this.file<FacetFile>(head, facetFileName(i))).u));
    }
    return intersectIds(lists);
  }

  /** The entries of `ids` (ascending), as far as ROW_FILES_PER_STEP row files not yet fetched reach. */
  async entries(ids: readonly number[]): Promise<ListIndexEntry[]> {
    const head = await this.head;
    const shown = rowsToShow(ids, this.starts, (f) => this.rowFiles.has(f));
    for (const f of shown.files) this.rowFiles.set(f, this.file<RowFile>(head, rowFileName(f)).then((file) => rowEntries(file, head)));
    return Promise.all(
      shown.ids.map(async (id) => {
        const f = rowFileOf(this.starts, id);
        return (await this.rowFiles.get(f)!)[id - this.starts[f]!]!;
      }),
    );
  }
}

/** A row for an error of the filter index, shaped like the listing's own rows (ErrorRow.astro). */
function indexRow(e: ListIndexEntry, kind: ListIndexHead['kind'], base: string): HTMLElement {
  const li = document.createElement('li');
  li.className = 'error-row';
  const link = document.createElement('a');
  link.className = 'row-message';
  link.href = `${base}${e.repo}/${e.slug}/`;
  link.textContent = e.message;
  const meta = document.createElement('span');
  meta.className = 'row-meta';
  const part = (tag: string, className: string, text: string): HTMLElement => {
    const el = document.createElement(tag);
    el.className = className;
    el.textContent = text;
    meta.append(meta.childNodes.length > 0 ? ' ' : '', el);
    return el;
  };
  part('span', `severity severity-${e.severity}`, e.severity);
  if (e.errorClass) part('code', 'row-error-class', e.errorClass);
  if (e.failureClass && kind !== 'class') (part('a', 'row-class', e.failureClass.title) as HTMLAnchorElement).href = `${base}classes/${e.failureClass.id}/`;
  if (kind !== 'repo') part('span', 'row-repo', e.repo);
  part('span', 'row-place', e.line ? `${e.file}:${e.line}` : e.file);
  li.append(link, ' ', meta);
  return li;
}

/** A row of this page, with what the filter matches it on (the same text as the index's rows). */
function pageRow(el: HTMLElement): Row {
  const text = (selector: string) => el.querySelector(selector)?.textContent ?? '';
  // A repository page gives a row's file by its group and its place as `line N`; other listings as `file:line`.
  const place = /^(?:line (\d+)|(.*?)(?::(\d+))?)$/.exec(text('.row-place'))!;
  const file = el.closest<HTMLElement>('[data-file]')?.dataset.file || place[2] || '';
  const line = Number(place[1] ?? place[3] ?? 0) || null;
  const errorClass = text('.row-error-class');
  const rowWords = words(rowText({ message: text('.row-message'), file, line, severity: text('.severity'), errorClass, classTitle: text('.row-class'), repo: text('.row-repo') }));
  return { el, words: rowWords, errorClass, file };
}

function setup(box: HTMLElement): void {
  const input = box.querySelector<HTMLInputElement>('input')!;
  const status = box.querySelector<HTMLElement>('.filter-status')!;
  const other = box.querySelector<HTMLElement>('.filter-other')!;
  const otherList = other.querySelector<HTMLUListElement>('ul')!;
  const more = other.querySelector<HTMLButtonElement>('.filter-more')!;
  const facetButtons = [...box.querySelectorAll<HTMLButtonElement>('[data-facet]')];
  const listing = document.querySelector<HTMLElement>('[data-listing]');
  if (!listing) return;
  const rows = [...listing.querySelectorAll<HTMLElement>('.error-row')].map(pageRow);
  const indexUrl = box.dataset.listIndex;
  const firstRow = Number(box.dataset.firstRow ?? '0');
  const base = box.dataset.base ?? '/';
  let index: ListIndex | null = null;
  let facet: Facet | null = null;
  let limit = SHOWN_STEP;
  let seq = 0;
  box.hidden = false;

  /** The matches of other pages, listed when the index answers, unless the query changed meanwhile. */
  const search = async (my: number, query: string[], here: string): Promise<void> => {
    try {
      index ??= new ListIndex(indexUrl!);
      const head = await index.head;
      const ids = (await index.match(query, facet)).filter((id) => id < firstRow || id >= firstRow + rows.length);
      const entries = await index.entries(ids.slice(0, limit));
      if (my !== seq) return;
      otherList.replaceChildren(...entries.map((e) => indexRow(e, head.kind, base)));
      other.hidden = entries.length === 0;
      more.hidden = entries.length >= ids.length;
      const part = entries.length < ids.length ? ` (the first ${formatNumber(entries.length)} shown)` : '';
      status.textContent = `${here}, ${formatNumber(ids.length)} on other pages${part}.`;
    } catch {
      if (my !== seq) return;
      index = null;
      otherList.replaceChildren();
      other.hidden = true;
      status.textContent = `${here}. The other pages could not be searched; filtering this page only.`;
    }
  };

  let searchTimer = 0;
  /** Filters this page at once; asks the index `searchDelay` ms later, so that a word typed fast costs one query, not one per key. */
  const apply = (searchDelay: number): void => {
    const my = ++seq;
    window.clearTimeout(searchTimer);
    const query = queryWords(input.value);
    const matches = (r: Row) => matchesWords(r.words, query) && (!facet || (facet.kind === 'class' ? r.errorClass === facet.value : r.file === facet.value));
    const active = query.length > 0 || facet !== null;
    let shown = 0;
    for (const row of rows) {
      const hit = !active || matches(row);
      row.el.hidden = !hit;
      if (hit) shown++;
    }
    for (const group of listing.querySelectorAll<HTMLElement>('[data-file], [data-group]')) {
      group.hidden = active && !group.querySelector('.error-row:not([hidden])');
    }
    const here = `${formatNumber(shown)} of ${plural(rows.length, 'error')} on this page`;
    if (!active || !indexUrl) {
      otherList.replaceChildren();
      other.hidden = true;
      status.textContent = active ? `${here}.` : '';
      return;
    }
    status.textContent = `${here}; searching the other pages…`;
    searchTimer = window.setTimeout(() => void search(my, query, here), searchDelay);
  };

  let timer = 0;
  const changed = (delay: number, searchDelay: number) => {
    window.clearTimeout(timer);
    limit = SHOWN_STEP;
    timer = window.setTimeout(() => apply(searchDelay), delay);
  };
  input.addEventListener('input', () => changed(80, 250));
  more.addEventListener('click', () => {
    limit = otherList.childElementCount + SHOWN_STEP;
    apply(0);
  });
  for (const button of facetButtons) {
    button.addEventListener('click', () => {
      const on = button.getAttribute('aria-pressed') !== 'true';
      for (const b of facetButtons) b.setAttribute('aria-pressed', 'false');
      button.setAttribute('aria-pressed', String(on));
      facet = on ? { kind: button.dataset.facet ?? '', value: button.dataset.value ?? '' } : null;
      changed(0, 0);
    });
  }
}

for (const box of document.querySelectorAll<HTMLElement>('[data-list-filter]')) setup(box);
