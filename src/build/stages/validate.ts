/**
 * The validate and derive stages, in one child process (the catalog is read once): validate the
 * catalog and write the snapshot of its valid entries (src/catalog/snapshot.ts) that every later
 * stage reads; then derive the related errors, once for all render processes. In a child, because a
 * catalog's memory only goes back to the system when its process ends: the render processes that
 * follow have the machine's memory to themselves.
 *
 * `validate` ends when the snapshot is written, and the build makes its plan again with the valid
 * records' count; `derive` ends with the child, once the related errors are written.
 */
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { linkOrCopy, linkOrCopyAtomic, writeFileAtomic } from '../../util/files.ts';
import { statOf } from '../file-proofs.ts';
import { displayPath } from '../../catalog/load.ts';
import { childMain, partitionsChosen, startStageChild, type BuildMessage, type ChildMessage } from '../protocol.ts';
import { formatCount } from '../progress.ts';
import type { StageContext } from '../pipeline.ts';
import type { RenderPartition } from '../render-processes.ts';
import type { BuildSettings, BuildState, ShardRecords } from '../state.ts';
import type { Shard } from '../../catalog/shard.ts';
import { catalogMemoDir } from '../merge.ts';
import { snapshotPiecesDir, snapshotPieceStore } from '../snapshot-pieces.ts';
import { siteConfig } from '../../../errdex.config.mjs';

interface ValidateOptions {
  catalog: string;
  /** Of records that carry none (settings.datasetVersion). */
  datasetVersion: string;
  skipReport: string | null;
  /** --strict: warnings fail the build like errors. */
  strict: boolean;
  snapshotDir: string;
  snapshot: string;
  head: string;
  related: string;
  /** A shard's build: its records' ids are written to `shardIds` (src/catalog/shard.ts). */
  shard: Shard | null;
  shardIds: string;
  /** Where the build cache keeps what the next build of the same code (`code`) may take as it is (`catalogMemo`), and the snapshot's pieces (`pieces`: src/build/snapshot-pieces.ts); null: no cache. */
  memo: { dir: string; pieces: string; code: string } | null;
}

/**
 * What validation and derive keep in the build cache (`catalog/`): the text hashes of the entries
 * found sound alone (`sound.txt`), and the related errors with the key of what they were made from
 * (`related.jsonl`, `related.key`).
 */
export function catalogMemo(dir: string) {
  return { sound: join(dir, 'sound.txt'), related: join(dir, 'related.jsonl'), relatedKey: join(dir, 'related.key') };
}

/**
 * The entries an earlier build of the same code found sound alone (src/catalog/validate.ts, `known`):
 * its code's key on the first line, then a text hash per line. Another code's, or none: an empty set.
 */
export function readKnown(memo: { file: string; code: string }): Set<string> {
  let text: string;
  try {
    text = readFileSync(memo.file, 'utf8');
  } catch {
    return new Set();
  }
  const lines = text.split('\n');
  return lines[0] === memo.code ? new Set(lines.slice(1).filter((l) => l !== '')) : new Set();
}

export function writeSound(memo: { file: string; code: string }, sound: readonly string[]): void {
  mkdirSync(dirname(memo.file), { recursive: true });
  writeFileAtomic(memo.file, `${memo.code}\n${sound.join('\n')}\n`);
}

/**
 * The related errors kept by a build whose inputs had this key, put at `out`; the number of records
 * that have some, or null when none are kept for this key. The key file names the related errors'
 * own hash and the identity the kept file had (src/build/file-proofs.ts): a kept file with that
 * identity is linked without being read; another is read, and taken only with that hash, so that a
 * half-written or replaced copy is not taken.
 */
export function reusedRelated(memo: { related: string; relatedKey: string }, key: string, out: string): number | null {
  let kept: { key: string; sha1: string; linked: number; stat?: string };
  try {
    kept = JSON.parse(readFileSync(memo.relatedKey, 'utf8')) as typeof kept;
  } catch {
    return null;
  }
  if (kept.key !== key || !existsSync(memo.related)) return null;
  if (kept.stat !== undefined && statOf(memo.related) === kept.stat) {
    linkOrCopy(memo.related, out);
    return kept.linked;
  }
  const bytes = readFileSync(memo.related);
  if (hash('sha1', bytes) !== kept.sha1) return null;
  // A new file, never one written through: `out` may be a link to the kept copy (keepRelated).
  rmSync(out, { force: true });
  writeFileSync(out, bytes);
  return kept.linked;
}

