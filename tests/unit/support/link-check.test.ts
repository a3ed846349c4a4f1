import { describe, expect, it } from 'vitest';
import { fileForPath, findBrokenLinks, pageFacts, urlPathOf } from '../../support/link-check.ts';

const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

function site(pages: Record<string, string>, other: string[] = [], options: { basePath?: string; siteOrigin?: string } = {}) {
  return { files: new Set([...Object.keys(pages), ...other]), pages: new Map(Object.entries(pages)), ...options };
}

describe('the internal link check', () => {
  it('maps files to the paths a static host serves them at, and back', () => {
    expect(urlPathOf('index.html')).toBe('/');
    expect(urlPathOf('a/b/index.html')).toBe('/a/b/');
    expect(urlPathOf('api/errors/x.json')).toBe('/api/errors/x.json');
    const files = new Set(['index.html', 'a/index.html', 'x.json']);
    expect(fileForPath('/', files)).toBe('index.html');
    expect(fileForPath('/a/', files)).toBe('a/index.html');
    expect(fileForPath('/a', files)).toBe('a/index.html');
    expect(fileForPath('/x.json', files)).toBe('x.json');
    expect(fileForPath('/b/', files)).toBeNull();
  });

  it('reads links from a, link, script, img and form, and ids as fragment targets', () => {
    const facts = pageFacts(
      page('<a href="/a/">a</a><link rel="stylesheet" href="/s.css"><script src="/j.js"></script><img src="i.png" alt=""><form action="/search/"></form><h2 id="x">x</h2><p title="href=&quot;/no/&quot;">href="/no/"</p>'),
    );
    expect(facts.links).toEqual(['/a/', '/s.css', '/j.js', 'i.png', '/search/']);
    expect([...facts.ids]).toEqual(['x']);
  });

  it('passes a site whose links all resolve, relative, absolute, own-origin and with fragments', () => {
    const result = findBrokenLinks(
      site(
        {
          'index.html': page('<a href="/a/#L3">a</a> <a href="a/">a</a> <a href="https://errdex.dev/x.json">x</a> <a href="#top" id="top">top</a> <a href="https://github.com/o/r">gh</a> <a href="mailto:a@b.c">m</a>'),
          'a/index.html': page('<span id="L3">3</span><a href="../">up</a><a href="/a/%F0%9F%92%A5/">emoji</a>'),
          'a/💥/index.html': page(''),
        },
        ['x.json'],
        { siteOrigin: 'https://errdex.dev' },
      ),
    );
    expect(result).toEqual([]);
  });

  it('names every broken link: missing page, missing fragment, bad encoding, outside the base path', () => {
    const result = findBrokenLinks(
      site(
        {
          'index.html': page('<a href="/sub/missing/">m</a><a href="/sub/a/#nope">f</a><a href="/sub/%E0%A4%A/">e</a><a href="/other/">o</a><a href="/sub/a/#ok">ok</a>'),
          'a/index.html': page('<p id="ok">x</p>'),
        },
        [],
        { basePath: '/sub' },
      ),
    );
    expect(result).toEqual([
      { page: 'index.html', href: '/sub/missing/', path: '/missing/', reason: 'names /missing/, which the site does not have' },
      { page: 'index.html', href: '/sub/a/#nope', path: '/a/', reason: 'names #nope, which /a/ does not have' },
      { page: 'index.html', href: '/sub/%E0%A4%A/', reason: 'has a malformed percent-encoding' },
      { page: 'index.html', href: '/other/', reason: 'leaves the base path /sub' },
    ]);
  });
});
