/** Fixture sites for the site tests: build a catalog with the real build script, serve it, open it in Chromium. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const FIXTURES = resolve('tests/fixtures/catalogs');
const SITES = resolve('.errdex/test-sites');

export interface BuiltSite {
  dist: string;
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run build` (scripts/build.ts) on a catalog into .errdex/test-sites/<name>. */
export function buildSite(name: string, catalog: string, options: { args?: string[]; env?: Record<string, string>; dist?: string } = {}): BuiltSite {
  const dist = options.dist ?? join(SITES, name);
  const run = spawnSync(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), 'scripts/build.ts', ...(options.args ?? [])], {
    encoding: 'utf8',
    env: { ...process.env, ERRDEX_DATA: catalog, ERRDEX_DIST: dist, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { dist, status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

/** Every file below a folder, as paths relative to it with '/' separators. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(relative(dir, full).split('\\').join('/'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

export const readText = (path: string): string => readFileSync(path, 'utf8');

/** Every file below a folder with the SHA-256 of its bytes: equal trees give equal maps. */
export function hashTree(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((f) => [f, createHash('sha256').update(readFileSync(join(dir, f))).digest('hex')]));
}
