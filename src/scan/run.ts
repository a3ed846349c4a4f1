/**
 * `npm run scan`: scan a commit, merge with an earlier catalog when asked, write the wrapped records
 * as one `.jsonl` file, and bring the earlier catalog's URL ledger and classes along so the next
 * build keeps its old URLs working.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { catalogReport, loadCatalog } from '../catalog/catalog.ts';
import { LEDGER_FILE } from '../catalog/ledger.ts';
import { catalogFolder } from '../catalog/load.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { carryHistory, history, historyLines, revisionAt, type HistoryResult, type Revision } from './history.ts';
import { mergeRecords, mergeReportLines, type MergeReport } from './merge.ts';
import { summaryLines } from './report.ts';
import { scan, type ScanSummary } from './scan.ts';

export interface RunOptions {
  dir: string;
  rev?: string;
  repo?: string;
  /** A folder (the file is `{owner}-{name}.jsonl` inside) or a `.jsonl` file. */
  out: string;
  merge?: string;
  log: (line: string) => void;
  progress?: (done: number, total: number) => void;
}

export interface RunResult {
  file: string;
  records: ErrorRecord[];
  summary: ScanSummary;
  merge: MergeReport | null;
}

export function outputFile(out: string, repo: string): string {
  return out.endsWith('.jsonl') ? resolve(out) : join(resolve(out), `${repo.replace('/', '-')}.jsonl`);
}

type Previous = { entries: { record: ErrorRecord; text: string; file: string }[]; folder: string };

/** The earlier catalog of `--merge`, read first: a broken one stops the scan before anything is written. */
function readPrevious(merge: string | undefined): Previous | null {
  if (!merge) return null;
  const catalog = loadCatalog(resolve(merge));
  if (catalog.problems.length > 0) throw new Error(`--merge ${merge}: the catalog has problems:\n${catalogReport(catalog)}`);
  const entries = catalog.entries.map((e) => ({ record: e.record, text: e.sourceText, file: resolve(e.origin.file) }));
  return { entries, folder: catalogFolder(resolve(merge)) };
}

export async function runScan(o: RunOptions): Promise<RunResult> {
  const previous = readPrevious(o.merge);
  const result = await scan({ dir: o.dir, rev: o.rev, repo: o.repo, onProgress: o.progress });
  const { summary } = result;
  for (const line of summaryLines(summary)) o.log(line);
  return { ...writeCatalog(o, summary.repo, result.records, result.analyzedAt, previous, () => revisionAt(o.dir, summary.sha)), summary };
}

export interface HistoryRunResult {
  file: string;
  records: ErrorRecord[];
  merge: MergeReport | null;
  history: HistoryResult;
}

/**
 * `--history <spec> --out <catalog>`: the catalog of the last revision plus the sites removed on
 * the way, each record with its history, merged with `--merge` as a plain scan is. Its dataset
 * version is the last revision's date, as a scan's is its commit's.
 */
export async function runHistory(o: Omit<RunOptions, 'rev' | 'progress'> & { spec: string; onRevision?: (r: Revision, i: number, n: number) => void }): Promise<HistoryRunResult> {
  const previous = readPrevious(o.merge);
  const h = await history({ dir: o.dir, spec: o.spec, repo: o.repo, onRevision: o.onRevision });
  for (const line of historyLines(h)) o.log(line);
  return { ...writeCatalog(o, h.repo, h.records, h.revisions.at(-1)!.date, previous), history: h };
}

/** `revision`: the scanned commit, for a plain scan: the earlier catalog's histories go on there (history.ts `carryHistory`). */
function writeCatalog(o: Pick<RunOptions, 'out' | 'merge' | 'log'>, repo: string, scanned: ErrorRecord[], datasetVersion: string, previous: Previous | null, revision?: () => Revision): Omit<RunResult, 'summary'> {
  const file = outputFile(o.out, repo);
  let records = scanned;
  let merge: MergeReport | null = null;
  // Lines of the file being replaced that hold other repositories' records: written back as they were.
  let others: string[] = [];
  if (previous) {
    const mine = previous.entries.filter((e) => e.record.repo === repo);
    const elsewhere = [...new Set(mine.filter((e) => e.file !== file && dirname(e.file) === dirname(file)).map((e) => e.file))];
    if (elsewhere.length > 0) {
      throw new Error(`--merge ${o.merge}: records of ${repo} are also in ${elsewhere.join(', ')}, beside the output ${file}: the catalog would hold them twice. Write to that file (--out ${elsewhere[0]}).`);
    }
    others = previous.entries.filter((e) => e.record.repo !== repo && e.file === file).map((e) => e.text);
    const merged = mergeRecords(records, mine.map((e) => e.record));
    records = merged.records;
    merge = merged.report;
    for (const line of mergeReportLines(merge)) o.log(line);
    if (revision && mine.some((e) => e.record.history)) {
      const at = revision();
      records = carryHistory(records, mine.map((e) => e.record), merge.gone, at);
      o.log(`merge: histories carried on to ${at.name}; ${merge.gone.filter((g) => g.history).length} gone sites kept, marked removed.`);
    }
    if (others.length > 0) o.log(`merge: ${others.length} records of other repositories in ${file} written back as they were.`);
  }

  mkdirSync(dirname(file), { recursive: true });
  const lines = [...others, ...records.map((r) => JSON.stringify({ record: r, datasetVersion }))];
  writeFileSync(file, lines.join('\n') + (lines.length ? '\n' : ''));
  o.log(`wrote ${lines.length} records to ${file}`);

  if (previous) {
    const folder = dirname(file);
    for (const name of [LEDGER_FILE, 'classes.json']) {
      const from = join(previous.folder, name);
      const to = join(folder, name);
      if (existsSync(from) && resolve(from) !== resolve(to)) {
        copyFileSync(from, to);
        o.log(`copied ${basename(from)} from ${previous.folder}: the build keeps the old URLs (gone records get a notice, moved ones a redirect).`);
      }
    }
  }
  return { file, records, merge };
}
