/**
 * The deploy manifest: one object in the bucket, beside the site, recording for each key the SHA-256
 * of the bytes uploaded, the ETag the store answered, and the headers the object was stored with (and,
 * for a content-named file the site no longer has but the bucket keeps a while, since when). An
 * ETag is the MD5 of the bytes only for single-part uploads without KMS or customer-key encryption, and
 * a listing does not show an object's headers; the manifest makes the comparison the same on every
 * store and sees a change of headers alone. The listing's ETag is still compared with the recorded one,
 * so an object replaced by anything else is uploaded again. Gzipped JSON: at 1.27 million keys it is a
 * fraction of the listing's own bytes.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { headersKey, type ObjectHeaders } from './object-headers.ts';

export const MANIFEST_KEY = '.errdex-deploy-manifest.json.gz';
const FORMAT = 'errdex-s3-deploy/1';

export interface ManifestEntry {
  sha256: string;
  etag: string;
  /** headersKey() of the headers the object was stored with. */
  headers: string;
  /** When a deploy first found the file gone from the site (ms since 1970), for a file kept a while. */
  retiredAt?: number;
}

export type Manifest = Map<string, ManifestEntry>;

interface ManifestFile {
  format: string;
  /** Each distinct header set once; entries name it by index. */
  headers: string[];
  objects: Record<string, [sha256: string, etag: string, headers: number, retiredAt?: number]>;
}

export function encodeManifest(manifest: Manifest): Uint8Array {
  const headerSets: string[] = [];
  const index = new Map<string, number>();
  const objects: ManifestFile['objects'] = {};
  for (const key of [...manifest.keys()].sort()) {
    const e = manifest.get(key)!;
    let h = index.get(e.headers);
    if (h === undefined) index.set(e.headers, (h = headerSets.push(e.headers) - 1));
    objects[key] = e.retiredAt === undefined ? [e.sha256, e.etag, h] : [e.sha256, e.etag, h, e.retiredAt];
  }
  const file: ManifestFile = { format: FORMAT, headers: headerSets, objects };
  return gzipSync(JSON.stringify(file));
}

/** The manifest in `bytes`, or why it cannot be read (then every file is uploaded, as on a first deploy). */
export function decodeManifest(bytes: Uint8Array): { manifest: Manifest } | { error: string } {
  let file: unknown;
  try {
    file = JSON.parse(gunzipSync(bytes).toString('utf8'));
  } catch (e) {
    return { error: `not gzipped JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const f = file as Partial<ManifestFile> | null;
  if (!f || f.format !== FORMAT || !Array.isArray(f.headers) || typeof f.objects !== 'object' || f.objects === null) {
    return { error: `not an ${FORMAT} manifest` };
  }
  const manifest: Manifest = new Map();
  for (const [key, entry] of Object.entries(f.objects)) {
    const headers = Array.isArray(entry) ? f.headers[entry[2]] : undefined;
    const retiredAt = Array.isArray(entry) ? entry[3] : undefined;
    if (
      !Array.isArray(entry) ||
      typeof entry[0] !== 'string' ||
      typeof entry[1] !== 'string' ||
      typeof headers !== 'string' ||
      (retiredAt !== undefined && !Number.isFinite(retiredAt))
    ) {
      return { error: `entry ${JSON.stringify(key)} is malformed` };
    }
    manifest.set(key, retiredAt === undefined ? { sha256: entry[0], etag: entry[1], headers } : { sha256: entry[0], etag: entry[1], headers, retiredAt });
  }
  return { manifest };
}

export const entryFor = (sha256: string, etag: string, headers: ObjectHeaders): ManifestEntry => ({ sha256, etag, headers: headersKey(headers) });
