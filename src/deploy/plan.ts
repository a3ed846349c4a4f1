/**
 * What a deploy does, decided from the site's files, the bucket's listing and the manifest, before
 * anything is written (and all that --dry-run does). A file is unchanged when the bucket holds its key
 * with the ETag the manifest recorded, and the manifest's SHA-256 and headers are the file's own;
 * every other file is uploaded. Objects under the prefix that the site no longer has are removed, but
 * only after every upload succeeded, except those of another deploy below the prefix (a folder holding
 * its own manifest: a preview deployed under the site's prefix). Uploads come in two waves: files named by their content (cached
 * for good) first, then the pages and indexes that refer to them, so a page is never served before
 * the assets it names.
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
  /** Folders below the prefix that hold another deploy (its manifest), whose objects are left alone. */
  otherDeploys: string[];
}

/** An ETag as compared: without the quotes stores put around it. */
export const bareEtag = (etag: string): string => etag.replace(/^W\//, '').replace(/^"|"$/g, '');

const contentNamed = (f: SiteFile): boolean => /\bimmutable\b/.test(f.headers.cacheControl);

export function planDeploy(files: readonly SiteFile[], remote: readonly RemoteObject[], manifest: Manifest | null): DeployPlan {
  const stored = new Map(remote.map((o) => [o.key, o]));
  const plan: DeployPlan = { uploadFirst: [], uploadThen: [], unchanged: [], remove: [], otherDeploys: [] };
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
  plan.remove = remote.filter((o) => ours(o.key) && !keys.has(o.key));
  return plan;
}
