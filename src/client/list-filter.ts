/**
 * Filter as you type on listing pages. Rows of this page that do not contain every typed word are
 * hidden (with their empty groups). When the listing has further pages, they are fetched once, on
 * the first keystroke, and their matching rows are listed below the filter box.
 */

const MAX_OTHER_MATCHES = 200;

const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

function setup(box: HTMLElement): void {
  const input = box.querySelector<HTMLInputElement>('input')!;
  const status = box.querySelector<HTMLElement>('.filter-status')!;
  const other = box.querySelector<HTMLElement>('.filter-other')!;
  const otherList = other.querySelector<HTMLUListElement>('ul')!;
  const listing = document.querySelector<HTMLElement>('[data-listing]');
  if (!listing) return;
  const rows = [...listing.querySelectorAll<HTMLElement>('.error-row')].map((el) => ({ el, text: normalise(el.textContent ?? '') }));
  const otherPages: string[] = JSON.parse(box.dataset.otherPages ?? '[]');
  let otherRows: { el: HTMLElement; text: string }[] | null = null;
  let loading: Promise<void> | null = null;
  box.hidden = false;

  const loadOthers = (): Promise<void> =>
    (loading ??= Promise.all(
      otherPages.map(async (url) => {
        const html = await (await fetch(url)).text();
        const doc = new DOMParser().parseFromString(html, 'text/html');
        return [...doc.querySelectorAll<HTMLElement>('[data-listing] .error-row')].map((row) => {
          // Rows of a repository page show only the line; add the file so the match says where it is.
          const file = row.closest('[data-file]')?.querySelector('.file-title')?.textContent;
          const el = document.importNode(row, true);
          if (file) el.querySelector('.row-place')?.prepend(`${file} `);
          return { el, text: normalise(el.textContent ?? '') };
        });
      }),
    ).then(
      (pages) => {
        otherRows = pages.flat();
      },
      () => {
        otherRows = [];
        status.textContent = 'The other pages could not be loaded; filtering this page only.';
      },
    ));

  const apply = () => {
    const words = normalise(input.value).trim().split(' ').filter(Boolean);
    const matches = (text: string) => words.every((w) => text.includes(w));
    let shown = 0;
    for (const row of rows) {
      const hit = matches(row.text);
      row.el.hidden = !hit;
      if (hit) shown++;
    }
    for (const group of listing.querySelectorAll<HTMLElement>('[data-file], [data-group]')) {
      group.hidden = words.length > 0 && !group.querySelector('.error-row:not([hidden])');
    }
    otherList.replaceChildren();
    other.hidden = true;
    if (words.length === 0) {
      status.textContent = '';
      return;
    }
    let text = `${shown} of ${rows.length} on this page`;
    if (otherRows) {
      const hits = otherRows.filter((r) => matches(r.text));
      otherList.append(...hits.slice(0, MAX_OTHER_MATCHES).map((r) => r.el));
      other.hidden = hits.length === 0;
      text += `, ${hits.length} on other pages${hits.length > MAX_OTHER_MATCHES ? ` (first ${MAX_OTHER_MATCHES} shown)` : ''}`;
    } else if (otherPages.length > 0) text += '; searching the other pages…';
    status.textContent = `${text}.`;
  };

  let timer = 0;
  input.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(apply, 80);
    if (otherPages.length > 0 && !otherRows) void loadOthers().then(apply);
  });
}

for (const box of document.querySelectorAll<HTMLElement>('[data-list-filter]')) setup(box);
