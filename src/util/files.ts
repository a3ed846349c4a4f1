/** Listing a built site's files, for tests, the link checker, measurements and reused full-text parts. */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every file below a folder, as paths relative to it with '/' separators, sorted. `skip`: files and
 * folders (given their relative path) to leave out; a folder left out is not read.
 */
export function listFilesBelow(dir: string, skip?: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      const path = relative(dir, full).split('\\').join('/');
      if (skip?.(path)) continue;
      if (e.isDirectory()) walk(full);
      else out.push(path);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}
