/**
 * The `_redirects` file (Netlify and Cloudflare Pages format: `from to status` per line) for hosts
 * that read one. The HTML redirect pages stay the source of truth: every host serves them, and
 * hosts with a rule limit (Cloudflare Pages: 2,000) still redirect the rest through them.
 */
import { withBase } from '../util/urls.ts';

export interface Redirect {
  from: string;
  to: string;
}

/**
 * Old URLs first (renamed pages' slugs and message pages now raised in one place: what search engines and
 * old citations hold), then short links; paths get the base path.
 */
export function redirectsFile(oldSlugs: readonly Redirect[], shortLinks: readonly Redirect[], base?: string): string {
  const line = (r: Redirect) => `${withBase(r.from, base)} ${withBase(r.to, base)} 301`;
  return [
    '# errdex: permanent redirects. Every one also exists as an HTML redirect page at its source path.',
    '# Old page URLs: records whose slug changed, message pages whose message one record alone raises now (from url-ledger.json):',
    ...oldSlugs.map(line),
    '# Short links /e/{id}/:',
    ...shortLinks.map(line),
    '',
  ].join('\n');
}
