/**
 * The scan: a commit's tree -> errdex records. Lists the committed files, leaves out what is not
 * the project's own code (select.ts), parses each file with its grammar, lets the language's reader
 * find the raise sites, and writes one record per site. Every file and site left out is counted by
 * reason, and every record is checked against the schema before it is kept.
 */
import { errorRecordSchema, type ErrorRecord } from '../schema/record.ts';
import { recordProblems } from '../schema/record-checks.ts';
import { commitDate, listTree, originRepo, readBlobs, resolveCommit } from './git.ts';
import { IdAllocator, siteKey } from './ids.ts';
import { buildTemplate, constructorShowsMore } from './message.ts';
import { importedParts } from './imports.ts';
import { buildRecord, type FileFacts } from './record.ts';
import { LANGUAGE_NAME, languageOf, MAX_FILE_BYTES, skipByPath, skipByText, type ScanLanguage, type SkipReason } from './select.ts';
import { skipReason, type SiteSkip } from './site.ts';
import { readerPool } from './pool.ts';
import type { FileRead } from './read-file.ts';

export interface ScanOptions {
  /** A git work tree or bare repository. */
  dir: string;
  rev?: string;
  /** `owner/name`; defaults from the `origin` remote. */
  repo?: string;
  onProgress?: (done: number, total: number) => void;
  /** Parser threads (default: one per core, at most four; 1 parses in this thread). */
  workers?: number;
  /**
   * Files read by an earlier scan, by blob id: a blob seen before is not read or parsed again (scanning
   * many commits of one repository). Left holding this scan's files only.
   */
  cache?: Map<string, CachedFile>;
}

/** A file's text and what its reader found, as a later scan of the same blob reuses them. */
export interface CachedFile {
  source: string;
  read: FileRead;
}

export interface ScanSummary {
  repo: string;
  sha: string;
  /** Files read, per language name. */
  filesRead: Record<string, number>;
  /** Files of a scanned language left out, per reason. */
  filesSkipped: Partial<Record<SkipReason, number>>;
  sites: number;
  sitesPerLanguage: Record<string, number>;
  /** Raise sites that gave no record, per reason. */
  sitesSkipped: Partial<Record<SiteSkip | 'invalid-record', number>>;
  /** Every skipped site as `path:line reason`, for checking by hand (`--skipped`). */
  skippedSites: string[];
  /** Files whose syntax tree has errors (their other sites are still read). */
  parseErrors: string[];
  /** Records the schema rejected (a scanner bug if ever non-empty): file:line and the problems. */
  invalid: string[];
  seconds: number;
}

export interface ScanResult {
  records: ErrorRecord[];
  analyzedAt: string;
  summary: ScanSummary;
}


const bump = <K extends string>(counts: Partial<Record<K, number>>, key: K, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by;
};

export function resolveRepo(dir: string, repo: string | undefined): string {
  const r = repo ?? originRepo(dir);
  if (!r) throw new Error(`${dir}: no --repo given and no GitHub "origin" remote to take it from; pass --repo owner/name`);
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/.test(r)) throw new Error(`--repo ${JSON.stringify(r)}: must be "owner/name" as on GitHub`);
  return r;
}

