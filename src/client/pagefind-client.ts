/** Pagefind in the page: loaded on first use from the site's `pagefind/` folder (never bundled). */
import type { SearchFilter } from '../search/filters.ts';
import type { PagefindHit } from '../search/results.ts';

interface PagefindResult {
  data(): Promise<{ url: string; excerpt: string; meta: Record<string, string>; filters: Record<string, string[]> }>;
}
interface PagefindApi {
  options(o: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  mergeIndex(indexPath: string, options?: Record<string, unknown>): Promise<void>;
  search(q: string, o?: { filters?: Record<string, string> }): Promise<{ results: PagefindResult[] } | null>;
}

let api: Promise<PagefindApi> | null = null;

function load(bundleUrl: string, baseUrl: string): Promise<PagefindApi> {
  api ??= (async () => {
    const pf = (await import(/* @vite-ignore */ `${bundleUrl}pagefind.js`)) as PagefindApi;
    await pf.options({ baseUrl, excerptLength: 20 });
    // A large catalog is indexed in parts (src/build/search-index.ts); they are searched as one.
    const listed = await fetch(`${bundleUrl}errdex-parts.json`).then((r) => (r.ok ? (r.json() as Promise<{ parts?: unknown }>) : { parts: [] }));
    const parts = Array.isArray(listed.parts) ? listed.parts.filter((p): p is string => typeof p === 'string' && /^part-[01]+\/$/.test(p)) : [];
    for (const part of parts) await pf.mergeIndex(`${bundleUrl}${part}`, { baseUrl, excerptLength: 20 });
    await pf.init();
    return pf;
  })();
  api.catch(() => (api = null));
  return api;
}

/** The first `limit` full-text results for a query, with the chosen filters applied by Pagefind. */
export async function pagefindSearch(
  query: string,
  filters: Partial<Record<SearchFilter, string>>,
  options: { bundleUrl: string; baseUrl: string; limit?: number },
): Promise<PagefindHit[]> {
  const pf = await load(options.bundleUrl, options.baseUrl);
  const active = Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as Record<string, string>;
  const search = await pf.search(query, Object.keys(active).length ? { filters: active } : undefined);
  if (!search) return [];
  return Promise.all(search.results.slice(0, options.limit ?? 20).map((r) => r.data()));
}
