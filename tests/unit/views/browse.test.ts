import { describe, expect, it } from 'vitest';
import { classProblems } from '../../../src/catalog/classes.ts';
import { markdownLink, relatedReasonText } from '../../../src/views/error-view.ts';
import { jsonLdText } from '../../../src/views/metadata.ts';
import { paginateBySize } from '../../../src/util/paginate.ts';
import { redirectsFile } from '../../../src/views/redirects.ts';
import { planSitemaps, urlsetXml } from '../../../src/views/sitemap.ts';
import { findBrokenLinks } from '../../support/link-check.ts';

describe('classes.json', () => {
  it('places every problem on its line and keeps the sound classes', () => {
    const text = [
      '[',
      '  {"id": "ok", "title": "T", "summary": "S", "explanation": "E"},',
      '  {"id": "ok", "title": "T", "summary": "S", "explanation": "E"},',
      '  {"id": "Bad Id", "title": " ", "summary": "S", "explanation": "E", "extra": 1},',
      '  {"id": "short", "title": "T"}',
      ']',
    ].join('\n');
    const { classes, problems } = classProblems(text, 'classes.json');
    expect(classes.map((c) => c.id)).toEqual(['ok']);
    expect(problems.map((p) => `${p.line} ${p.field} ${p.message}`)).toEqual([
      '3 1.id duplicates class id "ok" of class 0 (line 2)',
      '4 2.id must be lowercase kebab case, e.g. "protocol-handshake"',
      '4 2.title must not be empty or only white space',
      '4 2.extra is not a field of a failure class (id, title, summary, explanation)',
      '5 3.summary is missing; expected string',
      '5 3.explanation is missing; expected string',
    ]);
  });

  it('names a syntax error and a wrong top-level shape', () => {
    expect(classProblems('[\n{"id": }', 'c.json').problems[0]).toMatchObject({ line: 2, field: '(file)' });
    expect(classProblems('{"id": "x"}', 'c.json').problems[0]!.message).toMatch(/must be an array/);
  });
});

describe('paginateBySize', () => {
  it('fills pages up to the budget, keeps order, and gives an oversized item its own page', () => {
    expect(paginateBySize([3, 3, 3, 9, 1, 1], (n) => n, 6)).toEqual([[3, 3], [3], [9], [1, 1]]);
    expect(paginateBySize([2, 2, 2, 2], (n) => n, 4, 2)).toEqual([[2], [2, 2], [2]]);
    expect(paginateBySize([], (n: number) => n, 4)).toEqual([[]]);
  });
});

describe('sitemaps', () => {
  const site = [{ path: '/' }, { path: '/classes/' }];
  const repos = new Map([
    ['a/x', [{ path: '/a/x/' }, { path: '/a/x/e1/', lastmod: '2026-01-01' }]],
    ['b/y', [{ path: '/b/y/' }, { path: '/b/y/e1/' }, { path: '/b/y/e2/' }]],
  ]);

  it('is one file up to the limit', () => {
    const plan = planSitemaps(site, repos, 7);
    expect(plan.root.kind).toBe('urlset');
    expect(plan.files).toEqual([]);
  });

  it('splits per repository past the limit, and splits again a repository past it', () => {
    const plan = planSitemaps(site, repos, 2);
    expect(plan.root).toEqual({ kind: 'index', sitemaps: ['/sitemap-site.xml', '/a/x/sitemap.xml', '/b/y/sitemap.xml', '/b/y/sitemap-2.xml'] });
    expect(plan.files.at(-1)!.urls).toEqual([{ path: '/b/y/e2/' }]);
  });

  it('writes absolute, escaped URLs', () => {
    expect(urlsetXml([{ path: '/a&b/', lastmod: '2026-01-01' }])).toContain('<url><loc>https://errdex.dev/a&amp;b/</loc><lastmod>2026-01-01</lastmod></url>');
  });
});

describe('citing helpers', () => {
  it('makes a Markdown link whose text renders exactly as the message', () => {
    expect(markdownLink({ errorClass: 'ValueError', errorMessage: '{type(self).__name__} got [x] *y* <z>' }, 'https://e.dev/e/1/')).toBe(
      '[ValueError: {type(self).\\_\\_name\\_\\_} got \\[x\\] \\*y\\* \\<z\\>](https://e.dev/e/1/)',
    );
  });

  it('says why a related error is listed', () => {
    const none = { sameFile: false, lineDistance: null, sameDirectory: false, sameClass: false, sharedTags: [], wording: 0, sameRepo: true };
    expect(relatedReasonText({ ...none, sameFile: true, lineDistance: 1, sameClass: true })).toBe('same file, 1 line away · same failure class');
    expect(relatedReasonText({ ...none, sameDirectory: true, sharedTags: ['a', 'b'], wording: 0.4 })).toBe('same directory · shared tags a, b · similar message');
  });

  it('keeps JSON-LD inside its script element', () => {
    expect(jsonLdText({ t: '</script><script>alert(1)</script>' })).not.toContain('<');
    expect(JSON.parse(jsonLdText({ t: '</script>' }))).toEqual({ t: '</script>' });
  });

  it('writes _redirects lines under the base path, old slugs first', () => {
    const text = redirectsFile([{ from: '/o/r/old/', to: '/o/r/new/' }], [{ from: '/e/1/', to: '/o/r/new/' }], '/sub');
    const lines = text.split('\n').filter((l) => !l.startsWith('#') && l);
    expect(lines).toEqual(['/sub/o/r/old/ /sub/o/r/new/ 301', '/sub/e/1/ /sub/o/r/new/ 301']);
  });
});

describe('the link checker', () => {
  const site = (pages: Record<string, string>, other: string[] = []) => ({
    files: new Set([...Object.keys(pages), ...other]),
    pages: new Map(Object.entries(pages)),
    basePath: '/sub',
    siteOrigin: 'https://errdex.dev',
  });

  it('finds links to missing files and anchors, links outside the base path, and broken canonical URLs', () => {
    const broken = findBrokenLinks(
      site(
        {
          'index.html': '<a href="/sub/a/">ok</a><a href="/sub/missing/">x</a><a href="/a/">no base</a><a href="/sub/a/#here">ok</a><a href="/sub/a/#nowhere">x</a><a href="https://other.dev/x">ext</a><link rel="stylesheet" href="/sub/_astro/s.css">',
          'a/index.html': '<h2 id="here">H</h2><meta property="og:url" content="https://errdex.dev/sub/b/"><meta http-equiv="refresh" content="0; url=/sub/c/">',
        },
        ['_astro/s.css'],
      ),
    );
    expect(broken.map((b) => `${b.page} ${b.href}`)).toEqual([
      'a/index.html https://errdex.dev/sub/b/',
      'a/index.html /sub/c/',
      'index.html /sub/missing/',
      'index.html /a/',
      'index.html /sub/a/#nowhere',
    ]);
  });
});
