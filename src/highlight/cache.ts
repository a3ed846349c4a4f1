/**
 * The content-addressed highlight cache: one file per (code, language), holding the highlighted
 * lines' HTML. The key covers everything the HTML depends on (the code, the language, Shiki's version
 * and errdex's own line-HTML format), so an entry never goes stale: a changed input is a new key.
 *
 * The build fills it from a worker pool before the render (scripts/lib/highlight-pool.ts); pages read
 * it, and highlight inline (and store the result) on a miss. Its folder sits under the build cache
 * (`ERRDEX_CACHE_DIR`, default `.errdex/cache`), the one folder CI persists between builds.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function buildCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.ERRDEX_CACHE_DIR && env.ERRDEX_CACHE_DIR.trim() !== '' ? env.ERRDEX_CACHE_DIR : '.errdex/cache');
}

export function highlightCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(buildCacheDir(env), 'highlight');
}

let shikiVersion: string | undefined;
function getShikiVersion(): string {
  if (shikiVersion === undefined) {
    try {
      shikiVersion = (JSON.parse(readFileSync(resolve('node_modules/shiki/package.json'), 'utf8')) as { version: string }).version;
    } catch {
      shikiVersion = 'unknown';
    }
  }
  return shikiVersion;
}

/**
 * The cache key of one block (40 hex digits). `format` names the shape of the line HTML (the
 * highlighter's token classes and version), so a change there is a new key too.
 */
export function highlightKey(code: string, lang: string, format: string, engineVersion: string = getShikiVersion()): string {
  return createHash('sha1').update(`${format}\0${engineVersion}\0${lang}\0${code}`).digest('hex');
}

/** Entries live in 256 sub-folders by the key's first two digits, so that no folder grows huge. */
export const keyPath = (dir: string, key: string): string => join(dir, key.slice(0, 2), key.slice(2));

/** The highlighted lines stored under this key, or null. Lines never contain a newline (it is a line break). */
export function readCachedLines(dir: string, key: string): string[] | null {
  try {
    return readFileSync(keyPath(dir, key), 'utf8').split('\n');
  } catch {
    return null;
  }
}

let writeCount = 0;
/** Stores lines under a key: written to a temporary name and renamed, so a reader never sees half an entry. */
export function writeCachedLines(dir: string, key: string, lines: readonly string[]): void {
  const file = keyPath(dir, key);
  const tmp = `${file}.${process.pid}.${writeCount++}.tmp`;
  try {
    writeFileSync(tmp, lines.join('\n'));
  } catch {
    mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
    writeFileSync(tmp, lines.join('\n'));
  }
  renameSync(tmp, file);
}

/** Every key stored in the cache. */
export function listCachedKeys(dir: string): Set<string> {
  const keys = new Set<string>();
  let shards: string[];
  try {
    shards = readdirSync(dir);
  } catch {
    return keys;
  }
  for (const shard of shards) {
    if (!/^[0-9a-f]{2}$/.test(shard)) continue;
    for (const name of readdirSync(join(dir, shard))) if (!name.endsWith('.tmp')) keys.add(shard + name);
  }
  return keys;
}

/** Deletes the entries not in `keep` (blocks no record has any more); returns how many. */
export function pruneCache(dir: string, stored: Iterable<string>, keep: ReadonlySet<string>): number {
  let removed = 0;
  for (const key of stored) {
    if (keep.has(key)) continue;
    rmSync(keyPath(dir, key), { force: true });
    removed++;
  }
  return removed;
}