/**
 * Keeps the related errors just written to `from` (whose SHA-1 `writeRelated` gave) for the next build
 * whose inputs have the same key: a hard link, or a copy across file systems, renamed into place, then
 * the key with its identity. Not flushed to disk: a copy torn by a crash fails its hash and is computed again.
 */
export function keepRelated(memo: { related: string; relatedKey: string }, key: string, from: string, kept: { sha1: string; linked: number }): void {
  mkdirSync(dirname(memo.related), { recursive: true });
  linkOrCopyAtomic(from, memo.related);
  writeFileAtomic(memo.relatedKey, JSON.stringify({ key, ...kept, stat: statOf(memo.related) }));
}

interface ValidateResult {
  root: string;
  records: number;
  partitions: RenderPartition[];
  shard: ShardRecords | null;
}

/** The catalog cannot be built: its report is printed; the build stops with this message. */
export class InvalidCatalog extends Error {}

async function validateAndDerive(options: ValidateOptions, send: (m: ChildMessage) => void): Promise<ValidateResult | null> {
  // What only the child needs is loaded here, not where the build imports this module (src/build/protocol.ts).
  const [{ catalogReport, loadCatalog }, { compareProblems, formatProblem }, { ledgerPlanFor }, { relatedErrors, relatedInputsKey }, { writeHead, writeRelated, writeSnapshot }, { twinsSha256 }, { reportFileText, summaryLine }, { addBacktrackingWarnings, readVerdicts, redosFile }] =
    await Promise.all([
      import('../../catalog/catalog.ts'),
      import('../../catalog/problems.ts'),
      import('../../catalog/derive/index.ts'),
      import('../../catalog/derive/related.ts'),
      import('../../catalog/snapshot.ts'),
      import('../../views/api.ts'),
      import('../../catalog/report.ts'),
      import('../../catalog/redos.ts'),
    ]);
  const memo = options.memo && { ...catalogMemo(options.memo.dir), code: options.memo.code };
  const known = memo ? readKnown({ file: memo.sound, code: memo.code }) : null;
  // Lean: the stages after it read the records from the snapshot, so this process keeps of each only
  // what is read across records (its code and prose are in its text).
  const catalog = loadCatalog(options.catalog, { datasetVersion: options.datasetVersion, lean: true, ...(known ? { known } : {}) });
  const sound = catalog.sound ?? [];
  const unchanged = known && known.size > 0 ? sound.filter((h) => known.has(h)).length : 0;
  // Rewritten only when the set changed: a build after an edit of nothing, or of warnings, writes nothing here.
  if (memo && !(unchanged === sound.length && sound.length === known?.size)) writeSound({ file: memo.sound, code: memo.code }, sound);
  // For the JSON API's consumers who run patterns on a backtracking engine (errdex runs them on RE2):
  // the verdicts of the catalog's redos.json, an input like the records (npm run validate -- --redos).
  const redos = addBacktrackingWarnings(catalog, readVerdicts(redosFile(catalog.root)));
  // A broken ledger is never skipped: building past it would forget every URL published so far.
  if (catalog.problems.some((p) => p.file === catalog.ledger.file)) {
    process.stderr.write(`${catalogReport(catalog)}\n\nNothing was built: ${catalog.ledger.file} (the URL ledger) has problems. Restore it from version control.\n`);
    send({ type: 'validated', records: null });
    return null;
  }
  if (options.strict && catalog.warnings.length > 0) {
    process.stderr.write(`${catalogReport(catalog)}\n${summaryLine(catalog)}\n\nNothing was built: --strict makes warnings fail the build.\n`);
    send({ type: 'validated', records: null });
    return null;
  }
  if (catalog.problems.length > 0) {
    if (!options.skipReport) {
      process.stderr.write(`${catalogReport(catalog)}\n${summaryLine(catalog)}\n`);
      send({ type: 'validated', records: null });
      return null;
    }
    writeFileAtomic(options.skipReport, reportFileText(catalog, displayPath(catalog.root)));
    send({
      type: 'warn',
      text:
        `Skipped ${catalog.skipped.length} invalid record${catalog.skipped.length === 1 ? '' : 's'} of ${catalog.total} ` +
        `(${catalog.problems.length} problems); every one and its reasons are in ${options.skipReport}.`,
    });
  }
  if (catalog.warnings.length > 0) {
    // The pages of these records show what is uncertain; the list is here, and whole in npm run validate.
    const shown = 20;
    const lines = [...catalog.warnings].sort(compareProblems).slice(0, shown).map(formatProblem);
    if (catalog.warnings.length > shown) lines.push(`… and ${catalog.warnings.length - shown} more: npm run validate lists them all.`);
    send({ type: 'warn', text: lines.join('\n') });
  }
  // A described repository no record is of: the description would show nowhere.
  const repos = new Set(catalog.entries.map((e) => e.record.repo));
  const strangers = Object.keys(siteConfig.repositories ?? {}).filter((r) => !repos.has(r));
  if (strangers.length > 0) send({ type: 'warn', text: strangers.map((r) => `errdex.config.mjs: repositories.${r}: no record of the catalog is of this repository (a typo, or records not built?)`).join('\n') });
  const records = catalog.entries.length;
  const unchecked = redos.unchecked > 0 ? `; ${redos.unchecked} patterns without a ReDoS verdict (npm run validate -- --redos)` : '';
  const reread = unchanged > 0 ? `; ${formatCount(unchanged)} unchanged since the last build, not checked alone again` : '';
  send({ type: 'summary', stage: 'validate', summary: `${summaryLine(catalog)}${unchecked}${reread}`, items: catalog.total, unit: 'records' });

  rmSync(options.snapshotDir, { recursive: true, force: true });
  mkdirSync(options.snapshotDir, { recursive: true });
  const pieces = options.memo && snapshotPieceStore(options.memo.pieces, options.memo.code);
  writeSnapshot(options.snapshot, catalog.entries, pieces ?? undefined);
  pieces?.save();
  // What reads the snapshot alone may start now (src/build/stages/full-text.ts), before the head.
  send({ type: 'snapshot', records });
  // The titles that need telling apart, worked out once for every process that shows them: headlines
  // (src/catalog/derive/titles.ts), where records sharing a title are raised (src/views/places.ts: the
  // catalog is lean, so the code of their files' records is read again from their texts), place labels.
  const [{ recordScopes }, { readTwin }, { titleHeadlines }, { placeLabels }] = await Promise.all([
    import('../../views/places.ts'),
    import('../../schema/input-forms.ts'),
    import('../../catalog/derive/titles.ts'),
    import('../../catalog/derive/message-groups.ts'),
  ]);
  // The valid entries' records, which the titles, the shard's ids and the related errors are made of.
  const inputs = catalog.entries.map((e) => e.record);
  const headlines = titleHeadlines(inputs);
  const scopes = recordScopes(inputs, (r) => readTwin(catalog.byId.get(r.id)!.sourceText).record, headlines);
  const titles = { titleHeadlines: Object.fromEntries(headlines), placeLabels: Object.fromEntries(placeLabels(inputs, scopes, headlines)) };
  const { file, exists } = catalog.ledger;
  writeHead(options.head, { root: catalog.root, classes: catalog.classes, ledger: { file, exists }, scopes, ...titles, twinsSha256: twinsSha256(catalog.entries) }, ledgerPlanFor(catalog));
  let shard: ShardRecords | null = null;
  if (options.shard) {
    const { shardIds } = await import('../../catalog/shard.ts');
    const ids = shardIds(inputs, options.shard);
    writeFileAtomic(options.shardIds, JSON.stringify([...ids]));
    shard = { records: ids.size, ids: options.shardIds };
  }
  // The build makes its plan again with the count, and says how many render partitions it chose.
  const chosen = partitionsChosen();
  // Entries not found sound before (edited, new, or with a warning): what a build reusing the published pages renders, about.
  send({ type: 'validated', records, rendered: shard?.records ?? records, changed: Math.max(0, records - unchanged) });
  const key = memo && `${memo.code} ${relatedInputsKey(inputs)}`;
  let linked = memo && key ? reusedRelated(memo, key, options.related) : null;
  const kept = linked !== null ? ' (their inputs unchanged: kept from the last build)' : '';
  if (linked === null) {
    const links = relatedErrors(inputs);
    const { sha1 } = writeRelated(options.related, links);
    linked = links.filter((l) => l.length > 0).length;
    if (memo && key) keepRelated(memo, key, options.related, { sha1, linked });
  }
  const count = await chosen;
  const partitions: RenderPartition[] = Array.from({ length: count }, (_, index) => ({ index, count, snapshot: options.snapshot, head: options.head, related: options.related }));
  send({
    type: 'summary',
    stage: 'derive',
    summary: `related errors: ${formatCount(linked)} of ${formatCount(records)} records have some${kept}; snapshot for ${count} render process${count === 1 ? '' : 'es'}`,
    items: records,
    unit: 'records',
  });
  return { root: displayPath(catalog.root), records, partitions, shard };
}

