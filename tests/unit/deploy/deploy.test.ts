/**
 * deploy() against a local S3-compatible server over real HTTP (tests/support/s3-server.ts): what a
 * first deploy stores and with which headers, that an unchanged site sends nothing, that a changed
 * record sends only its files, that removals come after every upload, that --dry-run writes nothing,
 * and that a failed upload removes nothing. The server's own request log is the witness, not the
 * deploy's report. Skipped, saying why, only when the server cannot start.
 */
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { IMMUTABLE } from '../../../src/build/headers.ts';
import { type DeployOptions, deploy } from '../../../src/deploy/deploy.ts';
import { MANIFEST_KEY } from '../../../src/deploy/manifest.ts';
import { DEFAULT_CACHE_CONTROL } from '../../../src/deploy/object-headers.ts';
import { type ObjectStore, s3Store, type StoreSettings } from '../../../src/deploy/store.ts';
import { deployedKeys, RECORD_PAGE, RECORD_TWIN, SITE_FILES, writeSite } from '../../support/deploy-site.ts';
import { type LocalS3, type Recorded, S3RVER_KEY, startLocalS3 } from '../../support/s3-server.ts';

const DAY = 86_400_000;
let s3: LocalS3 | null = null;
let unavailable = '';
const dirs: string[] = [];

