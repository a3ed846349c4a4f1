/**
 * One render process: `astro build` through Astro's API, quiet (warnings and errors only), telling
 * its progress on stdout (src/lib/render-progress.ts) to scripts/lib/astro-render.ts. Started early
 * (ERRDEX_RENDER_GATED), it bundles the site at once and waits for the build script's word before
 * it lists and renders the pages (scripts/lib/render-gate.ts).
 *
 * Run by Node itself (its type stripping), as all of the build's scripts are: erasable TypeScript only
 * (tsconfig.json, erasableSyntaxOnly).
 */
import { build } from 'astro';
import { currentShard } from '../catalog/shard.ts';
import { PAGES_MARK } from '../lib/render-progress.ts';
import { GATE_ENV, gatedPrerenderer, readGates } from './render-gate.ts';
import { firstShardRendersFixedPages } from './partition-prerenderer.ts';

const gates = process.env[GATE_ENV] === '1' ? readGates(process.stdin, () => process.exit(1)) : null;
const shard = currentShard();

build({
  logLevel: 'warn',
  integrations: [
    {
      name: 'errdex-render',
      hooks: {
        'astro:build:start': ({ setPrerenderer }) => {
          setPrerenderer((inner) => firstShardRendersFixedPages(gates ? gatedPrerenderer(inner, gates) : inner, shard));
        },
        'astro:build:done': ({ pages }) => void process.stdout.write(`${PAGES_MARK}${pages.length}\n`),
      },
    },
  ],
}).then(
  () => process.exit(0),
  (e: unknown) => {
    const err = e as Error & { hint?: string };
    process.stderr.write(`${err.stack ?? String(e)}\n${err.hint ? `Hint: ${err.hint}\n` : ''}`);
    process.exit(1);
  },
);
