/**
 * The list-index stage, in a child process (it needs the validated catalog, not the pages): each
 * repository's filter index (src/views/list-index.ts), `list-index/{owner}/{repo}/index.json` and its
 * gzipped shards, which the repository page's filter fetches instead of the listing's other pages.
 * Shard names carry a hash of their bytes, so a browser may keep them; the head is fetched each time.
 * Into a folder of its own, merged into the site by publish.
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
  /** The validated catalog (src/catalog/snapshot.ts). */
  snapshot: string;
  /** The files go here, to be merged into the site. */
  outDir: string;
}

export interface ListIndexResult {
  repos: number;
  records: number;
  files: number;
  bytes: number;
  /** Gzipped bytes of the largest repository's shards together. */
  largestRepoBytes: number;
}

async function listIndex(options: ListIndexOptions): Promise<ListIndexResult> {
  // What only the child needs is loaded here, not where the build imports this module (src/build/protocol.ts).
  const [{ readSnapshot }, { compareDirectoryOrder }, { LIST_INDEX_VERSION, listIndexShards }, { listIndexPath }] = await Promise.all([
    import('../../catalog/snapshot.ts'),
    import('../../catalog/derive/index.ts'),
    import('../../views/list-index.ts'),
    import('../../util/urls.ts'),
  ]);
  const entries = readSnapshot(options.snapshot, { text: false, code: () => false });
  const byRepo = new Map<string, typeof entries>();
  for (const e of entries) {
    let list = byRepo.get(e.record.repo);
    if (!list) byRepo.set(e.record.repo, (list = []));
    list.push(e);
  }
  rmSync(options.outDir, { recursive: true, force: true });
  const result: ListIndexResult = { repos: byRepo.size, records: entries.length, files: 0, bytes: 0, largestRepoBytes: 0 };
  for (const [repo, list] of byRepo) {
    list.sort(compareDirectoryOrder);
    const headFile = join(options.outDir, listIndexPath(repo));
    const dir = join(headFile, '..');
    mkdirSync(dir, { recursive: true });
    let repoBytes = 0;
    const shards = listIndexShards(list.map((e) => e.record)).map((shard, i) => {
      const gz = gzipSync(JSON.stringify(shard), { level: 9 });
      const file = `${i + 1}-${createHash('sha256').update(gz).digest('hex').slice(0, 10)}.json.gz`;
      writeFileSync(join(dir, file), gz);
      repoBytes += gz.length;
      return { file, rows: shard.rows.length, bytes: gz.length };
    });
    const head = JSON.stringify({ v: LIST_INDEX_VERSION, total: list.length, shards });
    writeFileSync(headFile, head);
    result.files += shards.length + 1;
    result.bytes += repoBytes + head.length;
    result.largestRepoBytes = Math.max(result.largestRepoBytes, repoBytes);
  }
  return result;
}

export async function listIndexStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const options: ListIndexOptions = { snapshot: s.snapshot, outDir: s.dirs.listIndex };
  const priority = s.plan.stages.find((st) => st.name === 'list-index')!.priority;
  const child = startStageChild<ListIndexResult>(import.meta.url, options, () => {}, 'the list-index stage', { priority });
  ctx.onCancel(child.kill);
  const r = await child.result;
  s.board.stage('list-index').end({
    summary: `filter indexes of ${formatCount(r.repos)} repositories, the largest ${formatCount(Math.round(r.largestRepoBytes / 1024))} KB`,
    items: r.records,
    unit: 'records',
    output: { files: r.files, bytes: r.bytes },
  });
}

childMain(import.meta.url, listIndex);
