/**
 * The `_headers` file (Netlify and Cloudflare Pages format: a path pattern, then indented
 * `Name: value` lines) for hosts that read one; other hosts serve it as a plain file. Every page
 * already carries its Content-Security-Policy in a <meta> tag; the header adds what only a header can
 * (`frame-ancestors`). Files whose names are a hash of their content (Astro's `_astro/`, Pagefind's
 * fragments, index and filter chunks, the message index's shard folders) are cached for good.
 *
 * Pages get no Cache-Control of ours: both hosts' default is already short (revalidate on every
 * request), and a `/*` rule would be merged into the immutable rules' value (Cloudflare Pages joins
 * the headers of every matching rule; Netlify rejects Cloudflare's `! Header` detach lines).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY_HEADER } from '../util/csp.ts';
import { MESSAGE_INDEX_PATH, withBase } from '../util/urls.ts';
import { SHARD_DIR } from '../search/message-index.ts';
import { PAGEFIND_DIR, PART_DIR } from './pagefind-bundle.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Folders of a built site whose files are all named by a hash of their content, as site paths. */
export function hashedFolders(site: string): string[] {
  const folders = ['/_astro/'];
  // In the order of their bits (the order of errdex-parts.json), not the folder's, which differs between file systems.
  const parts = existsSync(join(site, PAGEFIND_DIR)) ? readdirSync(join(site, PAGEFIND_DIR)).filter((n) => PART_DIR.test(n)).sort() : [];
  const pagefindParts = [PAGEFIND_DIR, ...parts.map((n) => `${PAGEFIND_DIR}/${n}`)];
  for (const part of pagefindParts) for (const chunk of ['fragment', 'index', 'filter']) if (existsSync(join(site, part, chunk))) folders.push(`/${part}/${chunk}/`);
  // The message index's shards live in folders named by their content hash; its manifest does not.
  if (existsSync(join(site, MESSAGE_INDEX_PATH, SHARD_DIR))) folders.push(`${MESSAGE_INDEX_PATH}${SHARD_DIR}/`);
  return folders;
}

/** The text of `_headers` for the site in `site` (its hashed folders are listed), below `base`. */
export function headersFile(site: string, base?: string): string {
  const lines = [
    '# errdex: HTTP headers for hosts that read _headers (Netlify, Cloudflare Pages). Written by the build.',
    withBase('/*', base),
    `  Content-Security-Policy: ${CONTENT_SECURITY_POLICY_HEADER}`,
    '  X-Content-Type-Options: nosniff',
    '  Referrer-Policy: strict-origin-when-cross-origin',
    '# Named by a hash of their content: cached for good.',
  ];
  for (const folder of hashedFolders(site)) lines.push(withBase(`${folder}*`, base), `  Cache-Control: ${IMMUTABLE}`);
  return `${lines.join('\n')}\n`;
}
