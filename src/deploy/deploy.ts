/**
 * One deploy of a built site folder to a bucket: read and hash the site, list the bucket under the
 * prefix, read the manifest, plan (plan.ts), then upload the changed files (content-named ones first),
 * write the manifest, and only when every upload succeeded remove what the site no longer has (but
 * the content-named files it replaced, kept a while: plan.ts). A failed upload stops the deploy
 * before any removal and is reported; the manifest then records the uploads that did succeed, so the
 * next deploy does not send them again. --dry-run stops after the plan and writes nothing.
 */
import { readFileSync } from 'node:fs';
import { decodeManifest, encodeManifest, entryFor, MANIFEST_KEY, type Manifest } from './manifest.ts';
import { type DeployPlan, planDeploy, type RemoteObject } from './plan.ts';
import { readSite, type SiteFile } from './site-files.ts';
import { describeStoreError, type ObjectStore } from './store.ts';

export interface DeployOptions {
  /** The built site folder. */
  site: string;
  /** Key prefix in the bucket: '' or ending in '/'. */
  prefix: string;
  /** The site's base path ('' or '/sub'), which the `_headers` patterns carry. */
  basePath: string;
  dryRun: boolean;
  /** How long content-named files the site replaced stay in the bucket (0: removed at once). */
  keepOldAssetsMs: number;
  /** The deploy's time (ms since 1970). */
  now: number;
  /** Uploads at a time. */
  concurrency: number;
  log: (line: string) => void;
}

export interface Counts {
  files: number;
  bytes: number;
}

export interface DeployReport {
  dryRun: boolean;
  uploaded: Counts;
  unchanged: Counts;
  deleted: Counts;
  /** Content-named files the site replaced, kept for now. */
  kept: Counts;
  failed: Array<{ key: string; reason: string }>;
  /** Header names of `_headers` rules that objects cannot carry. */
  notStored: string[];
  notes: string[];
  plan: DeployPlan;
}

/** A deploy that cannot start: the site folder or the bucket's state is not what it must be. */
export class DeployError extends Error {}

const count = (items: ReadonlyArray<{ size: number }>): Counts => ({ files: items.length, bytes: items.reduce((n, i) => n + i.size, 0) });

/** Runs `task` on every item, `limit` at a time; resolves when all have ended. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function deploy(store: ObjectStore, options: DeployOptions): Promise<DeployReport> {
  const { prefix, log } = options;
  const site = readSite(options.site, options.basePath);
  if (site.files.length === 0) throw new DeployError(`${options.site} holds no files: build the site first (npm run build)`);
  if (site.files.some((f) => f.key === MANIFEST_KEY)) throw new DeployError(`the site has a file named ${MANIFEST_KEY}, the deploy's own manifest key`);
  const notes: string[] = [];
  if (!site.hasHeadersFile) notes.push(`${options.site} has no _headers file: every object gets only its Content-Type and the default Cache-Control.`);
  for (const problem of site.problems) notes.push(`_headers ${problem} (ignored)`);

  const remote: RemoteObject[] = (await store.list(prefix)).map((o) => ({ ...o, key: o.key.slice(prefix.length) }));
  let manifest: Manifest | null = null;
  const manifestBytes = await store.get(prefix + MANIFEST_KEY);
  if (manifestBytes) {
    const read = decodeManifest(manifestBytes);
    if ('error' in read) notes.push(`the bucket's manifest ${prefix}${MANIFEST_KEY} is unreadable (${read.error}): every file is uploaded.`);
    else manifest = read.manifest;
  } else if (remote.length > 0) {
    notes.push(`no manifest ${prefix}${MANIFEST_KEY} in the bucket: every file is uploaded (once).`);
  }

  const plan = planDeploy(site.files, remote, manifest, { keepMs: options.keepOldAssetsMs, now: options.now });
  for (const folder of plan.otherDeploys) notes.push(`${prefix}${folder} holds another deploy (its own manifest): its objects are left alone.`);
  const upload = [...plan.uploadFirst, ...plan.uploadThen];
  const report: DeployReport = {
    dryRun: options.dryRun,
    uploaded: count(upload),
    unchanged: count(plan.unchanged),
    deleted: count(plan.remove),
    kept: count(plan.kept.map((k) => k.object)),
    failed: [],
    notStored: site.notStored,
    notes,
    plan,
  };
  if (options.dryRun) return report;

  const next: Manifest = new Map();
  for (const f of plan.unchanged) next.set(f.key, manifest!.get(f.key)!);
  for (const { object, retiredAt } of plan.kept) next.set(object.key, { ...manifest!.get(object.key)!, retiredAt });
  const sent: SiteFile[] = [];
  const wave = async (files: SiteFile[], what: string) => {
    if (files.length === 0) return;
    const c = count(files);
    log(`uploading ${c.files} ${what} (${c.bytes} bytes)`);
    // A first upload of a large site takes a while: a line per tenth, past a thousand files.
    const step = Math.max(1000, Math.ceil(files.length / 10));
    let done = 0;
    await pool(files, options.concurrency, async (f) => {
      try {
        const etag = await store.put(prefix + f.key, readFileSync(f.path), f.headers, f.md5);
        next.set(f.key, entryFor(f.sha256, etag, f.headers));
        sent.push(f);
      } catch (e) {
        report.failed.push({ key: prefix + f.key, reason: describeStoreError(e) });
      }
      if (++done % step === 0 && done < files.length) log(`  ${done} of ${files.length}`);
    });
  };
  await wave(plan.uploadFirst, 'content-named files');
  // Pages name the content-named files: none is sent while one of those is missing.
  if (report.failed.length === 0) await wave(plan.uploadThen, 'files');
  else if (plan.uploadThen.length > 0) notes.push(`${plan.uploadThen.length} other changed files were not sent: content-named files they may name failed.`);
  report.uploaded = count(sent);

  const encoded = encodeManifest(next);
  if (!manifestBytes || !Buffer.from(encoded).equals(Buffer.from(manifestBytes)))
    await store.put(prefix + MANIFEST_KEY, encoded, { contentType: 'application/gzip', cacheControl: 'no-store' });

  if (report.failed.length > 0) {
    report.deleted = { files: 0, bytes: 0 };
    notes.push(`${plan.remove.length} objects the site no longer has were kept: uploads failed, and nothing is removed until all are in.`);
    return report;
  }
  if (plan.remove.length > 0) {
    log(`removing ${plan.remove.length} objects the site no longer has`);
    let failed: Array<{ key: string; reason: string }>;
    try {
      failed = await store.remove(plan.remove.map((o) => prefix + o.key));
    } catch (e) {
      const reason = describeStoreError(e);
      failed = plan.remove.map((o) => ({ key: prefix + o.key, reason }));
    }
    report.failed.push(...failed);
    const gone = new Set(failed.map((f) => f.key));
    report.deleted = count(plan.remove.filter((o) => !gone.has(prefix + o.key)));
  }
  return report;
}
