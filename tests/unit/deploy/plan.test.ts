/** plan: unchanged only when the bucket, the manifest and the file agree; what is removed; the two waves. */
import { describe, expect, it } from 'vitest';
import { entryFor, MANIFEST_KEY, type Manifest } from '../../../src/deploy/manifest.ts';
import { DEFAULT_CACHE_CONTROL } from '../../../src/deploy/object-headers.ts';
import { planDeploy, type RemoteObject } from '../../../src/deploy/plan.ts';
import type { SiteFile } from '../../../src/deploy/site-files.ts';

const file = (key: string, sha256: string, cacheControl = DEFAULT_CACHE_CONTROL, size = 10): SiteFile => ({
  key,
  path: `/site/${key}`,
  size,
  sha256,
  md5: 'x',
  headers: { contentType: 'text/html; charset=utf-8', cacheControl },
});
const page = file('index.html', 's1');
const asset = file('_astro/a.css', 's2', 'public, max-age=31536000, immutable');
const remote: RemoteObject[] = [
  { key: 'index.html', etag: '"e1"', size: 10 },
  { key: '_astro/a.css', etag: '"e2"', size: 10 },
  { key: 'old/index.html', etag: '"e3"', size: 5 },
  { key: MANIFEST_KEY, etag: '"m"', size: 100 },
];
const manifest = (): Manifest =>
  new Map([
    ['index.html', entryFor('s1', 'e1', page.headers)],
    ['_astro/a.css', entryFor('s2', '"e2"', asset.headers)],
    ['old/index.html', entryFor('s3', 'e3', page.headers)],
  ]);
const keys = (files: SiteFile[]) => files.map((f) => f.key);

describe('planDeploy', () => {
  it('keeps what agrees (quotes aside), removes what left but the manifest object', () => {
    const plan = planDeploy([page, asset], remote, manifest());
    expect(keys(plan.unchanged)).toEqual(['index.html', '_astro/a.css']);
    expect([...plan.uploadFirst, ...plan.uploadThen]).toEqual([]);
    expect(plan.remove.map((o) => o.key)).toEqual(['old/index.html']);
  });

  it('leaves alone the objects of another deploy below the prefix', () => {
    const nested = [
      ...remote,
      { key: `preview/${MANIFEST_KEY}`, etag: '"p"', size: 9 },
      { key: 'preview/index.html', etag: '"q"', size: 3 },
      { key: 'previews.html', etag: '"r"', size: 3 },
    ];
    const plan = planDeploy([page, asset], nested, manifest());
    expect(plan.otherDeploys).toEqual(['preview/']);
    expect(plan.remove.map((o) => o.key)).toEqual(['old/index.html', 'previews.html']);
  });

  it('keeps a content-named file the site replaced until keepMs after the deploy that found it gone', () => {
    const gone = { key: '_astro/old.css', etag: '"e4"', size: 3 };
    const m = manifest();
    m.set('_astro/old.css', entryFor('s4', 'e4', asset.headers));
    const at = (now: number, mm: Manifest = m) => planDeploy([page, asset], [...remote, gone], mm, { keepMs: 1000, now });
    expect(at(5000).kept).toEqual([{ object: gone, retiredAt: 5000 }]);
    expect(at(5000).remove.map((o) => o.key)).toEqual(['old/index.html']);
    m.set('_astro/old.css', { ...m.get('_astro/old.css')!, retiredAt: 4500 });
    expect(at(5499).kept).toEqual([{ object: gone, retiredAt: 4500 }]);
    expect(at(5500).kept).toEqual([]);
    expect(at(5500).remove.map((o) => o.key)).toEqual(['old/index.html', '_astro/old.css']);
    // Not kept: with keepMs 0, when something else replaced it, or when it was not stored as content-named.
    expect(planDeploy([page, asset], [...remote, gone], m, { keepMs: 0, now: 4600 }).kept).toEqual([]);
    expect(at(4600, m).kept).toHaveLength(1);
    expect(planDeploy([page, asset], [...remote, { ...gone, etag: '"other"' }], m, { keepMs: 1000, now: 4600 }).kept).toEqual([]);
    expect(planDeploy([page, asset], remote, manifest(), { keepMs: 1000, now: 4600 }).remove.map((o) => o.key)).toEqual(['old/index.html']);
  });

  it('uploads everything without a manifest, content-named files in the first wave', () => {
    const plan = planDeploy([page, asset], remote, null);
    expect(keys(plan.uploadFirst)).toEqual(['_astro/a.css']);
    expect(keys(plan.uploadThen)).toEqual(['index.html']);
  });

  it('uploads a file whose bytes, headers, object or size differ from the record', () => {
    const changed = (f: SiteFile, m: Manifest = manifest(), r: RemoteObject[] = remote) => keys(planDeploy([f], r, m).uploadThen);
    expect(changed(file('index.html', 'other'))).toEqual(['index.html']);
    expect(changed(file('index.html', 's1', 'no-cache'))).toEqual(['index.html']);
    expect(
      changed(
        page,
        manifest(),
        remote.filter((o) => o.key !== 'index.html'),
      ),
    ).toEqual(['index.html']);
    expect(changed(page, manifest(), [{ key: 'index.html', etag: '"replaced"', size: 10 }])).toEqual(['index.html']);
    expect(changed(page, manifest(), [{ key: 'index.html', etag: '"e1"', size: 11 }])).toEqual(['index.html']);
    const without = manifest();
    without.delete('index.html');
    expect(changed(page, without)).toEqual(['index.html']);
    expect(changed(page)).toEqual([]);
  });
});
