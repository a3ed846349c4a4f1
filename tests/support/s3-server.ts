/**
 * A local S3-compatible server for the deploy tests: s3rver (an S3 API over the file system, with two
 * fixes below so that it pages a listing as S3 does) behind an HTTP server of ours on 127.0.0.1 with a
 * free port, which records each request as it arrives and as its answer ends, so a test can check what
 * was written, and in which order, over real HTTP. s3rver takes the access key S3RVER (any secret) and
 * refuses others, as a store refuses a wrong key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const S3RVER_KEY = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface Recorded {
  method: string;
  /** Path and query, as sent (`/bucket/key`, `/bucket?delete`). */
  url: string;
  /** Order numbers of the request's arrival and of its answer's end, on one counter. */
  arrived: number;
  ended: number;
  status: number;
}

export interface LocalS3 {
  endpoint: string;
  requests: Recorded[];
  close(): Promise<void>;
}

interface S3rverInstance {
  configureBuckets(): Promise<void>;
  callback(): (req: unknown, res: unknown) => void;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/**
 * s3rver encrypts its listings' continuation tokens with single DES, which OpenSSL 3 keeps in its legacy
 * provider only, so a listing of more than one page fails with InternalError. Triple DES with the key
 * repeated three times is single DES, byte for byte, and is in the default provider: s3rver's DES calls
 * are routed there. Other ciphers are untouched.
 */
function singleDesThroughTripleDes(crypto: typeof import('node:crypto')): void {
  const cipher = crypto.createCipheriv;
  const decipher = crypto.createDecipheriv;
  if ((cipher as { desRouted?: boolean }).desRouted) return;
  const key3 = (key: unknown) => Buffer.concat([key, key, key] as Buffer[]);
  const routed = ((algorithm: string, key: Buffer, iv: Buffer, options?: unknown) =>
    algorithm === 'des'
      ? cipher.call(crypto, 'des-ede3-cbc', key3(key), iv)
      : (cipher as (...a: unknown[]) => unknown).call(crypto, algorithm, key, iv, options)) as typeof crypto.createCipheriv;
  const unrouted = ((algorithm: string, key: Buffer, iv: Buffer, options?: unknown) =>
    algorithm === 'des'
      ? decipher.call(crypto, 'des-ede3-cbc', key3(key), iv)
      : (decipher as (...a: unknown[]) => unknown).call(crypto, algorithm, key, iv, options)) as typeof crypto.createDecipheriv;
  Object.assign(routed, { desRouted: true });
  crypto.createCipheriv = routed;
  crypto.createDecipheriv = unrouted;
}

interface ListedObject {
  key: string;
}
interface Listing {
  objects: ListedObject[];
  commonPrefixes: string[];
  isTruncated: boolean;
}
interface ListOptions {
  delimiter?: string;
  startAfter?: string;
  prefix?: string;
  maxKeys?: number;
}
type ListObjects = (this: unknown, bucket: string, options: ListOptions) => Promise<Listing>;

/**
 * s3rver lists a bucket in the order it walks its folders (`search/index.html` before
 * `search-index/…`), not in S3's order of the keys' bytes, yet starts each page after the last key of
 * the one before: past 1,000 keys of mixed folders, a page repeats some keys and skips others. Listings
 * without a delimiter (the deploy's) are put in S3's order here, then paged.
 */
function listInKeyOrder(store: { prototype: { listObjects: ListObjects } }): void {
  const walkOrder = store.prototype.listObjects;
  if ((walkOrder as { keyOrder?: boolean }).keyOrder) return;
  const keyOrder: ListObjects = async function (this: unknown, bucket, options) {
    if (options.delimiter) return walkOrder.call(this, bucket, options);
    const all = await walkOrder.call(this, bucket, { ...options, startAfter: '', maxKeys: Number.POSITIVE_INFINITY });
    const after = options.startAfter ?? '';
    const sorted = all.objects.filter((o) => o.key > after).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const max = options.maxKeys ?? Number.POSITIVE_INFINITY;
    return { objects: sorted.slice(0, max), commonPrefixes: [], isTruncated: sorted.length > max };
  };
  Object.assign(keyOrder, { keyOrder: true });
  store.prototype.listObjects = keyOrder;
}

/** Starts the server with `buckets` made; throws when it cannot start (the caller says why and skips). */
export async function startLocalS3(buckets: string[]): Promise<LocalS3> {
  const require = createRequire(import.meta.url);
  singleDesThroughTripleDes(require('node:crypto'));
  const S3rver = require('s3rver') as S3rverClass;
  listInKeyOrder(require('s3rver/lib/stores/filesystem'));
  const directory = mkdtempSync(join(tmpdir(), 'errdex-s3rver-'));
  const s3 = new S3rver({ directory, silent: true, configureBuckets: buckets.map((name) => ({ name })) });
  await s3.configureBuckets();
  const handle = s3.callback();
  const requests: Recorded[] = [];
  let clock = 0;
  const server: Server = createServer((req, res) => {
    const entry: Recorded = { method: req.method ?? '', url: req.url ?? '', arrived: ++clock, ended: -1, status: 0 };
    requests.push(entry);
    res.on('finish', () => {
      entry.ended = ++clock;
      entry.status = res.statusCode;
    });
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
