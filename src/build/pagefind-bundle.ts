/**
 * `--max-fragments=N`: at most N fragment files in Pagefind's bundle.
 *
 * Pagefind writes one fragment file per indexed page (`pagefind/fragment/`: the page's URL, title,
 * text for the excerpt and metadata), which makes it the largest share of a site's file count after
 * the pages themselves. Pagefind 1.6 can pack those fragments into at most N shared files per
 * language (its `maxFragments` option): its index then names, for each page, the bundle that holds
 * it, and its `pagefind.js` fetches that bundle once and serves every page in it from memory. That
 * is Pagefind's own, documented option (`PagefindServiceConfig.maxFragments`), so errdex neither
 * rewrites Pagefind's files nor patches its script; it passes the option through and checks the
 * result, so that a Pagefind version that ignored the option fails the build instead of deploying
 * a site over the host's file cap.
 *
 * Pagefind fills the bundles with pages in the order they were added (the catalog's order), in
 * bundles of about equal size: a bundle is about (all fragments' bytes) / N. A full-text query that
 * shows k results fetches at most k bundles (fewer when results share one), so the bytes of a query
 * grow with the bundle size: see docs/deploy.md, "Host budgets", for sizes that suit each host.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Pagefind's bundle folder in the site. */
export const PAGEFIND_DIR = 'pagefind';
/** Lists the parts besides `pagefind/` itself, as paths relative to `pagefind/` (src/build/search-index.ts). */
export const PAGEFIND_PARTS_FILE = 'errdex-parts.json';
/** A part's folder inside `pagefind/`: `part-` and the bits its records' id hashes begin with (src/build/search-index.ts). */
export const PART_DIR = /^part-[01]+$/;

/** Pagefind's folder of fragment files, inside its bundle folder. */
export const FRAGMENT_DIR = 'fragment';

/**
 * Above this, the build warns: a query showing 20 full-text results from 20 bundles would fetch
 * about 1 MB of fragments, four times what the rest of Pagefind costs a query (docs/benchmarks.md).
 */
export const LARGE_BUNDLE_BYTES = 48 * 1024;

/** The bundle size the warning's suggestion aims at: about 300 KB of fragments for a 20-result query. */
export const SUGGESTED_BUNDLE_BYTES = 16 * 1024;

/** Far above any catalog's page count (more bundles than pages just means one file per page): a typo guard. */
const MAX_VALUE = 1_000_000_000;

/**
 * The value of `--max-fragments`: `undefined` when the option is absent, a positive whole number
 * otherwise. Anything else throws an error that says what was wrong and what is expected.
 */
export function parseMaxFragments(value: string | true | undefined): number | undefined {
  if (value === undefined) return undefined;
  const expected = 'a whole number of at least 1, the most fragment files Pagefind may write (e.g. --max-fragments=500)';
  if (value === true || value === '') throw new Error(`--max-fragments needs a value: ${expected}.`);
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1)) throw new Error(`--max-fragments=${value}: expected ${expected}.`);
  if (n > MAX_VALUE) throw new Error(`--max-fragments=${value}: expected at most ${MAX_VALUE.toLocaleString('en-US')}.`);
  return n;
}

export interface FragmentFiles {
  /** Files in `pagefind/fragment/`: one per page, or the bundles. */
  files: number;
  /** Their bytes together (as served: Pagefind gzips them itself). */
  bytes: number;
  /** The largest one: what one full-text result can cost at most. */
  largest: number;
}

/** Counts the fragment files Pagefind wrote into `pagefindDir`. */
export function fragmentFiles(pagefindDir: string): FragmentFiles {
  const dir = join(pagefindDir, FRAGMENT_DIR);
  const out: FragmentFiles = { files: 0, bytes: 0, largest: 0 };
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const size = statSync(join(dir, name)).size;
    out.files++;
    out.bytes += size;
    out.largest = Math.max(out.largest, size);
  }
  return out;
}

/** The Pagefind version that wrote the bundle, from its `pagefind-entry.json` (for error messages). */
function bundleVersion(pagefindDir: string): string {
  try {
    return String((JSON.parse(readFileSync(join(pagefindDir, 'pagefind-entry.json'), 'utf8')) as { version?: unknown }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/**
 * After Pagefind wrote its bundle with `maxFragments`: the fragment files must be at most
 * `maxFragments`. Throws when they are not (a Pagefind that ignores the option), so the build stops
 * before publishing. Returns what was written.
 */
export function checkFragmentBundles(pagefindDir: string, maxFragments: number, pages: number): FragmentFiles {
  const found = fragmentFiles(pagefindDir);
  if (found.files > maxFragments) {
    throw new Error(
      `Pagefind ${bundleVersion(pagefindDir)} wrote ${found.files.toLocaleString('en-US')} fragment files for ${pages.toLocaleString('en-US')} pages, ` +
        `more than --max-fragments=${maxFragments}: this Pagefind version does not bundle fragments with its maxFragments option ` +
        `(errdex relies on it; Pagefind 1.6 has it). Pin Pagefind 1.6, or build without --max-fragments.`,
    );
  }
  return found;
}

const kib = (bytes: number): string => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KB`;

/** One line for the build's summary: how the fragments were written. */
export function describeFragments(found: FragmentFiles, maxFragments: number | undefined): string {
  const what = maxFragments === undefined ? `${found.files.toLocaleString('en-US')} fragment files` : `fragments in ${found.files.toLocaleString('en-US')} bundles (--max-fragments=${maxFragments})`;
  return `${what}, largest ${kib(found.largest)}`;
}

/** A warning when bundles are large enough to make full-text queries heavy, else null. */
export function largeBundleWarning(found: FragmentFiles, maxFragments: number | undefined): string | null {
  if (maxFragments === undefined || found.largest <= LARGE_BUNDLE_BYTES) return null;
  const suggested = Math.ceil(found.bytes / SUGGESTED_BUNDLE_BYTES);
  return (
    `Pagefind fragment bundles are up to ${kib(found.largest)} (--max-fragments=${maxFragments}): a full-text query fetches one bundle per result shown ` +
    `(up to 20), so it can cost ${kib(found.largest * 20)}. --max-fragments=${suggested} would make them about ${kib(SUGGESTED_BUNDLE_BYTES)}.`
  );
}
