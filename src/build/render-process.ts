/**
 * One render process: `astro build` of one render partition through Astro's API, quiet (warnings and
 * errors only: Astro's line per written file cost the render about a tenth of its time). Its render
 * context (src/context.ts) says where the pages go; errdex's Astro integration (src/integration.ts)
 * does the rest: routes to skip, the gates, progress and the result, told to the build.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'astro';
import { buildContext } from '../context.ts';

// errdex's Astro project (astro.config.mjs, src/pages) is the package's; the working folder is the
// user's project, where the output and cache folders are.
const root = fileURLToPath(new URL('../..', import.meta.url));

const ctx = buildContext();
if (!ctx) throw new Error('a render process needs its render context (src/context.ts)');

build({ root, logLevel: 'warn', outDir: ctx.outDir, cacheDir: ctx.astroCacheDir }).then(
  () => process.exit(0),
  (e: unknown) => {
    const err = e as Error & { hint?: string };
    process.stderr.write(`${err.stack ?? String(e)}\n${err.hint ? `Hint: ${err.hint}\n` : ''}`);
    process.exit(1);
  },
);
