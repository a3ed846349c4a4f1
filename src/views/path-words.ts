/**
 * The words of a page address that was not found, for the 404 page's search box: an old or mistyped
 * error page's address is usually its message's words (`/owner/repo/unexpected-frame-b024d3/`), so
 * searching them tends to find the page. Ids and slug tails (hexadecimal runs), `index.html` and
 * listing page numbers carry no meaning and are left out.
 */

/** At most this many words: a search box, not the whole address. */
const MAX_WORDS = 12;

export function pathWords(pathname: string, base = ''): string {
  let path = pathname;
  if (base && path.startsWith(base)) path = path.slice(base.length);
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: the address's words as written.
  }
  const words = path
    .replace(/\/index\.html?$/i, '/')
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/\/page\/\d+\/?$/, '/')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !/^[0-9a-f]{6,}$/i.test(w) && !/^\d+$/.test(w));
  return words.slice(0, MAX_WORDS).join(' ');
}