beforeAll(async () => {
  try {
    s3 = await startLocalS3(['site', 'other']);
  } catch (e) {
    unavailable = `the local S3 server (s3rver) did not start: ${e instanceof Error ? e.message : String(e)}`;
    console.warn(`deploy tests skipped: ${unavailable}`);
  }
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function need(ctx: TestContext): LocalS3 {
  if (!s3) ctx.skip(unavailable);
  return s3!;
}

const settings = (server: LocalS3, bucket: string): StoreSettings => ({
  bucket,
  region: 'us-east-1',
  endpoint: server.endpoint,
  credentials: { accessKeyId: S3RVER_KEY.AWS_ACCESS_KEY_ID, secretAccessKey: S3RVER_KEY.AWS_SECRET_ACCESS_KEY },
});

function newSite(files: Record<string, string> = SITE_FILES): string {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-deploy-site-'));
  dirs.push(dir);
  writeSite(dir, '', files);
  return dir;
}

/** Deploys and returns the report with the requests the server saw during that deploy. */
async function run(server: LocalS3, site: string, bucket: string, more: Partial<DeployOptions> = {}, store?: ObjectStore) {
  const from = server.requests.length;
  const s = store ?? s3Store(settings(server, bucket));
  try {
    const report = await deploy(s, {
      site,
      prefix: '',
      basePath: '',
      dryRun: false,
      keepOldAssetsMs: DAY,
      now: Date.now(),
      concurrency: 4,
      log: () => {},
      ...more,
    });
    return { report, requests: server.requests.slice(from) };
  } finally {
    if (!store) s.close();
  }
}

const writes = (requests: Recorded[]) => requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
/** Keys of the PUT requests, without the manifest's. */
const putKeys = (requests: Recorded[], bucket: string) =>
  requests
    .filter((r) => r.method === 'PUT')
    .map((r) => decodeURIComponent(new URL(r.url, 'http://x').pathname.slice(bucket.length + 2)))
    .filter((k) => !k.endsWith(MANIFEST_KEY))
    .sort();

/** A client of the test's own, to look at the bucket and to write to it behind the deploy's back. */
const testClient = (server: LocalS3): S3Client =>
  new S3Client({
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY.AWS_ACCESS_KEY_ID, secretAccessKey: S3RVER_KEY.AWS_SECRET_ACCESS_KEY },
  });

async function head(server: LocalS3, bucket: string, key: string) {
  const client = testClient(server);
  try {
    return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  } catch (e) {
    if ((e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
    throw e;
  } finally {
    client.destroy();
  }
}

describe('deploy to an S3-compatible server', () => {
  it('uploads every file with its Content-Type and Cache-Control, then nothing when the site is unchanged', async (ctx) => {
    const server = need(ctx);
    const site = newSite();
    const first = await run(server, site, 'site');
    expect(putKeys(first.requests, 'site')).toEqual(deployedKeys());
    expect(first.report.uploaded.files).toBe(deployedKeys().length);
    expect(first.report.uploaded.bytes).toBe(deployedKeys().reduce((n, k) => n + Buffer.byteLength(SITE_FILES[k]!), 0));
    // The host files are read, not served.
    expect(await head(server, 'site', '_headers')).toBeNull();
    expect(await head(server, 'site', '_redirects')).toBeNull();

    const expected: Array<[string, string, string]> = [
      ['index.html', 'text/html; charset=utf-8', DEFAULT_CACHE_CONTROL],
      [RECORD_PAGE, 'text/html; charset=utf-8', DEFAULT_CACHE_CONTROL],
      [RECORD_TWIN, 'application/json; charset=utf-8', DEFAULT_CACHE_CONTROL],
      ['_astro/site.Bq3x9.css', 'text/css; charset=utf-8', IMMUTABLE],
      ['_astro/search.Cw81k.js', 'text/javascript; charset=utf-8', IMMUTABLE],
      ['pagefind/fragment/en_4f2a1c.pf_fragment', 'application/octet-stream', IMMUTABLE],
      ['pagefind/pagefind-entry.json', 'application/json; charset=utf-8', DEFAULT_CACHE_CONTROL],
      ['search-index/shards/a1b2c3d4/0.json', 'application/json; charset=utf-8', IMMUTABLE],
      ['search-index/manifest.json', 'application/json; charset=utf-8', DEFAULT_CACHE_CONTROL],
      ['list-index/acme/ledger/words-f.gz', 'application/gzip', DEFAULT_CACHE_CONTROL],
      ['sitemap.xml', 'application/xml; charset=utf-8', DEFAULT_CACHE_CONTROL],
      ['favicon.svg', 'image/svg+xml', DEFAULT_CACHE_CONTROL],
    ];
    for (const [key, type, cache] of expected) {
      const object = await head(server, 'site', key);
      expect({ key, type: object?.ContentType, cache: object?.CacheControl }).toEqual({ key, type, cache });
    }
    // The rest of _headers cannot be stored on an object: named for the CDN.
    expect(first.report.notStored).toEqual(['Content-Security-Policy', 'Referrer-Policy', 'X-Content-Type-Options']);

    const second = await run(server, site, 'site');
    expect(writes(second.requests)).toEqual([]);
    expect(second.report.uploaded.files).toBe(0);
    expect(second.report.unchanged.files).toBe(deployedKeys().length);
  });

  it('sends only a changed record page and its JSON twin, and removes a page that left only after every upload', async (ctx) => {
    const server = need(ctx);
    const site = newSite();
    await run(server, site, 'other');
    writeFileSync(join(site, RECORD_PAGE), '<!doctype html><title>Frame lost</title><p>Now with a second solution.');
    writeFileSync(join(site, RECORD_TWIN), '{"id":"3333000000000001","message":"frame lost","solutions":2}');
    rmSync(join(site, 'acme/ledger/queue-full-333300'), { recursive: true });
    rmSync(join(site, 'api/errors/3333000000000002.json'));

    const { report, requests } = await run(server, site, 'other');
    expect(putKeys(requests, 'other')).toEqual([RECORD_TWIN, RECORD_PAGE].sort());
    expect(report.uploaded.files).toBe(2);
    expect(report.deleted.files).toBe(2);
    expect(await head(server, 'other', 'acme/ledger/queue-full-333300/index.html')).toBeNull();
    expect(await head(server, 'other', 'api/errors/3333000000000002.json')).toBeNull();
    expect((await head(server, 'other', RECORD_PAGE))?.ContentLength).toBe(
      Buffer.byteLength('<!doctype html><title>Frame lost</title><p>Now with a second solution.'),
    );

    const removals = requests.filter((r) => r.method === 'DELETE' || (r.method === 'POST' && r.url.includes('delete')));
    const uploads = requests.filter((r) => r.method === 'PUT');
    expect(removals.length).toBeGreaterThan(0);
    expect(Math.min(...removals.map((r) => r.arrived))).toBeGreaterThan(Math.max(...uploads.map((r) => r.ended)));
  });

  it('writes nothing with dryRun, and says what it would do', async (ctx) => {
    const server = need(ctx);
    const site = newSite();
    await run(server, site, 'site', { prefix: 'dry/' });
    writeFileSync(join(site, RECORD_TWIN), '{"id":"3333000000000001","changed":true}');
    rmSync(join(site, 'favicon.svg'));

    const { report, requests } = await run(server, site, 'site', { prefix: 'dry/', dryRun: true });
    expect(writes(requests)).toEqual([]);
    expect([...report.plan.uploadFirst, ...report.plan.uploadThen].map((f) => f.key)).toEqual([RECORD_TWIN]);
    expect(report.plan.remove.map((o) => o.key)).toEqual(['favicon.svg']);
    expect(await head(server, 'site', 'dry/favicon.svg')).not.toBeNull();
    expect((await head(server, 'site', `dry/${RECORD_TWIN}`))?.ContentLength).toBe(Buffer.byteLength(SITE_FILES[RECORD_TWIN]!));
  });

  it('keeps a deploy under a prefix to its prefix, and leaves another deploy below it alone', async (ctx) => {
    const server = need(ctx);
    const site = newSite();
    await run(server, site, 'site', { prefix: 'a/' });
    const small = newSite({ 'index.html': '<p>b' });
    const { report } = await run(server, small, 'site', { prefix: 'b/' });
    expect(report.deleted.files).toBe(0);
    expect(await head(server, 'site', 'a/index.html')).not.toBeNull();
    expect(await head(server, 'site', 'b/index.html')).not.toBeNull();
    // And within its prefix it removes what left: a/ now deployed with the small site.
    const again = await run(server, small, 'site', { prefix: 'a/', keepOldAssetsMs: 0 });
    expect(again.report.deleted.files).toBe(deployedKeys().length - 1);
    expect(await head(server, 'site', 'b/index.html')).not.toBeNull();
    // A deploy below the prefix (a preview under a/preview/) is another site's: left alone.
    await run(server, small, 'site', { prefix: 'a/preview/' });
    const outer = await run(server, newSite(), 'site', { prefix: 'a/' });
    expect(outer.report.deleted.files).toBe(0);
    expect(outer.report.notes).toContain('a/preview/ holds another deploy (its own manifest): its objects are left alone.');
    expect(await head(server, 'site', 'a/preview/index.html')).not.toBeNull();
  });

  it('uploads again a file whose headers changed, or whose object something else replaced', async (ctx) => {
    const server = need(ctx);
    const site = newSite();
    await run(server, site, 'site', { prefix: 'h/' });
    // The same bytes, but _headers now names sitemap.xml immutable (a rule the build does not write).
    writeFileSync(join(site, '_headers'), `/sitemap.xml\n  Cache-Control: ${IMMUTABLE}\n`);
    const client = testClient(server);
    await client.send(new PutObjectCommand({ Bucket: 'site', Key: 'h/favicon.svg', Body: '<svg/>', ContentType: 'image/svg+xml' }));
    client.destroy();

    const { requests } = await run(server, site, 'site', { prefix: 'h/' });
    const sent = putKeys(requests, 'site').map((k) => k.slice(2));
    expect(sent).toContain('sitemap.xml');
    expect(sent).toContain('favicon.svg');
    expect((await head(server, 'site', 'h/sitemap.xml'))?.CacheControl).toBe(IMMUTABLE);
    expect((await head(server, 'site', 'h/favicon.svg'))?.ContentLength).toBe(Buffer.byteLength(SITE_FILES['favicon.svg']!));
  });

  it('keeps a content-named file the site replaced for the time given, then removes it; a page goes at once', async (ctx) => {
    const server = need(ctx);
    const site = newSite();
    const t = Date.UTC(2026, 11, 1);
    await run(server, site, 'site', { prefix: 'k/', now: t });
    rmSync(join(site, '_astro/site.Bq3x9.css'));
    writeFileSync(join(site, '_astro/site.Dz7y2.css'), 'body{margin:2px}');
    rmSync(join(site, 'sitemap.xml'));

    const replaced = await run(server, site, 'site', { prefix: 'k/', now: t + 1000 });
    expect(replaced.report.kept.files).toBe(1);
    expect(replaced.report.plan.remove.map((o) => o.key)).toEqual(['sitemap.xml']);
    expect(await head(server, 'site', 'k/_astro/site.Bq3x9.css')).not.toBeNull();
    expect(await head(server, 'site', 'k/sitemap.xml')).toBeNull();
    // Still kept a day less a second after it left, and nothing to write.
    const later = await run(server, site, 'site', { prefix: 'k/', now: t + DAY });
    expect(later.report.kept.files).toBe(1);
    expect(writes(later.requests)).toEqual([]);
    const after = await run(server, site, 'site', { prefix: 'k/', now: t + 1000 + DAY });
    expect(after.report.kept.files).toBe(0);
    expect(after.report.deleted.files).toBe(1);
    expect(await head(server, 'site', 'k/_astro/site.Bq3x9.css')).toBeNull();
  });

  it('reads a listing of more than one page (1,000 keys): a second deploy of 1,100 files sends nothing', async (ctx) => {
    const server = need(ctx);
    // Folders and files whose names sort differently by path and by bytes, as in a built site.
    const many: Record<string, string> = { 'api/errors.json': '[]', 'search/index.html': '<p>s', 'search-index/manifest.json': '{}' };
    for (let i = 0; i < 1097; i++)
      many[i % 2 ? `api/errors/${String(i).padStart(16, '0')}.json` : `e/${String(i).padStart(16, '0')}/index.html`] = `{"id":${i}}`;
    const site = newSite(many);
    const said: string[] = [];
    const first = await run(server, site, 'site', { prefix: 'many/', concurrency: 16, log: (line) => said.push(line) });
    expect(first.report.uploaded.files).toBe(1100);
    const bytes = Object.values(many).reduce((n, text) => n + Buffer.byteLength(text), 0);
    expect(said).toEqual([`uploading 1100 files (${bytes} bytes)`, '  1000 of 1100']);
    const second = await run(server, site, 'site', { prefix: 'many/' });
    expect(second.requests.filter((r) => r.method === 'GET' && r.url.includes('list-type=2')).length).toBe(2);
    expect(writes(second.requests)).toEqual([]);
    expect(second.report.unchanged.files).toBe(1100);
  });

  it('removes nothing when an upload fails, sends no page while a content-named file is missing, and names what a refused removal left', async (ctx) => {
    const server = need(ctx);
    const site = newSite();
    await run(server, site, 'site', { prefix: 'f/' });
    writeFileSync(join(site, '_astro/site.Bq3x9.css'), 'body{margin:1px}');
    writeFileSync(join(site, 'index.html'), '<!doctype html><title>errdex, changed</title>');
    rmSync(join(site, 'sitemap.xml'));

    const real = s3Store(settings(server, 'site'));
    const failing: ObjectStore = {
      ...real,
      put: (key, body, headers, md5) => (key.endsWith('.css') ? Promise.reject(new Error('connection reset')) : real.put(key, body, headers, md5)),
    };
    const { report, requests } = await run(server, site, 'site', { prefix: 'f/' }, failing);
    expect(report.failed).toEqual([{ key: 'f/_astro/site.Bq3x9.css', reason: 'connection reset' }]);
    expect(report.deleted.files).toBe(0);
    expect(requests.filter((r) => r.method === 'DELETE' || r.method === 'POST')).toEqual([]);
    expect(putKeys(requests, 'site')).toEqual([]);
    expect(await head(server, 'site', 'f/sitemap.xml')).not.toBeNull();

    // A store that refuses the removal: every object is named with its reason, and stays.
    const refusing: ObjectStore = { ...real, remove: () => Promise.reject(new Error('AccessDenied (HTTP 403): no')) };
    writeFileSync(join(site, 'extra.html'), '<p>extra');
    await run(server, site, 'site', { prefix: 'r/' });
    rmSync(join(site, 'extra.html'));
    const refused = await run(server, site, 'site', { prefix: 'r/' }, refusing);
    expect(refused.report.failed).toEqual([{ key: 'r/extra.html', reason: 'AccessDenied (HTTP 403): no' }]);
    expect(refused.report.deleted.files).toBe(0);
    expect(await head(server, 'site', 'r/extra.html')).not.toBeNull();
    real.close();

    // The next deploy, with the store working again, sends both and then removes.
    const next = await run(server, site, 'site', { prefix: 'f/' });
    expect(putKeys(next.requests, 'site')).toEqual(['f/_astro/site.Bq3x9.css', 'f/index.html']);
    expect(next.report.deleted.files).toBe(1);
  });
});