/** The child of the two stages, as `beginValidation` started it. */
interface ValidationChild {
  result: Promise<ValidateResult | null>;
  kill: () => void;
  send: (m: BuildMessage) => void;
  /** Hands the child's messages to `handler`, those sent before it was given first. */
  listen: (handler: (m: ChildMessage) => void) => void;
}

/** The child of the two stages, by the settings of the build that began it, awaited by `validate` and `derive`. */
const children = new WeakMap<BuildSettings, ValidationChild>();

/** When validation's child has written the snapshot, by the settings of the build that began it: the valid records' count, or null when it ended without. */
const snapshots = new WeakMap<BuildSettings, Promise<number | null>>();

/**
 * Resolves once validation's child has written the snapshot, with the valid records' count (null: it
 * ended without writing one, the catalog invalid or the child failed). A stage that reads the snapshot
 * alone may start then, before validation has written the snapshot's head and ended.
 */
export function snapshotWritten(settings: BuildSettings): Promise<number | null> {
  const written = snapshots.get(settings);
  if (!written) throw new Error('validation has not begun');
  return written;
}

/**
 * Starts the validate and derive child before the build proves the published site's files (seconds at
 * scale: src/build/page-reuse.ts `publishedSite`), which validation does not read: it reads the catalog
 * and the validation memo only. Its messages wait for the `validate` stage. Returns a way to stop it,
 * for a build that fails before its stages run.
 */
