/**
 * Progress of a render process, told to the build script (scripts/lib/astro-render.ts) on stdout.
 * Astro runs quietly there (its line per written file cost the render about a tenth of its time, and
 * the build script as much again to read), so each error page counts itself as it renders: the
 * progress line counts them against the records (the site-wide pages are counted in the end).
 *
 * Only when the build script asks (ERRDEX_RENDER_PROGRESS): `astro dev` and a plain `astro build` say
 * nothing of it.
 */

/** A line `errdex:rendered <pages>` says how many error pages this process has rendered so far. */
export const RENDERED_MARK = 'errdex:rendered ';
/** The last line of a render process: `errdex:pages <pages>`, every page it rendered (scripts/lib/astro-build.ts). */
export const PAGES_MARK = 'errdex:pages ';
/** Pages between two such lines. */
const EVERY = 100;

let rendered = 0;

/** Counts a rendered error page; every EVERY of them, says so. */
export function pageRendered(env: NodeJS.ProcessEnv = process.env): void {
  if (env.ERRDEX_RENDER_PROGRESS !== '1') return;
  rendered++;
  if (rendered % EVERY === 0) process.stdout.write(`${RENDERED_MARK}${rendered}\n`);
}
