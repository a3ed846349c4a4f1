/**
 * Listings split into pages of bounded HTML size: a repository with 20,000 errors becomes pages of
 * at most ~200 KB, not one page of megabytes. Sizes are estimated per row from the text it shows.
 */

/** Budget for the rows of one listing page; the page frame and navigation come on top. */
export const LIST_ROWS_BUDGET = 150_000;
/** The limit the issue sets for a whole listing page, checked by the site tests. */
export const LIST_PAGE_LIMIT = 200_000;

/**
 * Splits items into consecutive pages whose summed sizes stay within `budget` (the first page
 * within `firstBudget`, which leaves room for what only it shows). A single item larger than the
 * budget gets a page of its own. Never returns an empty page, except one for an empty list.
 */
export function paginateBySize<T>(items: readonly T[], sizeOf: (item: T) => number, budget: number, firstBudget = budget): T[][] {
  const pages: T[][] = [[]];
  let used = 0;
  for (const item of items) {
    const size = sizeOf(item);
    const limit = pages.length === 1 ? firstBudget : budget;
    const page = pages.at(-1)!;
    if (page.length > 0 && used + size > limit) {
      pages.push([item]);
      used = size;
    } else {
      page.push(item);
      used += size;
    }
  }
  return pages;
}

/** A row's HTML bytes, estimated: markup around it plus its text, escaped (× 1.2 for entities and placeholders' markup). */
export function estimateRowBytes(texts: readonly string[], markup = ROW_MARKUP_BYTES): number {
  let n = markup;
  for (const t of texts) n += Math.ceil(Buffer.byteLength(t) * 1.2);
  return n;
}

/** Markup of one listing row without its texts (measured on built pages; kept generous). */
export const ROW_MARKUP_BYTES = 420;
