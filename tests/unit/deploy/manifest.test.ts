/** manifest: a round trip, and every unreadable form refused with its reason. */
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeManifest, encodeManifest, entryFor, type Manifest } from '../../../src/deploy/manifest.ts';

describe('the deploy manifest', () => {
  it('reads back what it wrote, header sets stored once', () => {
    const page = { contentType: 'text/html; charset=utf-8', cacheControl: 'public, max-age=0, must-revalidate' };
    const manifest: Manifest = new Map([
      ['b/index.html', entryFor('b'.repeat(64), '"etag-b"', page)],
      ['a/index.html', entryFor('a'.repeat(64), '"etag-a"', page)],
      ['_astro/x.css', entryFor('c'.repeat(64), 'etag-c', { contentType: 'text/css; charset=utf-8', cacheControl: 'immutable' })],
      [
        '_astro/old.css',
        { ...entryFor('d'.repeat(64), 'etag-d', { contentType: 'text/css; charset=utf-8', cacheControl: 'immutable' }), retiredAt: 1_764_000_000_000 },
      ],
    ]);
    const bytes = encodeManifest(manifest);
    const read = decodeManifest(bytes);
    expect('manifest' in read && read.manifest).toEqual(manifest);
    expect(JSON.parse(gunzipSync(bytes).toString('utf8')).headers).toHaveLength(2);
    // The same manifest encodes to the same bytes whatever its order: an unchanged deploy writes none.
    expect(Buffer.from(encodeManifest(new Map([...manifest].reverse()))).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses what is not its manifest', () => {
    expect(decodeManifest(Buffer.from('plain'))).toEqual({ error: expect.stringMatching(/^not gzipped JSON/) });
    expect(decodeManifest(gzipSync('{"format":"other","headers":[],"objects":{}}'))).toEqual({ error: 'not an errdex-s3-deploy/1 manifest' });
    expect(decodeManifest(gzipSync('null'))).toEqual({ error: 'not an errdex-s3-deploy/1 manifest' });
    expect(decodeManifest(gzipSync('{"format":"errdex-s3-deploy/1","headers":["h"],"objects":{"k":["s","e",3]}}'))).toEqual({
      error: 'entry "k" is malformed',
    });
    expect(decodeManifest(gzipSync('{"format":"errdex-s3-deploy/1","headers":["h"],"objects":{"k":["s","e",0,"soon"]}}'))).toEqual({
      error: 'entry "k" is malformed',
    });
  });
});
