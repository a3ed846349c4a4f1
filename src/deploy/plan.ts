/**
 * What a deploy does, decided from the site's files, the bucket's listing and the manifest, before
 * anything is written (and all that --dry-run does). A file is unchanged when the bucket holds its key
 * with the ETag the manifest recorded, and the manifest's SHA-256 and headers are the file's own;
 * every other file is uploaded. Objects under the prefix that the site no longer has are removed, but
 * only after every upload succeeded, except those of another deploy below the prefix (a folder holding
 * its own manifest: a preview deployed under the site's prefix), and except content-named files the
 * site replaced, kept for a while since the deploy that first found them gone: a page loaded before
 * that deploy may still ask for the old ones (Pagefind's chunks, the message index's shards).
 * Uploads come in two waves: files named by their content (cached for good) first, then the pages and
 * indexes that refer to them, so a page is never served before the assets it names.
 */
import { MANIFEST_KEY, type Manifest } from './manifest.ts';
import { headersKey } from './object-headers.ts';
import type { SiteFile } from './site-files.ts';

export interface RemoteObject {
  /** Relative to the deploy's prefix. */
  key: string;
  etag: string;
  size: number;
}

export interface DeployPlan {
  /** Files named by their content, uploaded first. */
  uploadFirst: SiteFile[];
  /** The other new or changed files, uploaded once the first wave is in. */
  uploadThen: SiteFile[];
  unchanged: SiteFile[];
  /** Objects the site no longer has, removed last. */
  remove: RemoteObject[];
  /** Content-named files the site no longer has, kept until `keepMs` after `retiredAt`. */
  kept: Array<{ object: RemoteObject; retiredAt: number }>;
  /** Folders below the prefix that hold another deploy (its manifest), whose objects are left alone. */
  otherDeploys: string[];
}

/** An ETag as compared: without the quotes stores put around it. */
export const bareEtag = (etag: string): string => etag.replace(/^W\//, '').replace(/^"|"$/g, '');

const contentNamed = (f: SiteFile): boolean => /\bimmutable\b/.test(f.headers.cacheControl);

/** How long content-named files the site replaced stay (0: removed at once), and the deploy's time. */
export interface KeepOld {
  keepMs: number;
  now: number;
}

export function planDeploy(
  files: readonly SiteFile[],
  remote: readonly RemoteObject[],
  manifest: Manifest | null,
  keep: KeepOld = { keepMs: 0, now: 0 },
): DeployPlan {
  const stored = new Map(remote.map((o) => [o.key, o]));
  const plan: DeployPlan = { uploadFirst: [], uploadThen: [], unchanged: [], remove: [], kept: [], otherDeploys: [] };
  for (const file of files) {
    const object = stored.get(file.key);
    const recorded = manifest?.get(file.key);
    const same =
      object !== undefined &&
      recorded !== undefined &&
      bareEtag(object.etag) === bareEtag(recorded.etag) &&
      object.size === file.size &&
      recorded.sha256 === file.sha256 &&
      recorded.headers === headersKey(file.headers);
    if (same) plan.unchanged.push(file);
    else (contentNamed(file) ? plan.uploadFirst : plan.uploadThen).push(file);
  }
  const keys = new Set(files.map((f) => f.key));
  plan.otherDeploys = remote.filter((o) => o.key.endsWith(`/${MANIFEST_KEY}`)).map((o) => o.key.slice(0, -MANIFEST_KEY.length));
  const ours = (key: string) => key !== MANIFEST_KEY && !plan.otherDeploys.some((folder) => key.startsWith(folder));
  for (const object of remote) {
    if (!ours(object.key) || keys.has(object.key)) continue;
    const recorded = manifest?.get(object.key);
    // Only what this deploy stored as content-named, and still as it stored it.
    if (keep.keepMs > 0 && recorded && /\bimmutable\b/.test(recorded.headers) && bareEtag(recorded.etag) === bareEtag(object.etag)) {
      const retiredAt = recorded.retiredAt ?? keep.now;
      if (keep.now - retiredAt < keep.keepMs) {
        plan.kept.push({ object, retiredAt });
        continue;
      }
    }
    plan.remove.push(object);
  }
  return plan;
}
