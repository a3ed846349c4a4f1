/** Listing a built site's files, for tests, the link checker and measurements. */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file below a folder, as paths relative to it with '/' separators, sorted. */
export function listFilesBelow(dir: string): string[] {
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
