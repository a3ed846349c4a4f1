/**
 * Every search box of the site takes a paste the same way: the home and 404 pages' boxes are
 * textareas that grow with what is pasted (Enter searches, Shift+Enter adds a line), the header's
 * one-line box hands a paste with line breaks to the search page intact, and every box sends its
 * text in the address's fragment (`/search/#q=…`), which never reaches a server's log. Without
 * JavaScript the forms still submit `?q=`, which the search page reads too.
 */
import { pathWords } from '../views/path-words.ts';

/** Longest paste handed to the search page in the address: its head and tail (errors sit at the ends). */
const MAX_HANDOFF = 16_000;
/** Rows a growing box takes at most; then it scrolls. */
const MAX_ROWS = 12;

/** The search page's address for a query, in the fragment. */
export function searchHref(action: string, query: string): string {
  const q = query.length > MAX_HANDOFF ? `${query.slice(0, MAX_HANDOFF / 4)}\n…\n${query.slice(query.length - (MAX_HANDOFF * 3) / 4)}` : query;
  const url = new URL(action, location.href);
  url.search = '';
  url.hash = `q=${encodeURIComponent(q)}`;
  return url.href;
}

/** The query a page was opened with: `#q=` (what the site writes) or `?q=` (links shared before, no JavaScript). */
export function addressValue(name: string): string | null {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get(name);
  return fromHash ?? new URL(location.href).searchParams.get(name);
}

/** Grows a textarea to its lines (rows, not an inline style: the CSP allows none). */
export function grow(box: HTMLTextAreaElement): void {
  const min = Number(box.dataset.minRows ?? box.getAttribute('rows') ?? 1);
  box.dataset.minRows = String(min);
  const lines = box.value.split('\n').length;
  box.rows = Math.max(min, Math.min(MAX_ROWS, lines));
}

function setUp(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[role="search"]')) {
    // The search page's own form runs the search in place (search-page.ts).
    if (form.closest('[data-search]')) continue;
    const box = form.querySelector<HTMLTextAreaElement | HTMLInputElement>('textarea, input[name="q"]');
    if (!box) continue;
    form.addEventListener('submit', (event) => {
      if (!box.value.trim()) return;
      event.preventDefault();
      location.assign(searchHref(form.action, box.value));
    });
    // The 404 page: the missing address's words, ready to search (src/views/path-words.ts).
    if (box.hasAttribute('data-path-words') && !box.value) box.value = pathWords(location.pathname, box.dataset.base ?? '');
    if (box instanceof HTMLTextAreaElement) {
      grow(box);
      box.addEventListener('input', () => grow(box));
      box.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
          event.preventDefault();
          form.requestSubmit();
        }
      });
    } else {
      // A one-line box would flatten a pasted traceback: a paste with line breaks goes straight to the search page.
      box.addEventListener('paste', (event) => {
        const text = event.clipboardData?.getData('text/plain') ?? '';
        if (!/[\r\n]/.test(text.trim())) return;
        event.preventDefault();
        location.assign(searchHref(form.action, text));
      });
    }
  }
}

setUp();
