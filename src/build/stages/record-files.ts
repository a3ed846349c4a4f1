/**
 * The build's "record files" stage: each record's JSON twin (`api/errors/{id}.json`, the record's text
 * exactly as the catalog gives it) and short-link page (`e/{id}/index.html`, stamped from the template
 * page Astro rendered: src/views/short-link.ts), written straight from the validated catalog's snapshot.
 *
 * Two of every three files of a site, and each the same for every build of the same record: through
 * Astro they cost more than a third of a cold render, written here a few seconds per 100,000 records.
 *
 * It runs in a child process into a folder of its own, merged into the site by publish. It may start
 * before the render (src/build/plan.ts): the JSON twins first, then the short links once a render
 * process has written the template (looked for where the render processes write, then where their
 * output goes).
 *
 * A shard writes its own records' files, which its folder carries with their short links' heads and
 * the key of the snapshot they were made from; a merge whose snapshot has the same key links them all,
 * reading nothing of the catalog (`linkShardRecords`), from its start (`beginShardRecords`).
 */
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryAt, lazySnapshotTexts, leanSnapshotTextKeys, readHead, type EntryPlace } from '../../catalog/snapshot.ts';
import { placeLabels } from '../../catalog/derive/message-groups.ts';
import { titleHeadlines } from '../../catalog/derive/titles.ts';
import type { ErrorRecord } from '../../schema/record.ts';
import { checkShortLinkTemplate, SHORT_LINK_TEMPLATE_ID, shortLinkRecord, type ShortLinkRecord, shortLinkValues, stampShortLink } from '../../views/short-link.ts';
import { jsonPath, shortPath } from '../../util/urls.ts';
import { formatCount } from '../progress.ts';
import { headOf, pageFileOf, type PageHead } from '../rendered-pages.ts';
import { addFile, addFolder, joinFigures, measureFolders, noFigures, titleFigures, type SiteFigures } from '../summary.ts';
import { childMain, startStageChild, type ChildOptions } from '../protocol.ts';
import { stageProcess } from '../plan.ts';
import type { StageContext } from '../pipeline.ts';
import { mergeInto, renderSiteDir } from '../site-folders.ts';
import type { BuildSettings, BuildState, RecordFilesResult } from '../state.ts';
import { siteConfig } from '../../../errdex.config.mjs';
import { displayPath } from '../../catalog/load.ts';
import { listFilesBelow, replaceFile } from '../../util/files.ts';
import { SHARD_RECORDS, shardRecordsListing, shardRecordsResult } from '../merge.ts';
import { readShardFile, snapshotKey } from '../shard-reuse.ts';
import { linkReused } from '../page-reuse.ts';
import { listedPaths, publishedFiles, unchangedFiles, type PublishedFiles } from '../unchanged-files.ts';
import { takeFromStandby } from '../standby.ts';
import { memoLags } from '../memo-lag.ts';

/** Where a site path (root-relative, as src/util/urls.ts gives it) is in the site folder. */
const fileOf = (siteDir: string, path: string): string => join(siteDir, path.endsWith('/') ? `${path}index.html` : path);

/** Where the short-link template is in a site folder. */
export const templateFileIn = (siteDir: string): string => fileOf(siteDir, shortPath(SHORT_LINK_TEMPLATE_ID));

export interface RecordFilesOptions {
  snapshot: string;
  /** The snapshot's head: the title headlines and place labels validation worked out (without it, made here, without scopes). */
  head?: string;
  /** The files go here, to be merged into the site. */
  outDir: string;
  /** Site folders the short-link template may be written to, looked at in turn until it is there. */
  templateSites: string[];
  /** The published site, whose files of the same bytes are linked, not written again, and this stage's listing of them (src/build/unchanged-files.ts); null: none. */
  published?: PublishedFiles | null;
  /** A shard's build: the file of its records' ids (src/catalog/shard.ts), whose files alone are written; the others' titles still count. */
  shardIds?: string | null;
  /** The standby this build claimed (src/build/standby.ts), whose `api/errors/` and `e/` are filled in place; null: none. */
  standby?: string | null;
  /** The build cache's short links, kept for the next build of the same code (`ShortLinkMemo`); null: no cache. */
  memo?: { file: string; code: string } | null;
}

