/**
 * One render process: `astro build` through Astro's API, quiet (warnings and errors only), telling
 * its progress on stdout (src/lib/render-progress.ts) to scripts/lib/astro-render.ts.
 *
 * Run by Node itself (its type stripping), not through tsx: Astro loads the site's code with its own
 * loader, and tsx's loader hooks would only slow that down. So: erasable TypeScript only.
 */
import { build } from 'astro';
import { PAGES_MARK } from '../../src/lib/render-progress.ts';

build({
  logLevel: 'warn',
  integrations: [{ name: 'errdex-page-count', hooks: { 'astro:build:done': ({ pages }) => void process.stdout.write(`${PAGES_MARK}${pages.length}\n`) } }],
}).then(
  () => process.exit(0),
  (e: unknown) => {
    const err = e as Error & { hint?: string };
    process.stderr.write(`${err.stack ?? String(e)}\n${err.hint ? `Hint: ${err.hint}\n` : ''}`);
    process.exit(1);
  },
);