export function beginValidation(s: Pick<BuildState, 'settings' | 'dirs' | 'snapshot' | 'head' | 'related' | 'shardIds' | 'code'>): () => void {
  const waiting: ChildMessage[] = [];
  let handle: (m: ChildMessage) => void = (m) => void waiting.push(m);
  let written!: (records: number | null) => void;
  snapshots.set(s.settings, new Promise((resolve) => (written = resolve)));
  const started = startStageChild<ValidateResult | null>(
    import.meta.url,
    {
      catalog: s.settings.catalog,
      datasetVersion: s.settings.datasetVersion,
      skipReport: s.settings.skipReport,
      strict: s.settings.strict,
      snapshotDir: s.dirs.snapshots,
      snapshot: s.snapshot,
      head: s.head,
      related: s.related,
      shard: s.settings.shard,
      shardIds: s.shardIds,
      memo: s.settings.useCache ? { dir: catalogMemoDir(s.settings.cacheDir), pieces: snapshotPiecesDir(s.settings.cacheDir), code: s.code } : null,
    } satisfies ValidateOptions,
    (m) => (m.type === 'snapshot' ? written(m.records) : handle(m)),
    'the validate and derive stages',
  );
  // A child that fails before its stage awaits it: the failure waits for the stage too.
  started.result.catch(() => {});
  // Ended without a snapshot (a snapshot already told of stays told).
  started.result.then(
    () => written(null),
    () => written(null),
  );
  children.set(s.settings, {
    ...started,
    listen: (handler) => {
      handle = handler;
      for (const m of waiting.splice(0)) handler(m);
    },
  });
  return started.kill;
}

export async function validate(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const { board } = s;
  if (!children.has(s.settings)) beginValidation(s);
  const started = children.get(s.settings)!;
  let counted!: (records: number | null) => void;
  const validated = new Promise<number | null>((resolve) => (counted = resolve));
  ctx.onCancel(started.kill);
  started.listen((m) => {
    if (m.type === 'validated') {
      if (m.records !== null) {
        // The plan made again with the count; the child is told the partitions before it ends.
        s.learnRecords(m.records, m.rendered ?? m.records, m.changed ?? null);
        started.send({ type: 'partitions', count: s.plan.partitions! });
      }
      counted(m.records);
    } else if (m.type === 'warn') board.warn(m.text);
    else if (m.type === 'summary') board.stage(m.stage).end(m);
  });
  // The child may end (failing) before it has counted: then its failure is this stage's.
  const records = await Promise.race([validated, started.result.then(() => null)]);
  if (records === null) {
    await started.result;
    throw new InvalidCatalog('Fix the catalog, or build the valid records with --skip-invalid.');
  }
  // An empty site is never what a build is for: an emptied catalog file, or one whose every record is invalid.
  if (records === 0) {
    const skipped = s.settings.skipReport ? ` (the skipped records and why: ${s.settings.skipReport})` : '';
    throw new Error(`The catalog has no valid records${skipped}: a build publishes no site without error pages.`);
  }
}

export async function derive(ctx: StageContext<BuildState>): Promise<void> {
  const child = children.get(ctx.state.settings)!;
  ctx.onCancel(child.kill);
  const result = await child.result;
  children.delete(ctx.state.settings);
  if (!result) throw new Error('the validate and derive stages ended without a result');
  ctx.state.catalog = result;
  // The early render process lists its pages now (or ends, when there are several partitions).
  ctx.state.render.openCatalog(result.partitions);
}

childMain(import.meta.url, validateAndDerive);
