import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSite, SiteError } from '../../../src/lookup/site.ts';

/** A fetch answering from a map of URLs, logging each request. */
function fakeFetch(answers: Record<string, { status: number; body: string }>, log: string[]): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = String(input);
    log.push(url);
    const a = answers[url];
    if (!a) throw Object.assign(new TypeError('fetch failed'), { cause: new Error('connect ECONNREFUSED') });
    return new Response(a.body, { status: a.status });
  }) as typeof fetch;
}

describe('openSite over HTTP', () => {
  it('reads below the base path, with or without its trailing slash, and counts the bytes', async () => {
    for (const given of ['https://example.org/errdex', 'https://example.org/errdex/', 'https://example.org/errdex/?x=1#y']) {
      const log: string[] = [];
      const site = await openSite(given, { fetch: fakeFetch({ 'https://example.org/errdex/search-index/manifest.json': { status: 200, body: '{"a":1}' } }, log) });
      expect(site.root).toBe('https://example.org/errdex/');
      expect(await site.readJson('/search-index/manifest.json')).toEqual({ a: 1 });
      expect(log).toEqual(['https://example.org/errdex/search-index/manifest.json']);
      expect(site.reads).toEqual([{ path: '/search-index/manifest.json', bytes: 7 }]);
      expect(site.location('/o/r/slug/')).toBe('https://example.org/errdex/o/r/slug/');
    }
  });

  it('fails with the URL and the reason: an HTTP status, a refused connection, a body that is not JSON', async () => {
    const log: string[] = [];
    const site = await openSite('https://example.org/', {
      fetch: fakeFetch({ 'https://example.org/gone.json': { status: 404, body: 'not found' }, 'https://example.org/page.json': { status: 200, body: '<html>' } }, log),
    });
    await expect(site.readJson('/gone.json')).rejects.toThrow(new SiteError('https://example.org/gone.json: HTTP 404'));
    await expect(site.readJson('/down.json')).rejects.toThrow('cannot fetch https://example.org/down.json: fetch failed (connect ECONNREFUSED)');
    await expect(site.readJson('/page.json')).rejects.toThrow('https://example.org/page.json is not JSON');
  });

  it('gives up on a file that does not come within the timeout', async () => {
    const never = ((_: unknown, init?: RequestInit) =>
      new Promise((_ok, fail) => init?.signal?.addEventListener('abort', () => fail(init.signal!.reason)))) as typeof fetch;
    const site = await openSite('https://example.org/', { fetch: never, timeoutMs: 50 });
    await expect(site.readJson('/search-index/manifest.json')).rejects.toThrow('no answer in 0.05 s');
  });
});

describe('openSite on a folder', () => {
  it("reads files below it and gives a page's index.html", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-site-'));
    try {
      mkdirSync(join(dir, 'search-index'));
      writeFileSync(join(dir, 'search-index/manifest.json'), '{"b":2}');
      const site = await openSite(dir);
      expect(site.kind).toBe('folder');
      expect(await site.readJson('/search-index/manifest.json')).toEqual({ b: 2 });
      expect(site.location('/o/r/slug/')).toBe(join(dir, 'o/r/slug/index.html'));
      await expect(site.readJson('/api/manifest.json')).rejects.toThrow(`cannot read ${join(dir, 'api/manifest.json')}: ENOENT`);
      await expect(openSite(join(dir, 'search-index/manifest.json'))).rejects.toThrow('is not a folder');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
