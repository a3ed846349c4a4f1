/**
 * The bucket, through the AWS SDK's S3 client (any S3-compatible endpoint): list the keys under a
 * prefix with their ETags and sizes, read and write an object, remove objects a thousand at a time.
 * Credentials are given, never looked up: the command reads the environment once and passes them here.
 * With an endpoint of its own (R2, MinIO, B2, a local server) the client uses path-style addresses
 * and sends checksums only where the API requires them, which every S3-compatible store accepts.
 */
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { ObjectHeaders } from './object-headers.ts';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface StoreSettings {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (https://…); null for AWS S3 itself. */
  endpoint: string | null;
  credentials: Credentials;
}

export interface StoredObject {
  key: string;
  etag: string;
  size: number;
}

export interface ObjectStore {
  /** Every object whose key starts with `prefix`, with its full key. */
  list(prefix: string): Promise<StoredObject[]>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Stores the bytes with these headers; returns the ETag. `md5`: base64, checked by the store. */
  put(key: string, body: Uint8Array, headers: ObjectHeaders, md5?: string): Promise<string>;
  /** Removes the objects; returns those the store did not remove, with its reason. */
  remove(keys: readonly string[]): Promise<Array<{ key: string; reason: string }>>;
  close(): void;
}

/** "AccessDenied (HTTP 403): Access Denied" for an error of the store, the message for any other. */
export function describeStoreError(e: unknown): string {
  if (e instanceof S3ServiceException) return `${e.name} (HTTP ${e.$metadata.httpStatusCode ?? '?'}): ${e.message}`;
  if (e instanceof Error) {
    const code = (e as Error & { code?: string }).code;
    return code ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}

const DELETE_BATCH = 1000;

export function s3Store(settings: StoreSettings): ObjectStore {
  const client = new S3Client({
    region: settings.region,
    credentials: settings.credentials,
    ...(settings.endpoint
      ? { endpoint: settings.endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  });
  const Bucket = settings.bucket;
  return {
    async list(prefix) {
      const out: StoredObject[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken }));
        for (const o of page.Contents ?? []) if (o.Key !== undefined) out.push({ key: o.Key, etag: o.ETag ?? '', size: o.Size ?? 0 });
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return out;
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
      } catch (e) {
        if (e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.$metadata.httpStatusCode === 404)) return null;
        throw e;
      }
    },
    async put(key, body, h, md5) {
      const answer = await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentMD5: md5,
          ContentType: h.contentType,
          CacheControl: h.cacheControl,
          ContentDisposition: h.contentDisposition,
          ContentEncoding: h.contentEncoding,
          ContentLanguage: h.contentLanguage,
          Expires: h.expires === undefined ? undefined : new Date(h.expires),
        }),
      );
      return answer.ETag ?? '';
    },
    async remove(keys) {
      const failed: Array<{ key: string; reason: string }> = [];
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const batch = keys.slice(i, i + DELETE_BATCH);
        const answer = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        for (const e of answer.Errors ?? []) failed.push({ key: e.Key ?? '?', reason: `${e.Code ?? 'error'}: ${e.Message ?? ''}`.trim() });
      }
      return failed;
    },
    close() {
      client.destroy();
    },
  };
}
