/**
 * The search page: runs the paste matcher (in a worker, with a deadline) and, when the matcher is
 * not conclusive or the user asks, Pagefind; renders one ranked list, or says plainly that the
 * catalog has no entry for the error (confidence.ts) with a few possibly related rows; keeps the
 * query in the address's fragment (`#q=`, never sent to a server; `?q=` is read too) so a search
 * can be shared; filters by keyboard with native selects.
 */
import { FILTER_LABEL, SEARCH_FILTERS, type SearchFilter } from '../search/filters.ts';
import type { MatchResult } from '../search/matcher.ts';
import {
  KIND_LABEL,
  applyFilters,
  facets,
  fullTextQuery,
  hitFromPagefind,
  hitHref,
  fullTextWanted,
  matchAttribute,
  mergeHits,
  siteLabel,
  valueLabel,
  whyNoMatch,
  type SearchHit,
} from '../search/results.ts';
import { parseTemplate } from '../schema/message-template.ts';
import { noConfidentMatch } from '../search/confidence.ts';
import { pagefindSearch } from './pagefind-client.ts';
import { addressValue, grow } from './paste-box.ts';
import type { MatchRequest, MatchResponse, WarmRequest } from './search-worker.ts';

/** A matcher answer later than this is given up: the worker is replaced and full-text results shown. */
const DEADLINE_MS = 4_000;
const TYPING_DELAY_MS = 250;
/** Full-text results loaded (Pagefind fetches a fragment for each). */
const FULL_TEXT_RESULTS = 10;
/** Longest query kept in the address bar as `#q=`. */
const MAX_ADDRESS_QUERY = 8_000;

const root = document.querySelector<HTMLElement>('[data-search]');
if (root) setUp(root);

