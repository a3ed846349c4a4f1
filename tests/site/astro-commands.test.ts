/**
 * Astro's own commands on errdex: `astro dev` renders from the catalog folder through the same render
 * context module as the build (src/context.ts, its in-process path); plain `astro build` stops and says
 * to run `npm run build` (src/integration.ts), rather than publish a site without its indexes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../support/site.ts';

const astro = resolve('node_modules/astro/bin/astro.mjs');

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

describe('astro dev', () => {
  it('serves error pages, listings and JSON twins of the catalog folder', async () => {
    const port = await freePort();
    const cache = mkdtempSync(join(tmpdir(), 'errdex-dev-cache-'));
    const dev = spawn(process.execPath, [astro, 'dev', '--host', '127.0.0.1', '--port', String(port)], {
      // Not the test runner's environment: vitest sets variables (MODE, BASE_URL, …) that Vite would take as its own.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ERRDEX_DATA: join(FIXTURES, 'basic'), ERRDEX_CACHE_DIR: cache, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    dev.stdout.on('data', (d: Buffer) => (output += d.toString()));
    dev.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      const base = `http://127.0.0.1:${port}`;
      await expect.poll(() => fetch(`${base}/`).then((r) => r.status, () => 0), { timeout: 60_000, interval: 500 }).toBe(200);
      const page = await fetch(`${base}/acme/widgets/widget-not-found-111122/`);
      expect(page.status, output).toBe(200);
      const html = await page.text();
      expect(html).toContain('<var class="placeholder" title="placeholder: filled in at run time">%s</var>');
      expect(html).toContain('lib/store.widgetlang:12');
      // Outside the build Astro renders each JSON twin and short link itself.
      const twin = await fetch(`${base}/api/errors/1111222233334444.json`);
      expect(twin.status).toBe(200);
      expect(JSON.parse(await twin.text()).record.id).toBe('1111222233334444');
      expect((await fetch(`${base}/acme/widgets/`)).status).toBe(200);
    } catch (e) {
      throw new Error(`${(e as Error).message}\nastro dev said:\n${output}`);
    } finally {
      process.kill(-dev.pid!, 'SIGTERM');
    }
  });
});

describe('plain astro build', () => {
  it('stops at once and says to run npm run build', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'errdex-plain-')), 'dist');
    const run = spawnSync(process.execPath, [astro, 'build', '--outDir', out], {
      encoding: 'utf8',
      env: { ...process.env, ERRDEX_DATA: join(FIXTURES, 'basic'), ASTRO_TELEMETRY_DISABLED: '1' },
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('Run `npm run build` instead.');
  });
});
