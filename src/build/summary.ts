/**
 * What a built site is, in the figures hosts limit: files, bytes, the largest file, the fullest
 * folder and the `_redirects` rules. Measured on the staging folder before it is published, so a
 * host's budget (src/build/hosts.ts) is checked while the published site is still the old one, and
 * printed in every build's summary.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface SiteFigures {
  files: number;
  bytes: number;
  largest: { path: string; bytes: number };
  /** The folder holding the most files (not counting its subfolders'). */
  fullest: { path: string; files: number };
  /** Rules in `_redirects` (lines that are not blank or comments); 0 without the file. */
  redirectRules: number;
  /** Files of the full-text index's fragments (`pagefind/…/fragment/`) and of the message index (`search-index/`): what the options change. */
  fragmentFiles: number;
  messageIndexFiles: number;
}

/** Rules of a `_redirects` text: every line but blank ones and `#` comments. */
export function redirectRules(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
}

export function measureSite(site: string): SiteFigures {
  const figures: SiteFigures = { files: 0, bytes: 0, largest: { path: '', bytes: -1 }, fullest: { path: '', files: -1 }, redirectRules: 0, fragmentFiles: 0, messageIndexFiles: 0 };
  const walk = (dir: string) => {
    let here = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const size = statSync(path).size;
        const rel = relative(site, path);
        here++;
        figures.files++;
        if (rel.startsWith('search-index/')) figures.messageIndexFiles++;
        else if (rel.startsWith('pagefind/') && rel.includes('/fragment/')) figures.fragmentFiles++;
        figures.bytes += size;
        if (size > figures.largest.bytes) figures.largest = { path: rel, bytes: size };
      }
    }
    if (here > figures.fullest.files) figures.fullest = { path: `${relative(site, dir)}/`.replace(/^\/$/, './'), files: here };
  };
  walk(site);
  const redirects = join(site, '_redirects');
  if (existsSync(redirects)) figures.redirectRules = redirectRules(readFileSync(redirects, 'utf8')).length;
  return figures;
}

/** 1234567 -> "1.2 MB" (powers of 1,000, as hosts state their limits). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** The summary line: "45,125 files, 291 MB (291,002,123 bytes), largest pagefind/x.pf_index (1.2 MB)". */
export function describeSite(f: SiteFigures): string {
  const largest = f.largest.bytes >= 0 ? `, largest ${f.largest.path} (${formatBytes(f.largest.bytes)})` : '';
  return `${formatCount(f.files)} files, ${formatBytes(f.bytes)} (${formatCount(f.bytes)} bytes)${largest}`;
}