export async function scan(options: ScanOptions): Promise<ScanResult> {
  const started = performance.now();
  const { dir } = options;
  const sha = resolveCommit(dir, options.rev ?? 'HEAD');
  const repo = resolveRepo(dir, options.repo);
  const analyzedAt = commitDate(dir, sha);
  const summary: ScanSummary = { repo, sha, filesRead: {}, filesSkipped: {}, sites: 0, sitesPerLanguage: {}, sitesSkipped: {}, parseErrors: [], invalid: [], skippedSites: [], seconds: 0 };

  const queue: { path: string; object: string; language: ScanLanguage }[] = [];
  for (const f of listTree(dir, sha)) {
    const language = languageOf(f.path);
    if (!language) continue;
    const reason = f.size > MAX_FILE_BYTES ? 'too-large' : skipByPath(f.path, language);
    if (reason) bump(summary.filesSkipped, reason);
    else queue.push({ path: f.path, object: f.object, language });
  }

  const reads: (Promise<FileRead> | null)[] = [];
  const sources: (string | null)[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let inFlight: Promise<unknown>[] = [];
  let done = 0;
  const progress = () => options.onProgress?.(++done, queue.length);
  const cacheKey = (i: number) => `${queue[i]!.object} ${queue[i]!.language}`;
  const used = new Map<string, CachedFile>();
  const toRead: number[] = [];
  for (const [i, q] of queue.entries()) {
    const cached = options.cache?.get(cacheKey(i));
    if (!cached) {
      toRead.push(i);
      continue;
    }
    used.set(cacheKey(i), cached);
    bump(summary.filesRead, LANGUAGE_NAME[q.language]);
    reads[i] = Promise.resolve(cached.read);
    sources[i] = cached.source;
    progress();
  }
  // Files are parsed on worker threads as git streams them; records are written in tree order.
  // A few files (a small tree, or the ones changed since a cached scan) are parsed in this thread:
  // starting workers would cost more than they save.
  const pool = readerPool(options.workers ?? (toRead.length < 100 ? 1 : undefined));
  try {
    await readBlobs(dir, toRead.map((i) => queue[i]!.object), async (j, bytes) => {
      const i = toRead[j]!;
      const { language } = queue[i]!;
      let source: string;
      try {
        source = decoder.decode(bytes).replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
      } catch {
        bump(summary.filesSkipped, 'not-utf8');
        reads[i] = null;
        progress();
        return;
      }
      const textReason = skipByText(source);
      if (textReason) {
        bump(summary.filesSkipped, textReason);
        reads[i] = null;
        progress();
        return;
      }
      bump(summary.filesRead, LANGUAGE_NAME[language]);
      const read = pool.read(language, source);
      reads[i] = read;
      sources[i] = source;
      if (options.cache) {
        const key = cacheKey(i);
        inFlight.push(read.then((r) => used.set(key, { source, read: r })));
      }
      inFlight.push(read.then(progress));
      // Keep a few files per worker in flight, no more: memory holds only those.
      if (inFlight.length >= 16) {
        await Promise.all(inFlight);
        inFlight = [];
      }
    });
    await Promise.all(inFlight);

    const records: ErrorRecord[] = [];
    const ids = new IdAllocator();
    // Every file is read: a message held in another file's constant can be resolved (imports.ts).
    const settled = await Promise.all(reads.map((r) => r ?? null));
    const paths = new Set(queue.map((q) => q.path));
    const byPath = new Map(queue.map((q, i) => [q.path, settled[i]]));
    const constantsOf = (p: string) => byPath.get(p)?.constants;
    for (const [i, found] of settled.entries()) {
      if (!found) continue;
      const { path, language } = queue[i]!;
      if (found.parseError) summary.parseErrors.push(path);
      for (const [reason, n] of Object.entries(found.skipped)) bump(summary.sitesSkipped, reason as SiteSkip, n);
      for (const s of found.skippedAt) summary.skippedSites.push(`${path}:${s.line} ${s.reason}`);
      const file: FileFacts = { repo, sha, analyzedAt, path, language, lines: sources[i]!.split('\n') };
      sources[i] = null;
      for (const asRead of found.sites.sort((a, b) => a.line - b.line)) {
        let site = asRead;
        if (site.imported) {
          const value = importedParts(path, site.imported, paths, constantsOf);
          const local = site.imported.local;
          // The constant is the whole message, or fills the placeholder named for it.
          // Or, for a class's message the other file does not declare, the raise's own (Site.unread).
          const own = site.builtBy !== undefined && site.parts.length > 0 && (value === null || !constructorShowsMore(value, site.parts));
          const parts = value && local !== undefined ? site.parts.flatMap((p) => (p.kind === 'hole' && p.name === local ? value : [p])) : own ? site.parts : value;
          // The checks a reader makes of a message it reads itself (SiteCollector.message).
          const reason = !parts && site.unread ? site.unread : skipReason(parts, !site.errorClass);
          if (reason) {
            bump(summary.sitesSkipped, reason);
            summary.skippedSites.push(`${path}:${site.line} ${reason}`);
            continue;
          }
          // A copy: a cached read (--history) is resolved again against the next revision's files. The
          // raise's own message is not the constructor's.
          const { builtBy: _, ...unbuilt } = site;
          site = own ? { ...unbuilt, parts: parts! } : { ...site, parts: parts! };
        }
        const template = buildTemplate(site.parts, { styleTags: language === 'python' || language === 'php' });
        if (typeof template === 'string') {
          bump(summary.sitesSkipped, template);
          summary.skippedSites.push(`${path}:${site.line} ${template}`);
          continue;
        }
        const id = ids.next(siteKey(repo, path, site.enclosing, template.errorMessage));
        const record = buildRecord(file, site, template, id);
        const problems = recordCheck(record);
        if (problems.length > 0) {
          bump(summary.sitesSkipped, 'invalid-record');
          summary.invalid.push(`${path}:${site.line}: ${problems.join('; ')}`);
          continue;
        }
        records.push(record);
        bump(summary.sitesPerLanguage, LANGUAGE_NAME[language]);
      }
    }
    if (options.cache) {
      options.cache.clear();
      for (const [k, v] of used) options.cache.set(k, v);
    }
    summary.sites = records.length;
    summary.seconds = (performance.now() - started) / 1000;
    return { records, analyzedAt, summary };
  } finally {
    await pool.close();
  }
}
/** The schema's and the cross-field checks' problems with a record, as `field: message`. */
export function recordCheck(record: ErrorRecord): string[] {
  const parsed = errorRecordSchema.safeParse(record);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  return recordProblems(record).map((p) => `${p.field}: ${p.message}`);
}
