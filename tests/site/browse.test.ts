import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSite } from '../support/link-check.ts';
import { LIST_PAGE_LIMIT } from '../../src/util/paginate.ts';
import { SHORT_LINK_TEMPLATE_ID } from '../../src/views/short-link.ts';
import { BIG_REPO, bigRepoCatalog } from '../support/big-repo.ts';
import { FIXTURES, buildSite, listFiles, readText, type BuiltSite } from '../support/site.ts';

const SITE_URL = 'https://errdex.example';
const LOCK = 'acme/widgets/widget-store-locked-222200';
const PP = 'vllm-project/vllm/received-pp-rank-0-handshake-metadata-but-does-not-support-pp-disaggregated-kv-transfer-0a6c72';

const page = (site: BuiltSite, path: string) => readText(join(site.dist, path, 'index.html'));
const attr = (html: string, re: RegExp) => re.exec(html)?.[1];

describe.each([
  { name: 'at the root', base: '' },
  { name: 'under a base path', base: '/sub' },
])('the browse fixture built $name', ({ base }) => {
  let site: BuiltSite;
  beforeAll(() => {
    site = buildSite(`browse${base.replace('/', '-')}`, join(FIXTURES, 'browse'), { env: { ERRDEX_BASE_PATH: base, ERRDEX_SITE_URL: SITE_URL } });
    expect(site.status, site.stderr + site.stdout).toBe(0);
  });

  it('has no broken internal link, anchor or canonical URL', () => {
    const broken = checkSite(site.dist, { basePath: base, siteOrigin: SITE_URL });
    expect(broken).toEqual([]);
    // The checker is not vacuous: the site has many internal links to check.
    const hrefs = listFiles(site.dist).filter((f) => f.endsWith('.html')).reduce((n, f) => n + (readText(join(site.dist, f)).match(/href="\//g)?.length ?? 0), 0);
    expect(hrefs).toBeGreaterThan(200);
  });

  it('writes every browse page', () => {
    const files = listFiles(site.dist);
    for (const f of [
      'index.html', '404.html', 'robots.txt', 'sitemap.xml', '_redirects',
      'vllm-project/vllm/index.html', 'acme/widgets/index.html', 'acme/gadgets/index.html',
      'classes/index.html', 'classes/protocol-mismatch/index.html', 'classes/version-skew/index.html',
      'tags/index.html', 'tags/store/index.html', 'e/2222000000000001/index.html',
      'api/errors.json', 'api/repos.json', 'api/manifest.json',
    ]) expect(files).toContain(f);
  });

  it('puts the search box first on the home page, then counts, repositories, classes and recent errors', () => {
    const html = page(site, '');
    const main = html.slice(html.indexOf('<main'));
    const order = ['role="search"', '7</strong> errors', '3</strong> repositories', 'id="repositories"', 'id="classes"', 'id="recent"'].map((s) => main.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(main).toContain(`action="${base}/search/"`);
  });

  it('lists a repository by directory and file, with severity and class', () => {
    const html = page(site, 'acme/widgets');
    expect(html).toContain('id="in-lib/codec"');
    expect(html).toContain('id="in-lib/store"');
    expect(html.match(/class="error-row"/g)).toHaveLength(3);
    expect(html).toContain('<code>lock.wl</code>');
    expect(html).toContain('severity-critical');
    expect(html).toContain(`href="${base}/classes/version-skew/">Version skew between components</a>`);
    expect(html).toContain('data-list-filter');
  });

  it('explains a failure class and lists its errors; each error page links to its class', () => {
    const cls = page(site, 'classes/protocol-mismatch');
    expect(cls).toContain('What goes wrong');
    expect(cls.match(/class="error-row"/g)).toHaveLength(2);
    expect(page(site, PP)).toContain(`href="${base}/classes/unsupported-configuration/"`);
  });

  it('links related errors by real relatedness only', () => {
    const related = page(site, LOCK).split('id="related"')[1]!.split('</section>')[0]!;
    expect(related).toContain('widget-store-lock-timeout-222200');
    expect(related).toContain('same file, 12 lines away');
    expect(related).not.toContain('gadget');
    // Seed 003 has no truly related error in this catalog: no section rather than filler.
    expect(page(site, PP)).not.toContain('id="related"');
  });

  it('gives each error page its short link, copy buttons and a prefilled report link', () => {
    const html = page(site, LOCK);
    expect(html).toContain(`<a href="${base}/e/2222000000000001/" data-short-link>${SITE_URL}${base}/e/2222000000000001/</a>`);
    expect(html).toContain('data-copy="widget store %s is locked by another writer"');
    expect(html).toContain(`data-copy="[StoreError: widget store %s is locked by another writer](${SITE_URL}${base}/e/2222000000000001/)"`);
    const report = new URL(attr(html, /href="([^"]*)"[^>]*data-report-link/)!.replace(/&amp;/g, '&'));
    expect(report.origin + report.pathname).toBe('https://github.com/errdex/catalog/issues/new');
    expect(report.searchParams.get('title')).toContain('2222000000000001');
    expect(report.searchParams.get('body')).toContain(`${SITE_URL}${base}/${LOCK}/`);
    expect(report.searchParams.get('body')).toContain('widget store %s is locked by another writer');
    for (const id of ['meaning', 'source', 'solutions', 'related', 'failure-class']) expect(html).toMatch(new RegExp(`id="${id}"[^]*?href="#${id}" data-copy-link`));
  });

  it('redirects short links with a static page and a _redirects file', () => {
    const html = page(site, 'e/2222000000000001');
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${base}/${LOCK}/">`);
    expect(html).toContain(`<link rel="canonical" href="${SITE_URL}${base}/${LOCK}/">`);
    expect(html).toContain('<meta name="robots" content="noindex">');
    // Written from the one template page Astro rendered (src/views/short-link.ts), which is not published:
    // it carries the target's own title, so a shared short link unfurls as the error.
    const target = page(site, LOCK);
    const title = /<title>([^<]+)<\/title>/.exec(target)![1]!;
    expect(title).toMatch(/ — acme\/widgets$/);
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`<meta property="og:title" content="${title}">`);
    expect(html).toContain(`<a href="${base}/${LOCK}/">`);
    const files = listFiles(site.dist);
    const twins = files.filter((f) => f.startsWith('api/errors/'));
    expect(twins.length).toBeGreaterThan(0);
    for (const twin of twins) expect(files).toContain(`e/${twin.slice('api/errors/'.length, -'.json'.length)}/index.html`);
    expect(files.some((f) => f.includes(SHORT_LINK_TEMPLATE_ID))).toBe(false);
    expect(readText(join(site.dist, '_redirects'))).toContain(`${base}/e/2222000000000001/ ${base}/${LOCK}/ 301`);
  });

  it('describes each page for search engines and link previews', () => {
    const html = page(site, PP);
    expect(html).toContain(`<link rel="canonical" href="${SITE_URL}${base}/${PP}/">`);
    expect(html).toContain('<meta property="og:type" content="article">');
    expect(html).toContain('<meta name="twitter:card" content="summary">');
    const description = attr(html, /<meta name="description" content="([^"]*)"/)!;
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description).toMatch(/\w…$/);
    const ld = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    expect(ld.map((x) => x['@type'])).toEqual(['TechArticle', 'BreadcrumbList']);
    expect(ld[1].itemListElement.map((i: { item: string }) => i.item)).toEqual([`${SITE_URL}${base}/`, `${SITE_URL}${base}/vllm-project/vllm/`, `${SITE_URL}${base}/${PP}/`]);
  });

  it('publishes a sitemap, robots.txt, the api files and a manifest whose checksums match', () => {
    const sitemap = readText(join(site.dist, 'sitemap.xml'));
    expect(sitemap).toContain(`<loc>${SITE_URL}${base}/${PP}/</loc>`);
    expect(sitemap).toContain(`<loc>${SITE_URL}${base}/acme/widgets/</loc>`);
    expect(sitemap.match(/<url>/g)).toHaveLength(1 + 1 + 3 + 1 + 9 + 3 + 7); // home, classes, 3 classes, tags, 9 tags, 3 repos, 7 errors
    expect(sitemap).not.toContain('/e/');
    expect(readText(join(site.dist, 'robots.txt'))).toContain(`Sitemap: ${SITE_URL}${base}/sitemap.xml`);
    const index = JSON.parse(readText(join(site.dist, 'api/errors.json')));
    expect(index.count).toBe(7);
    expect(index.errors[0]).toHaveLength(index.fields.length);
    const repos = JSON.parse(readText(join(site.dist, 'api/repos.json')));
    expect(repos.repos.map((r: { repo: string }) => r.repo)).toEqual(['acme/gadgets', 'acme/widgets', 'vllm-project/vllm']);
    const manifest = JSON.parse(readText(join(site.dist, 'api/manifest.json')));
    expect(manifest.counts).toMatchObject({ errors: 7, repositories: 3, failureClasses: 3 });
    for (const [file, info] of Object.entries(manifest.files) as [string, { bytes: number; sha256: string }][]) {
      const bytes = readFileSync(join(site.dist, file));
      expect(info.bytes).toBe(statSync(join(site.dist, file)).size);
      expect(info.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    // The twins' checksum: every JSON twin in id order, each followed by a newline.
    const twins = readdirSync(join(site.dist, 'api/errors')).sort();
    expect(twins).toHaveLength(7);
    const all = createHash('sha256');
    for (const t of twins) all.update(readFileSync(join(site.dist, 'api/errors', t))).update('\n');
    expect(manifest.twins).toMatchObject({ count: 7, sha256: all.digest('hex') });
  });

  it('offers the search box on the 404 page', () => {
    const html = readText(join(site.dist, '404.html'));
    expect(html).toContain('Page not found');
    expect(html).toContain(`<form class="search-box paste-search" role="search" action="${base}/search/"`);
    expect(html).toContain('<textarea id="not-found-search" name="q"');
  });
});

describe('a repository of 600 errors', () => {
  let site: BuiltSite;
  beforeAll(() => {
    site = buildSite('big-repo', bigRepoCatalog('big-repo-600', 600));
    expect(site.status, site.stderr + site.stdout).toBe(0);
  });

  it(`is split into listing pages of at most ${LIST_PAGE_LIMIT / 1000} KB that hold every error once`, () => {
    const files = listFiles(site.dist).filter((f) => f === `${BIG_REPO}/index.html` || f.startsWith(`${BIG_REPO}/page/`));
    expect(files.length).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    for (const f of files) {
      expect(statSync(join(site.dist, f)).size).toBeLessThanOrEqual(LIST_PAGE_LIMIT);
      const html = readText(join(site.dist, f));
      seen.push(...[...html.matchAll(/<a class="row-message" href="([^"]+)"/g)].map((m) => m[1]!));
    }
    expect(seen).toHaveLength(600);
    expect(new Set(seen).size).toBe(600);
    expect(checkSite(site.dist, { siteOrigin: 'https://errdex.dev' })).toEqual([]);
  });
});