function setUp(root: HTMLElement): void {
  const form = root.querySelector<HTMLFormElement>('form')!;
  const box = root.querySelector<HTMLTextAreaElement>('textarea')!;
  const list = root.querySelector<HTMLOListElement>('[data-search-results]')!;
  const status = root.querySelector<HTMLElement>('[data-search-status]')!;
  const more = root.querySelector<HTMLButtonElement>('[data-search-more]')!;
  const filterBox = root.querySelector<HTMLFieldSetElement>('[data-search-filters]')!;
  // On a phone the filters fold behind one button (src/styles/search.css), so results come first.
  const filterToggle = root.querySelector<HTMLButtonElement>('[data-filter-toggle]')!;
  filterToggle.addEventListener('click', () => {
    const open = filterToggle.getAttribute('aria-expanded') !== 'true';
    filterToggle.setAttribute('aria-expanded', String(open));
    filterBox.toggleAttribute('data-open', open);
  });
  const base = root.dataset.base ?? '';
  const indexUrl = new URL(root.dataset.indexUrl!, location.href).href;
  const bundleUrl = new URL(root.dataset.pagefindUrl!, location.href).href;
  const selects = new Map<SearchFilter, HTMLSelectElement>();
  for (const name of SEARCH_FILTERS) selects.set(name, filterBox.querySelector<HTMLSelectElement>(`select[name="${name}"]`)!);

  let worker = newWorker();
  let seq = 0;
  let matches: MatchResult[] = [];
  /** Of `matches`, those shown as possibly related when none is confident (confidence.ts). */
  let related: MatchResult[] = [];
  let textHits: SearchHit[] = [];
  let textSearched = false;
  let fullTextWords: string[] | null = null;
  let typing: number | undefined;
  /** The fragment the page itself last wrote. */
  let current = location.hash;

  function newWorker(): Worker {
    return new Worker(new URL('./search-worker.ts', import.meta.url), { type: 'module', name: 'errdex-matcher' });
  }

  function chosenFilters(): Partial<Record<SearchFilter, string>> {
    const out: Partial<Record<SearchFilter, string>> = {};
    for (const [name, select] of selects) if (select.value) out[name] = select.value;
    return out;
  }

  function match(query: string, mySeq: number): Promise<MatchResponse> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // Stuck on a pathological paste or pattern: stop it; the next query gets a fresh worker.
        worker.terminate();
        worker = newWorker();
        resolve({ seq: mySeq, error: `the pattern matcher gave up after ${DEADLINE_MS / 1000} s` });
      }, DEADLINE_MS);
      const onMessage = (event: MessageEvent<MatchResponse>) => {
        if (event.data.seq !== mySeq) return;
        clearTimeout(timer);
        worker.removeEventListener('message', onMessage);
        resolve(event.data);
      };
      worker.addEventListener('message', onMessage);
      worker.postMessage({ seq: mySeq, query, indexUrl } satisfies MatchRequest);
    });
  }

  async function fullText(query: string, mySeq: number): Promise<void> {
    textSearched = true;
    more.hidden = true;
    const q = fullTextQuery(query, fullTextWords);
    if (!q) return;
    try {
      const hits = await pagefindSearch(q, chosenFilters(), { bundleUrl, baseUrl: `${base}/`, limit: FULL_TEXT_RESULTS });
      if (mySeq !== seq) return;
      textHits = hits.map((h) => hitFromPagefind(h, base));
    } catch (e) {
      if (mySeq !== seq) return;
      textHits = [];
      console.warn('Full-text search failed', e);
    }
  }

  async function search(query: string): Promise<void> {
    const mySeq = ++seq;
    const started = performance.now();
    const q = query.trim();
    syncAddress(query);
    matches = [];
    related = [];
    textHits = [];
    textSearched = false;
    fullTextWords = null;
    delete list.dataset.answerMs;
    list.dataset.state = 'busy';
    list.setAttribute('aria-busy', 'true');
    if (!q) {
      render(started, null);
      return;
    }
    status.textContent = 'Searching…';
    const answer = await match(q, mySeq);
    if (mySeq !== seq) return;
    let note: string | null = null;
    if ('error' in answer) {
      note = `Pasted-error matching failed (${answer.error}); showing full-text results.`;
    } else {
      matches = answer.results;
      related = answer.related;
      fullTextWords = answer.fullTextWords;
      list.dataset.matchMs = (answer.timings.normaliseMs + answer.timings.rankMs).toFixed(2);
      list.dataset.fetchMs = answer.timings.fetchMs.toFixed(1);
      list.dataset.warmMs = answer.timings.warmMs.toFixed(1);
    }
    if ('error' in answer || fullTextWanted(matches)) {
      // The matcher's answer first: the full-text index's first search loads its code and index
      // (a few hundred ms), and its results are added when they come.
      render(started, note, true);
      await fullText(q, mySeq);
      if (mySeq !== seq) return;
    }
    render(started, note);
  }

  /** `textPending`: the full-text search is still running; its results will be drawn after. */
  function render(started: number, note: string | null, textPending = false): void {
    const q = box.value.trim();
    // Nothing matched with confidence: say so, and show only a few possibly related near misses
    // (full-text results, when searched, after them).
    const noMatch = Boolean(q) && noConfidentMatch(matches);
    const all = mergeHits(noMatch ? related : matches, textHits);
    renderFacets(all);
    const shown = applyFilters(all, chosenFilters());
    list.replaceChildren(...shown.map((h) => resultItem(h, noMatch)));
    list.toggleAttribute('data-no-match', noMatch);
    more.hidden = textSearched || textPending || !q;
    more.textContent = noMatch ? 'Search the full text' : 'Also search the full text';
    const exact = shown.filter((h) => h.kind === 'exact').length;
    const tail = note ? ` ${note}` : '';
    // A notice, not a count: the reader must not take the rows below for answers.
    status.classList.toggle('search-no-entry', noMatch);
    status.textContent = !q
      ? 'Paste an error message, a log line or a whole traceback, or type words to search for.'
      : noMatch
        ? `The catalog has no entry for this error.${shown.length ? ` Possibly related: ${shown.length} result${shown.length === 1 ? '' : 's'}.` : ''}${textPending ? ' Searching the full text…' : textSearched ? '' : ' You can also search the full text.'}${tail}`
        : shown.length === 0
          ? `No error matches${all.length ? ' these filters' : ''}.${tail}`
          : `${shown.length} result${shown.length === 1 ? '' : 's'}${exact ? `, ${exact} with the exact template` : ''}.${tail}`;
    // The time to the first answer drawn (the matcher's), and to all of it.
    list.dataset.answerMs ??= (performance.now() - started).toFixed(1);
    if (textPending) return;
    list.dataset.state = 'done';
    list.dataset.query = q;
    list.dataset.engines = textSearched ? 'matcher+pagefind' : 'matcher';
    list.dataset.totalMs = (performance.now() - started).toFixed(1);
    list.removeAttribute('aria-busy');
  }

  function renderFacets(all: SearchHit[]): void {
    const values = facets(all, SEARCH_FILTERS);
    let any = false;
    for (const [name, select] of selects) {
      const current = select.value;
      const options = values[name];
      const keep = current && !options.some((o) => o.value === current) ? [{ value: current, count: 0 }] : [];
      const first = new Option(`Any ${FILTER_LABEL[name].toLowerCase()}`, '');
      select.replaceChildren(first, ...[...keep, ...options].map((o) => new Option(`${o.value} (${o.count})`, o.value)));
      select.value = current;
      select.disabled = options.length + keep.length === 0;
      any ||= options.length > 1 || Boolean(current);
    }
    filterBox.hidden = !any;
    filterToggle.hidden = !any;
    const chosen = Object.keys(chosenFilters()).length;
    filterToggle.textContent = chosen > 0 ? `Filter (${chosen} chosen)` : 'Filter';
  }

  /** `unsure`: no row matched with confidence, so each is labelled as possibly related, not as a match. */
  function resultItem(hit: SearchHit, unsure: boolean): HTMLLIElement {
    const li = document.createElement('li');
    li.className = `search-result kind-${hit.kind}`;
    const a = document.createElement('a');
    a.href = hitHref(hit, base);
    a.className = 'result-link';
    a.dataset.match = matchAttribute(hit.kind);
    if (hit.messagePage) a.dataset.messagePage = '';
    const message = document.createElement('span');
    message.className = 'result-message';
    for (const p of parseTemplate(hit.template)) {
      if (p.kind === 'text') message.append(p.raw);
      else {
        const v = document.createElement('var');
        v.className = 'placeholder';
        v.textContent = p.raw;
        message.append(v);
      }
    }
    const meta = document.createElement('span');
    meta.className = 'result-meta';
    const kind = document.createElement('span');
    kind.className = `match-kind match-${hit.kind}`;
    const label = unsure && hit.kind !== 'text' ? 'Possibly related' : KIND_LABEL[hit.kind];
    kind.textContent = hit.messagePage ? `${label} · all raise sites` : label;
    meta.append(kind, ` ${hit.repo}`);
    if (hit.errorClass) {
      const cls = document.createElement('code');
      cls.textContent = hit.errorClass;
      meta.append(' · ', cls);
    }
    if (hit.site) {
      // Records printing the same message differ here: the file, line and function raising it.
      const site = document.createElement('code');
      site.className = 'result-site';
      site.textContent = siteLabel(hit.site);
      meta.append(' · ', site);
    }
    a.append(message, meta);
    // Why a row whose template fits the line is not a match: the paste names another error, or its trace shows it raised elsewhere.
    const why = unsure ? whyNoMatch({ errorClass: hit.errorClass, otherClass: hit.otherClass, missedFile: hit.siteMissed ? hit.site?.file : undefined }) : null;
    if (why) {
      const note = document.createElement('span');
      note.className = 'result-note';
      for (const part of why) {
        if (typeof part === 'string') note.append(part);
        else {
          const code = document.createElement('code');
          code.textContent = part.code;
          note.append(code);
        }
      }
      a.append(note);
    }
    if (hit.values && hit.values.length > 0) {
      const values = document.createElement('span');
      values.className = 'result-values';
      for (const v of hit.values) {
        const code = document.createElement('code');
        code.textContent = valueLabel(v);
        values.append(code, ' ');
      }
      a.append(values);
    }
    if (hit.snippet.length > 0) {
      const snippet = document.createElement('span');
      snippet.className = 'result-snippet';
      for (const s of hit.snippet) {
        if (s.mark) {
          const mark = document.createElement('mark');
          mark.textContent = s.text;
          snippet.append(mark);
        } else snippet.append(s.text);
      }
      a.append(snippet);
    }
    li.append(a);
    return li;
  }

  function syncAddress(query: string): void {
    const url = new URL(location.href);
    // The fragment form only: a `?q=` the page was opened with leaves the address.
    url.searchParams.delete('q');
    // A huge paste stays out of the address: encoding it costs the main thread hundreds of
    // milliseconds for a link too long to share anyway.
    url.hash = query.trim() && query.length <= MAX_ADDRESS_QUERY ? `q=${encodeURIComponent(query)}` : '';
    current = url.hash;
    history.replaceState(null, '', url);
    // Cut before collapsing spaces: the title needs 60 characters, not a pass over a 1 MB paste.
    const short = query.trimStart().slice(0, 240).replace(/\s+/g, ' ').trim().slice(0, 60);
    document.title = short ? `${short} — ${root.dataset.title}` : root.dataset.title!;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(typing);
    void search(box.value);
  });
  box.addEventListener('input', () => {
    grow(box);
    clearTimeout(typing);
    typing = window.setTimeout(() => void search(box.value), TYPING_DELAY_MS);
  });
  box.addEventListener('keydown', (event) => {
    // Enter searches; Shift+Enter adds a line (pasting keeps its lines either way).
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    } else if (event.key === 'ArrowDown' && box.selectionStart === box.value.length) {
      const first = list.querySelector<HTMLAnchorElement>('a');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  // Arrow keys move between results; Escape goes back to the box.
  list.addEventListener('keydown', (event) => {
    const links = [...list.querySelectorAll<HTMLAnchorElement>('a')];
    const i = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (i === -1) return;
    if (event.key === 'ArrowDown' && i + 1 < links.length) links[i + 1]!.focus();
    else if (event.key === 'ArrowUp') (i > 0 ? links[i - 1]! : box).focus();
    else if (event.key === 'Escape') box.focus();
    else return;
    event.preventDefault();
  });
  for (const select of selects.values()) {
    select.addEventListener('change', () => {
      const mySeq = seq;
      if (textSearched) {
        list.dataset.state = 'busy';
        // Pagefind filters its whole index, not only the results already shown.
        void fullText(box.value.trim(), mySeq).then(() => mySeq === seq && render(performance.now(), null));
      } else render(performance.now(), null);
    });
  }
  more.addEventListener('click', () => {
    const mySeq = seq;
    list.dataset.state = 'busy';
    void fullText(box.value.trim(), mySeq).then(() => mySeq === seq && render(performance.now(), null));
  });

  // Another search box of this page's header, or a link, may change the fragment: search it.
  window.addEventListener('hashchange', () => {
    if (location.hash === current) return;
    const q = addressValue('q') ?? '';
    box.value = q;
    grow(box);
    void search(q);
  });
  const initial = addressValue('q') ?? '';
  box.value = initial;
  grow(box);
  if (initial.trim()) void search(initial);
  else {
    render(performance.now(), null);
    box.focus();
    // Nothing to search yet: while the visitor pastes, the worker fetches the manifest and runs a
    // throwaway match, so the first real one does not pay for compiling the matcher.
    worker.postMessage({ warm: true, indexUrl } satisfies WarmRequest);
  }
}