/** The stage's folders in a site: the JSON twins', and the short links' (with the notices of removed records, which publish adds). */
const FOLDERS = ['api/errors', 'e'] as const;

/**
 * The stage's folders: taken from the standby when it has them (a file there is then kept only where
 * the stage's listing proves it: src/build/unchanged-files.ts, `seeded`), else made. Returns whether
 * any was taken.
 */
function stageFolders(outDir: string, standby: string | null): boolean {
  rmSync(outDir, { recursive: true, force: true });
  let seeded = false;
  for (const folder of FOLDERS) {
    if (takeFromStandby(standby, folder, join(outDir, folder))) seeded = true;
    else mkdirSync(join(outDir, folder), { recursive: true });
  }
  return seeded;
}

/** Removes what a folder taken from the standby holds that this build did not make: `made`, the names in it to keep. */
function removeUnmade(dir: string, made: ReadonlySet<string>): void {
  for (const name of readdirSync(dir)) if (!made.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
}

/** A merge's: the shards' folders whose record files are linked into `outDir` (`linkShardRecords`). */
interface LinkOptions {
  link: readonly string[];
  outDir: string;
}

/**
 * The template once a render process has written it whole. A page being written can be read in
 * part, so a read that does not end the page is tried again.
 */
async function awaitTemplate(siteDirs: readonly string[]): Promise<string> {
  for (;;) {
    for (const dir of siteDirs) {
      let text: string;
      try {
        text = readFileSync(templateFileIn(dir), 'utf8');
      } catch {
        continue;
      }
      if (text.trimEnd().endsWith('</html>')) {
        checkShortLinkTemplate(text);
        return text;
      }
    }
    await sleep(50);
  }
}

/**
 * What the build cache keeps of each short link written, for the next build of the same code and
 * template: a short link is a function of its record's text and its title parts (which take the whole
 * catalog), so a link whose two are as kept has the kept hash, size and head, and is neither described
 * nor stamped again when it is in place (src/build/unchanged-files.ts `writeKnown`).
 */
interface ShortLinkMemo {
  code: string;
  /** The site's settings (errdex.config.mjs, which reads the environment) and the template's SHA-1. */
  config: string;
  template: string;
  /**
   * Record id -> its text's key, its title parts', the page's SHA-1 (base64) and size, its head, and
   * what its title and short link take of the record (`LinkFields`, a function of its text).
   */
  links: Record<string, [text: string, title: string, sha1: string, bytes: number, head: PageHead, fields: LinkFields]>;
}

/** What a short link and the titles of its repository's records take of a record, beside its id and description. */
type LinkFields = [repo: string, slug: string, errorClass: string | null, errorMessage: string, filePath: string, lineNumber: ErrorRecord['lineNumber']];

function readShortLinkMemo(memo: { file: string; code: string } | null): ShortLinkMemo | null {
  if (!memo) return null;
  try {
    const read = JSON.parse(readFileSync(memo.file, 'utf8')) as ShortLinkMemo;
    return read.code === memo.code && read.config === CONFIG_KEY ? read : null;
  } catch {
    return null;
  }
}

const CONFIG_KEY = hash('sha1', JSON.stringify(siteConfig));

/** A link's title parts from its key in the memo (`[headline, place]`). */
function titlePartsOf(key: string): { headline: string | undefined; place: string | undefined } {
  const [headline, place] = JSON.parse(key) as [string | null, string | null];
  return { headline: headline ?? undefined, place: place ?? undefined };
}

/** Writes every record's JSON twin, then, with the template, its short link; `onRecord` is told the records done so far. */
export async function writeRecordFiles(options: RecordFilesOptions, onRecord?: (done: number) => void): Promise<RecordFilesResult> {
  const { outDir } = options;
  const seeded = stageFolders(outDir, options.standby ?? null);
  const published = options.published ?? null;
  const files = unchangedFiles(outDir, { ...(published ?? { site: null, listing: null }), seeded });
  /** The names made in each folder, when some were taken from the standby: what else is there goes; `folders`: the short links' folders there. */
  const made = seeded ? { twins: new Set<string>(), links: new Set<string>(), folders: new Set(readdirSync(join(outDir, FOLDERS[1]))) } : null;
  const kept = readShortLinkMemo(options.memo ?? null);
  // Of every record, what its title, place and short link take (the titles are the whole catalog's);
  // the description of those whose text is the one kept is read again only if their link is made.
  const records: (ShortLinkRecord & Pick<ErrorRecord, 'filePath' | 'lineNumber'> & { text: string; described: boolean; line: EntryPlace['snapshotLine'] })[] = [];
  const own = options.shardIds ? new Set(JSON.parse(readFileSync(options.shardIds, 'utf8')) as string[]) : null;
  // The stage's folders measured as they are filled (publish walks the rest of the site): each holds
  // what the stage made and nothing else (`stageFolders`, `removeUnmade`), a twin per record in
  // `api/errors/` and a folder per short link in `e/`. Their bytes are the stage's.
  const figures = noFigures();
  // A record's title takes its repository's records (titles.ts, message-groups.ts): with the memo, the
  // records whose text is the one kept are not parsed, and the titles of the repositories none of whose
  // records changed are the kept ones (`touched`: the others, whose titles are made again).
  const touched = kept ? new Set<string>() : null;
  const gone = new Set(kept ? Object.keys(kept.links) : []);
  // The records from the lean snapshot (the pages' titles and descriptions are its documentation and
  // places), the twins from the snapshot's texts, unparsed: the two files hold the entries in one order.
  const texts = lazySnapshotTexts(options.snapshot);
  for (const [key, lean, place] of leanSnapshotTextKeys(options.snapshot, { documentation: true })) {
    const [id, text] = texts.next().value ?? [];
    if (id !== place.id) throw new Error(`${options.snapshot}: its lean snapshot's entry ${place.id} is not the snapshot's (${id ?? 'none'})`);
    const mine = !own || own.has(place.id);
    if (mine) {
      // The twin is the entry's text, whose hash the lean snapshot carries: a published twin listed
      // with that hash is linked without the text being read.
      const path = pageFileOf(jsonPath(place.id));
      made?.twins.add(basename(path));
      addFile(figures, path, files.writeKnown(path, Buffer.from(key, 'hex').toString('base64'), () => text!()));
    }
    const was = kept?.links[place.id];
    gone.delete(place.id);
    const known = mine && was?.[0] === key;
    let r: ShortLinkRecord & Pick<ErrorRecord, 'filePath' | 'lineNumber'>;
    if (known) {
      const [repo, slug, errorClass, errorMessage, filePath, lineNumber] = was![5];
      r = { id: place.id, repo, slug, errorClass, errorMessage, description: '', filePath, lineNumber };
    } else {
      const record = lean();
      r = { ...shortLinkRecord(record, mine), filePath: record.filePath, lineNumber: record.lineNumber };
      touched?.add(r.repo);
      if (was) touched?.add(was[5][0]);
    }
    records.push({ ...r, text: key, described: !known, line: place.snapshotLine });
    // Half the work per record: the short link is the other half.
    if (records.length % 1000 === 0) onRecord?.(records.length / 2);
  }
  onRecord?.(Math.floor(records.length / 2));
  for (const id of gone) touched?.add(kept!.links[id]![5][0]);
  // The titles validation worked out for every record (the snapshot's head); without a head, of the records whose titles are made.
  const head = options.head ? readHead(options.head) : null;
  const titled = touched ? records.filter((r) => touched.has(r.repo)) : records;
  const headlines = head ? new Map(Object.entries(head.titleHeadlines)) : titleHeadlines(titled);
  const places = head ? new Map(Object.entries(head.placeLabels)) : placeLabels(titled, {}, headlines);
  const template = await awaitTemplate(options.templateSites);
  const templateKey = hash('sha1', template);
  const memo: ShortLinkMemo | null = options.memo ? { code: options.memo.code, config: CONFIG_KEY, template: templateKey, links: {} } : null;
  const keep = kept?.template === templateKey ? kept.links : {};
  // Each page's head as written, for the check that no two short links share a title.
  const heads: [string, PageHead][] = [];
  // A shard writes its own records' short links; the titles and places of all records decide theirs.
  const linked = own ? records.filter((r) => own.has(r.id)) : records;
  let stamped = 0;
  linked.forEach((r, i) => {
    const asKept = touched && !touched.has(r.repo) ? kept!.links[r.id]![1] : null;
    const parts = asKept ? titlePartsOf(asKept) : { headline: headlines.get(r.id), place: places.get(r.id) };
    const titleKey = asKept ?? JSON.stringify([parts.headline ?? null, parts.place ?? null]);
    const path = shortPath(r.id);
    made?.links.add(r.id);
    if (!made?.folders.has(r.id)) mkdirSync(join(outDir, 'e', r.id));
    addFolder(figures, `${dirname(pageFileOf(path))}/`, 1);
    /** The page: its description read again from the snapshot when it was not taken with the record. */
    const page = (): string => {
      stamped++;
      const description = r.described
        ? r.description
        : shortLinkRecord(entryAt(options.snapshot, { id: r.id, snapshotLine: r.line }).record).description;
      return stampShortLink(template, shortLinkValues({ ...r, description }, parts));
    };
    const was = keep[r.id];
    if (was && was[0] === r.text && was[1] === titleKey) {
      // As kept: in place (or linked) by its hash, made only if neither.
      addFile(figures, pageFileOf(path), files.writeKnown(pageFileOf(path), was[2], page));
      if (memo) memo.links[r.id] = was;
      heads.push([pageFileOf(path), was[4]]);
    } else {
      const html = page();
      const data = Buffer.from(html);
      const sha1 = hash('sha1', data, 'base64');
      files.writeKnown(pageFileOf(path), sha1, () => data);
      const head = headOf(html);
      if (memo) memo.links[r.id] = [r.text, titleKey, sha1, data.length, head, [r.repo, r.slug, r.errorClass, r.errorMessage, r.filePath, r.lineNumber]];
      heads.push([pageFileOf(path), head]);
      addFile(figures, pageFileOf(path), data.length);
    }
    if ((i + 1) % 1000 === 0) onRecord?.(Math.floor((linked.length + i + 1) / 2));
  });
  onRecord?.(linked.length);
  const count = linked.length;
  records.length = 0;
  addFolder(figures, `${FOLDERS[0]}/`, count);
  addFolder(figures, `${FOLDERS[1]}/`, 0);
  if (made) {
    removeUnmade(join(outDir, FOLDERS[0]), made.twins);
    removeUnmade(join(outDir, FOLDERS[1]), made.links);
  }
  files.save();
  // Until it lags by many links, a link it does not hold is made again each build (and found in place).
  if (memo && options.memo && (!kept || kept.template !== templateKey || memoLags(stamped + gone.size))) replaceFile(options.memo.file, JSON.stringify(memo));
  // A shard's short links are compared with the other shards' in the merge.
  const inPlace = made ? { inPlace: files.counts.kept } : {};
  return { records: count, files: 2 * count, linked: files.counts.linked, ...inPlace, bytes: figures.bytes, titles: titleFigures(heads), heads: own ? heads : undefined, figures };
}

/** What a shard's record files stage said of them (src/build/merge.ts `shardRecordsResult`); null when it cannot be read. */
const shardRecords = (dir: string): RecordFilesResult | null => readShardFile<RecordFilesResult>(shardRecordsResult(dir));

/** What the shards say of their record files, when they can be linked together: the one key they were made from, and their records in all. */
export interface ShardRecordsMade {
  key: string;
  records: number;
}

/**
 * The key every shard's record files were made from and their records in all, when every shard made
 * them with their short links' heads and from one snapshot; null otherwise. Each shard's file is read
 * once: at a merge's start (`beginShardRecords`), kept for the stage.
 */
export function shardRecordsMade(dirs: readonly string[]): ShardRecordsMade | null {
  let key: string | null = null;
  let records = 0;
  for (const dir of dirs) {
    const said = shardRecords(dir);
    if (!said?.key || !said.heads || (key !== null && said.key !== key)) return null;
    key = said.key;
    records += said.records;
  }
  return key === null ? null : { key, records };
}

/** A merge's linking of the shards' record files, begun before its snapshot's key is known (`beginShardRecords`). */
interface EarlyLink {
  /** What the shards made: the stage keeps what was linked when it is the merge's. */
  made: ShardRecordsMade;
  result: Promise<RecordFilesResult>;
  kill: () => void;
  /** Hands the records linked so far to `update`, now and as more are. */
  listen: (update: (done: number) => void) => void;
}

const earlyLinks = new WeakMap<BuildSettings, EarlyLink>();

const startChild = (options: RecordFilesOptions | LinkOptions, onRecord: (done: number) => void, how: Pick<ChildOptions, 'priority' | 'nodeFlags'>) =>
  startStageChild<RecordFilesResult>(import.meta.url, options, (m) => m.type === 'update' && onRecord(m.done), 'the record files stage', how);

/**
 * A merge whose shards made their record files from one snapshot links them from its start, beside
 * validation: linking reads nothing of the catalog, and a snapshot's key is known only once validation
 * has written it. The stage keeps the files when that key is the shards' (the shards' folders are the
 * merge's input, unchanged while it runs), and otherwise ends the child and makes them itself. Returns
 * a way to stop it.
 */
export function beginShardRecords(settings: BuildSettings, outDir: string): () => void {
  const dirs = settings.fromShards;
  const made = dirs ? shardRecordsMade(dirs) : null;
  if (!dirs || !made) return () => {};
  let done = 0;
  let update: (n: number) => void = (n) => {
    done = n;
  };
  // The stage's priority in every plan (src/build/plan.ts), which is made after this begins.
  const started = startChild({ link: dirs, outDir }, (n) => update(n), { priority: 'low' });
  started.result.catch(() => {});
  earlyLinks.set(settings, {
    made,
    ...started,
    listen: (f) => {
      update = f;
      if (done > 0) f(done);
    },
  });
  return started.kill;
}

/** A merge: every shard's record files linked into `outDir` (`shardRecordsMade` said they are the merge's), their short links' titles compared together. */
export function linkShardRecords(dirs: readonly string[], outDir: string, onRecord?: (done: number) => void): RecordFilesResult {
  rmSync(outDir, { recursive: true, force: true });
  const result: RecordFilesResult = { records: 0, files: 0, linked: 0, bytes: 0, titles: { titledPages: 0, sharedTitles: [] } };
  const heads: [string, PageHead][] = [];
  for (const dir of dirs) {
    const made = shardRecords(dir)!;
    const from = join(dir, SHARD_RECORDS);
    // As the shard's listing names them, when it names them all: no folder of theirs read.
    const listed = listedPaths(shardRecordsListing(dir));
    const files = listed.length === made.files ? listed : listFilesBelow(from);
    if (files.length !== made.files) {
      throw new Error(`${displayPath(from)} holds ${formatCount(files.length)} files where its shard wrote ${formatCount(made.files)}: build that shard again`);
    }
    linkReused(files, from, outDir);
    heads.push(...made.heads!);
    result.records += made.records;
    result.files += made.files;
    result.bytes += made.bytes;
    onRecord?.(result.records);
  }
  return { ...result, linked: result.files, titles: titleFigures(heads) };
}

/** Why the record files stage would wait for ever on a rendered site: it has no short-link template; null when it has one. */
export function missingTemplate(siteDir: string): string | null {
  return existsSync(templateFileIn(siteDir))
    ? null
    : `The render wrote no short-link template (${shortPath(SHORT_LINK_TEMPLATE_ID)}): src/pages/e/[id].astro must render it.`;
}

/**
 * Moves the record files into the rendered site, in place of the short-link template. Returns the
 * figures of the stage's folders in the site (`figures`, the stage's own, with the notices added), and
 * the folders they cover (`skip`), for publish to measure the rest; null when they are not known (none
 * given, or a notice took a short link's place).
 */
export function mergeRecordFiles(recordsDir: string, siteDir: string, figures?: SiteFigures): { figures: SiteFigures; skip: readonly string[] } | null {
  rmSync(dirname(templateFileIn(siteDir)), { recursive: true });
  // The site's `e/` held the template and the notices of removed records, a few beside the record
  // files' short link per record: the notices are moved into the record files' `e/` (in place of a
  // short link of the same id, as a merge keeps the site's), which then moves whole, a rename per
  // notice rather than per record.
  const shortLinks = join(siteDir, 'e');
  const records = join(recordsDir, 'e');
  let known = figures ?? null;
  const notices: string[] = [];
  if (existsSync(records)) {
    for (const name of readdirSync(shortLinks)) {
      const into = join(records, name);
      if (existsSync(into) || !statSync(join(shortLinks, name)).isDirectory()) known = null;
      rmSync(into, { recursive: true, force: true });
      renameSync(join(shortLinks, name), into);
      notices.push(join(siteDir, 'e', name));
    }
    rmdirSync(shortLinks);
  } else known = null;
  mergeInto(recordsDir, siteDir);
  rmSync(recordsDir, { recursive: true, force: true });
  return known && { figures: joinFigures(known, measureFolders(siteDir, notices)), skip: FOLDERS };
}

/**
 * Where the stage finds the files it may link instead of writing: a shard's, in its folder's `records/`
 * (publishShard); a merge's, in each shard's `records/`, read where it is; any other build's, in the
 * published site.
 */
export function recordFilesPublished(settings: BuildSettings): PublishedFiles {
  const own = publishedFiles(settings, 'record-files');
  if (settings.shard) return { ...own, site: own.site && join(own.site, SHARD_RECORDS) };
  if (settings.fromShards) return { site: null, listing: null, beside: settings.fromShards.map((dir) => ({ site: join(dir, SHARD_RECORDS), listing: shardRecordsListing(dir) })) };
  return own;
}

export async function recordFilesStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const partitions = s.plan.partitions!;
  const templateSites = [...Array.from({ length: partitions }, (_, index) => renderSiteDir({ index })), s.dirs.staging];
  const board = s.board.stage('record-files');
  // A shard's own records: validation has counted them (learnRecords).
  board.count((s.settings.shard ? s.plan.facts.rendered : null) ?? s.plan.facts.records!, 'records');
  const { shard, fromShards } = s.settings;
  const key = snapshotKey(s);
  const early = earlyLinks.get(s.settings);
  earlyLinks.delete(s.settings);
  // Linked when the shards made them from this snapshot, every record of it.
  const made = fromShards ? (early?.made ?? shardRecordsMade(fromShards)) : null;
  const linked = made && made.key === key && made.records === s.plan.facts.records ? fromShards : undefined;
  const onRecord = (done: number) => board.update(done);
  let child: { result: Promise<RecordFilesResult>; kill: () => void };
  if (early && linked) {
    early.listen(onRecord);
    child = early;
  } else {
    if (early) {
      // Linked from shards whose snapshot is not the merge's: ended, and its files made here instead.
      early.kill();
      await early.result.catch(() => {});
    }
    const options: RecordFilesOptions | LinkOptions = linked
      ? { link: linked, outDir: s.dirs.recordFiles }
      : {
          snapshot: s.snapshot,
          head: s.head,
          outDir: s.dirs.recordFiles,
          templateSites,
          published: recordFilesPublished(s.settings),
          shardIds: shard ? s.shardIds : null,
          standby: s.standby,
          memo: s.settings.useCache ? { file: join(s.settings.cacheDir, 'record-files', 'short-links.json'), code: s.code } : null,
        };
    child = startChild(options, onRecord, stageProcess(s.plan, 'record-files'));
  }
  ctx.onCancel(child.kill);
  const result = await child.result;
  s.recordFiles = { ...result, key };
  const whose = linked ? " (the shards': made from the same snapshot)" : fromShards ? ' (made here: not every shard made them from the same snapshot)' : '';
  board.end({
    summary:
      `${formatCount(result.files)} JSON twins and short links, ${formatCount(result.linked)} of them unchanged${whose}` +
      (result.inPlace !== undefined ? `, ${formatCount(result.inPlace)} already in place in the standby's folders` : ''),
    items: result.records,
    unit: 'records',
    output: { files: result.files, bytes: result.bytes },
  });
}

childMain(import.meta.url, async (options: RecordFilesOptions | LinkOptions, send) => {
  const onRecord = (done: number) => send({ type: 'update', stage: 'record-files', done });
  return 'link' in options ? linkShardRecords(options.link, options.outDir, onRecord) : writeRecordFiles(options, onRecord);
});
