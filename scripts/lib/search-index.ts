/**
 * The build's "index" stage: writes the search artefacts into the output folder.
 *  - `search-index/`: the paste matcher's sharded message index (src/search/message-index.ts);
 *  - `pagefind/`: Pagefind's full-text index over one small document per error (src/search/pagefind-document.ts).
 * Used by scripts/build.ts and by the search benchmark, so both search the same index.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import type { ErrorRecord } from '../../src/schema/record.ts';
import { buildMessageIndex, type BuiltMessageIndex, type MessageIndexOptions } from '../../src/search/message-index.ts';
import { pagefindDocument } from '../../src/search/pagefind-document.ts';
import { checkFragmentBundles, fragmentFiles, type FragmentFiles } from './pagefind-bundle.ts';

export const MESSAGE_INDEX_DIR = 'search-index';
export const PAGEFIND_DIR = 'pagefind';

export function writeMessageIndex(records: readonly ErrorRecord[], outDir: string, options?: MessageIndexOptions): BuiltMessageIndex {
  const built = buildMessageIndex(records, options);
  const root = join(outDir, MESSAGE_INDEX_DIR);
  rmSync(root, { recursive: true, force: true });
  const dir = join(root, built.manifest.version);
  mkdirSync(dir, { recursive: true });
  built.shards.forEach((text, i) => writeFileSync(join(dir, `${i}.json`), text));
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(built.manifest)}\n`);
  return built;
}

export interface PagefindIndexOptions {
  /** At most this many fragment files (`--max-fragments`): Pagefind bundles the fragments (scripts/lib/pagefind-bundle.ts). */
  maxFragments?: number | undefined;
}

/**
 * Indexes one document per record with Pagefind's Node API and writes the bundle to `<outDir>/pagefind/`.
 * Returns the fragment files written (one per record, or at most `maxFragments` bundles).
 */
export async function writePagefindIndex(
  records: readonly ErrorRecord[],
  outDir: string,
  onProgress?: (done: number) => void,
  options: PagefindIndexOptions = {},
): Promise<FragmentFiles> {
  const { maxFragments } = options;
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en', includeCharacters: '_', ...(maxFragments === undefined ? {} : { maxFragments }) });
  if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
  try {
    const problems: string[] = [];
    const batch = 256;
    for (let i = 0; i < records.length; i += batch) {
      const added = await Promise.all(records.slice(i, i + batch).map((r) => index.addHTMLFile(pagefindDocument(r))));
      for (const a of added) problems.push(...a.errors);
      onProgress?.(Math.min(i + batch, records.length));
    }
    if (problems.length) throw new Error(`Pagefind rejected documents:\n${problems.join('\n')}`);
    const outputPath = join(outDir, PAGEFIND_DIR);
    rmSync(outputPath, { recursive: true, force: true });
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length) throw new Error(`Pagefind could not write its index: ${written.errors.join('; ')}`);
    return maxFragments === undefined ? fragmentFiles(outputPath) : checkFragmentBundles(outputPath, maxFragments, records.length);
  } finally {
    await index.deleteIndex();
    await pagefind.close();
  }
}
