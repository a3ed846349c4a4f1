/**
 * The list-index stage, in a child process (it needs the validated catalog, not the pages): the filter
 * index (src/views/list-index.ts) of each listing of more than one page (repositories, failure classes,
 * tags), which the listing's filter fetches instead of its other pages: `list-index/{listing}/index.json`
 * and, in a folder named by a hash of their bytes (so a browser may keep them), the gzipped word, row
 * and quick-filter files. The head is fetched each time. Into a folder of its own, merged into the site
 * by publish.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { formatCount } from '../progress.ts';
import { childMain, startStageChild } from '../protocol.ts';
import type { StageContext } from '../pipeline.ts';
import type { BuildState } from '../state.ts';

interface ListIndexOptions {
  /** The validated catalog (src/catalog/snapshot.ts) and its head (the failure classes). */
  snapshot: string;
  head: string;
  /** The files go here, to be merged into the site. */
  outDir: string;
}

export interface ListIndexResult {
  listings: number;
  records: number;
  files: number;
  bytes: number;
  /** Gzipped bytes of the largest listing's files together. */
  largestBytes: number;
}

async function listIndexes(options: ListIndexOptions): Promise<ListIndexResult> {
  // What only the child needs is loaded here, not where the build imports this module (src/build/protocol.ts).
  const [{ readHead, readSnapshot }, { browseListings }, { hasListIndex, listIndex, listIndexFiles }, { repoListing, repoFacets }, { classListing, tagListing }, { listIndexPath }] =
    await Promise.all([
      import('../../catalog/snapshot.ts'),
      import('../../catalog/derive/index.ts'),
      import('../../views/list-index.ts'),
      import('../../views/repo-listing.ts'),
      import('../../views/collection-listing.ts'),
      import('../../util/urls.ts'),
    ]);
  const { classes } = readHead(options.head);
  const entries = readSnapshot(options.snapshot, { text: false, code: () => false, prose: () => false });
  const b = browseListings(entries, classes);
  const titles = new Map(classes.map((c) => [c.id, c.title]));
  type Index = ReturnType<typeof listIndex>;
  const jobs: { path: string; make: () => Index }[] = [];
  for (const s of b.repos) {
    const l = repoListing(s);
    if (hasListIndex(l)) jobs.push({ path: l.pages[0]!.path, make: () => listIndex('repo', s.entries.map((e) => e.record), titles, repoFacets(s)) });
  }
  for (const s of b.classes) {
    const l = classListing(s);
    if (hasListIndex(l)) jobs.push({ path: l.pages[0]!.path, make: () => listIndex('class', s.entries.map((e) => e.record), titles) });
  }
  for (const s of b.tags) {
    const l = tagListing(s);
    if (hasListIndex(l)) jobs.push({ path: l.pages[0]!.path, make: () => listIndex('tag', s.entries.map((e) => e.record), titles) });
  }

  rmSync(options.outDir, { recursive: true, force: true });
  // Publish merges this folder even when no listing has several pages.
  mkdirSync(options.outDir, { recursive: true });
  const result: ListIndexResult = { listings: jobs.length, records: 0, files: 0, bytes: 0, largestBytes: 0 };
  for (const job of jobs) {
    const { head, files } = listIndexFiles(job.make());
    const gzipped = files.map((f) => ({ name: f.name, gz: gzipSync(f.json, { level: 9 }) }));
    const hash = createHash('sha256');
    for (const f of gzipped) hash.update(f.name).update(f.gz);
    const dir = hash.digest('hex').slice(0, 12);
    const headFile = join(options.outDir, listIndexPath(job.path));
    mkdirSync(join(headFile, '..', dir), { recursive: true });
    let bytes = 0;
    for (const f of gzipped) {
      writeFileSync(join(headFile, '..', dir, f.name), f.gz);
      bytes += f.gz.length;
    }
    const headJson = JSON.stringify({ ...head, dir });
    writeFileSync(headFile, headJson);
    result.records += head.total;
    result.files += gzipped.length + 1;
    result.bytes += bytes + headJson.length;
    result.largestBytes = Math.max(result.largestBytes, bytes + headJson.length);
  }
  return result;
}

export async function listIndexStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const options: ListIndexOptions = { snapshot: s.snapshot, head: s.head, outDir: s.dirs.listIndex };
  const priority = s.plan.stages.find((st) => st.name === 'list-index')!.priority;
  const child = startStageChild<ListIndexResult>(import.meta.url, options, () => {}, 'the list-index stage', { priority });
  ctx.onCancel(child.kill);
  const r = await child.result;
  s.board.stage('list-index').end({
    summary: `filter indexes of ${formatCount(r.listings)} listings, the largest ${formatCount(Math.round(r.largestBytes / 1024))} KB`,
    items: r.records,
    unit: 'rows',
    output: { files: r.files, bytes: r.bytes },
  });
}

childMain(import.meta.url, listIndexes);
