/**
 * Filter as you type on listing pages. Rows of this page that do not contain every typed word (and
 * do not have the chosen quick filter's class or file) are hidden, with their empty groups. Errors on
 * the listing's other pages are found, on the first keystroke, in the repository's filter index
 * (src/views/list-index.ts: a few gzipped shards) or, on class and tag pages, in the other pages
 * themselves, and the matches are listed below the filter box.
 */
import { type ListIndexEntry, type ListIndexHead, type ListIndexShard, shardEntries } from '../views/list-index.ts';
import { formatNumber, plural } from '../util/text.ts';

const MAX_OTHER_MATCHES = 200;

const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

interface Row {
  el: HTMLElement;
  text: string;
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

/** A row for an error of the filter index, shaped like the listing's own rows (ErrorRow.astro). */
function indexRow(e: ListIndexEntry, repoBase: string): Row {
  const li = document.createElement('li');
  li.className = 'error-row';
  const link = document.createElement('a');
  link.className = 'row-message';
  link.href = `${repoBase}${e.slug}/`;
  link.textContent = e.message;
  const meta = document.createElement('span');
  meta.className = 'row-meta';
  const severity = document.createElement('span');
  severity.className = `severity severity-${e.severity}`;
  severity.textContent = e.severity;
  meta.append(severity);
  if (e.errorClass) {
    const cls = document.createElement('code');
    cls.className = 'row-error-class';
    cls.textContent = e.errorClass;
    meta.append(' ', cls);
  }
  const place = document.createElement('span');
  place.className = 'row-place';
  place.textContent = e.line ? `${e.file}:${e.line}` : e.file;
  meta.append(' ', place);
  li.append(link, ' ', meta);
  return { el: li, text: normalise(`${e.message} ${e.severity} ${e.errorClass} ${place.textContent}`), errorClass: e.errorClass, file: e.file };
}

/** A listing row's exception class, as it shows it. */
const classOf = (row: HTMLElement): string => row.querySelector('.row-error-class')?.textContent ?? '';

/** The other pages' rows, from their HTML (class and tag pages). */
async function pageRows(url: string): Promise<Row[]> {
  const html = await (await fetch(url)).text();
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return [...doc.querySelectorAll<HTMLElement>('[data-listing] .error-row')].map((row) => {
    const el = document.importNode(row, true);
    return { el, text: normalise(el.textContent ?? ''), errorClass: classOf(el), file: '' };
  });
}

function setup(box: HTMLElement): void {
  const input = box.querySelector<HTMLInputElement>('input')!;
  const status = box.querySelector<HTMLElement>('.filter-status')!;
  const other = box.querySelector<HTMLElement>('.filter-other')!;
  const otherList = other.querySelector<HTMLUListElement>('ul')!;
  const facetButtons = [...box.querySelectorAll<HTMLButtonElement>('[data-facet]')];
  const listing = document.querySelector<HTMLElement>('[data-listing]');
  if (!listing) return;
  const rows: Row[] = [...listing.querySelectorAll<HTMLElement>('.error-row')].map((el) => {
    const file = el.closest<HTMLElement>('[data-file]')?.dataset.file ?? '';
    return { el, text: normalise(`${el.textContent ?? ''} ${file}`), errorClass: classOf(el), file };
  });
  const here = new Set(rows.map((r) => r.el.querySelector('a')?.getAttribute('href')));
  const indexUrl = box.dataset.listIndex;
  const repoBase = box.dataset.repoBase ?? '';
  const otherPages: string[] = JSON.parse(box.dataset.otherPages ?? '[]');
  const hasOthers = Number(box.dataset.pages ?? '1') > 1;
  let otherRows: Row[] | null = null;
  let loading: Promise<void> | null = null;
  let facet: Facet | null = null;
  box.hidden = false;

  const loadIndex = async (url: string): Promise<Row[]> => {
    const head = await fetchJson<ListIndexHead>(url);
    const shards = await Promise.all(head.shards.map((s) => fetchJson<ListIndexShard>(new URL(s.file, new URL(url, location.href)).href)));
    return shards.flatMap(shardEntries).flatMap((e) => {
      const row = indexRow(e, repoBase);
      return here.has(row.el.querySelector('a')?.getAttribute('href')) ? [] : [row];
    });
  };

  const loadOthers = (): Promise<void> =>
    (loading ??= (indexUrl ? loadIndex(indexUrl) : Promise.all(otherPages.map(pageRows)).then((pages) => pages.flat())).then(
      (found) => {
        otherRows = found;
      },
      () => {
        otherRows = [];
        status.textContent = 'The other pages could not be loaded; filtering this page only.';
      },
    ));

  const apply = () => {
    const words = normalise(input.value).trim().split(' ').filter(Boolean);
    const matches = (r: Row) =>
      words.every((w) => r.text.includes(w)) && (!facet || (facet.kind === 'class' ? r.errorClass === facet.value : r.file === facet.value));
    const active = words.length > 0 || facet !== null;
    let shown = 0;
    for (const row of rows) {
      const hit = matches(row);
      row.el.hidden = !hit;
      if (hit) shown++;
    }
    for (const group of listing.querySelectorAll<HTMLElement>('[data-file], [data-group]')) {
      group.hidden = active && !group.querySelector('.error-row:not([hidden])');
    }
    otherList.replaceChildren();
    other.hidden = true;
    if (!active) {
      status.textContent = '';
      return;
    }
    let text = `${formatNumber(shown)} of ${plural(rows.length, 'error')} on this page`;
    if (otherRows) {
      const hits = otherRows.filter(matches);
      otherList.append(...hits.slice(0, MAX_OTHER_MATCHES).map((r) => r.el));
      other.hidden = hits.length === 0;
      text += `, ${formatNumber(hits.length)} on other pages${hits.length > MAX_OTHER_MATCHES ? ` (the first ${MAX_OTHER_MATCHES} shown)` : ''}`;
    } else if (hasOthers) text += '; searching the other pages…';
    status.textContent = `${text}.`;
  };

  let timer = 0;
  const changed = (delay: number) => {
    window.clearTimeout(timer);
    timer = window.setTimeout(apply, delay);
    if (hasOthers && !otherRows) void loadOthers().then(apply);
  };
  input.addEventListener('input', () => changed(80));
  for (const button of facetButtons) {
    button.addEventListener('click', () => {
      const on = button.getAttribute('aria-pressed') !== 'true';
      for (const b of facetButtons) b.setAttribute('aria-pressed', 'false');
      button.setAttribute('aria-pressed', String(on));
      facet = on ? { kind: button.dataset.facet ?? '', value: button.dataset.value ?? '' } : null;
      changed(0);
    });
  }
}

for (const box of document.querySelectorAll<HTMLElement>('[data-list-filter]')) setup(box);
