/**
 * The site's data files beside the pages: a compact index of every error, the repositories, and a
 * manifest with counts and SHA-256 checksums so that mirrors and scripts can tell what they hold.
 * Each text is made once per build; the manifest hashes the very strings that are published.
 */
import { createHash } from 'node:crypto';
import { siteConfig } from '../../errdex.config.mjs';
import type { Catalog, CatalogEntry } from '../catalog/catalog.ts';
import type { Derived } from '../catalog/derive/index.ts';
import type { LedgerPlan } from '../catalog/ledger.ts';
import { catalogVerdict, readVerdicts, redosFile } from '../catalog/redos.ts';
import { API_ERRORS_PATH, API_REPOS_PATH, SCHEMA_PATH, absoluteUrl, errorPath, repoPath } from '../util/urls.ts';
import { servedSchemaText } from './schemas.ts';

export const ERROR_INDEX_FIELDS = ['id', 'repo', 'slug', 'errorClass', 'errorMessage', 'severity', 'backgroundTag', 'filePath', 'lineNumber'] as const;

/**
 * `/api/errors.json`: one array per error (fields named once), in catalog order. A page is `/{repo}/{slug}/`.
 * The last column, `redos`, is how the pattern behaves on a backtracking engine: the verdict in the
 * catalog's redos.json, an input of the build (src/catalog/redos.ts).
 */
export function errorsIndexText(catalog: Catalog): string {
  // Its endpoint and the manifest's checksum of it ask for it: made once per catalog (at 100k records, 23 MB).
  let text = errorsIndexTexts.get(catalog);
  if (text === undefined) errorsIndexTexts.set(catalog, (text = makeErrorsIndexText(catalog)));
  return text;
}

const errorsIndexTexts = new WeakMap<Catalog, string>();

function makeErrorsIndexText(catalog: Catalog): string {
  const verdicts = readVerdicts(redosFile(catalog.root));
  const redos = (pattern: string) => catalogVerdict(verdicts, pattern).backtracking;
  const rows = catalog.entries.map((e) => JSON.stringify([...ERROR_INDEX_FIELDS.map((f) => e.record[f]), redos(e.record.messagePattern)]));
  return `{"datasetVersion":${JSON.stringify(catalog.datasetVersion)},"count":${rows.length},"page":"/{repo}/{slug}/","fields":${JSON.stringify([...ERROR_INDEX_FIELDS, 'redos'])},"errors":[\n${rows.join(',\n')}\n]}\n`;
}

/** `/api/repos.json`: every repository with its counts. */
export function reposText(catalog: Catalog, derived: Derived): string {
  const repos = derived.repos.map((s) => ({
    repo: s.repo,
    path: repoPath(s.repo),
    errors: s.entries.length,
    files: s.files,
    severities: s.severities,
    analyzedAt: s.analyzedAt,
  }));
  return `${JSON.stringify({ datasetVersion: catalog.datasetVersion, count: repos.length, repos }, null, 1)}\n`;
}

/** `/schema/error-record.json`. */
export function schemaText(): string {
  return servedSchemaText('error-record');
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const fileInfo = (text: string) => ({ bytes: Buffer.byteLength(text), sha256: sha256(text) });

const inIdOrder = (entries: readonly CatalogEntry[]): CatalogEntry[] => [...entries].sort((a, b) => (a.record.id < b.record.id ? -1 : 1));

/**
 * The manifest's checksum of the JSON twins: sha256 of every twin in id order, each followed by a
 * newline. Hashed twin by twin: joined first, 100k twins would make one string of hundreds of MB.
 */
export const twinsSha256 = (entries: readonly CatalogEntry[]): string => hashTwins(inIdOrder(entries));

/** twinsSha256 of twins already in id order. */
function hashTwins(twins: readonly CatalogEntry[]): string {
  const hash = createHash('sha256');
  for (const e of twins) {
    if (e.textKey !== undefined) throw new Error(`the JSON twin of ${e.record.id} was not read (a render process holds no record's text): the build hands the twins' checksum over in the snapshot's head`);
    hash.update(e.sourceText, 'utf8').update('\n');
  }
  return hash.digest('hex');
}

/** `/api/manifest.json`: counts, and checksums of the data files and of all JSON twins together. */
export function manifestText(catalog: Catalog, derived: Derived, plan: LedgerPlan): string {
  // The first by id, without sorting every entry: they are sorted only to be hashed, when no checksum was handed over.
  const first = catalog.entries.reduce<CatalogEntry | undefined>((min, e) => (min === undefined || e.record.id < min.record.id ? e : min), undefined);
  const manifest = {
    siteName: siteConfig.siteName,
    siteUrl: absoluteUrl('/'),
    datasetVersion: catalog.datasetVersion,
    counts: {
      errors: catalog.entries.length,
      repositories: derived.repos.length,
      failureClasses: derived.classes.length,
      tags: derived.tags.length,
      removedEntries: plan.removed.length,
      movedUrls: plan.redirects.length,
    },
    files: {
      [API_ERRORS_PATH.slice(1)]: fileInfo(errorsIndexText(catalog)),
      [API_REPOS_PATH.slice(1)]: fileInfo(reposText(catalog, derived)),
      [SCHEMA_PATH.slice(1)]: fileInfo(schemaText()),
    },
    twins: {
      path: '/api/errors/{id}.json',
      count: catalog.entries.length,
      about: 'sha256 of every JSON twin in id order, each followed by a newline',
      sha256: catalog.twinsSha256 ?? twinsSha256(catalog.entries),
    },
    pages: { error: '/{repo}/{slug}/', shortLink: '/e/{id}/', example: first ? errorPath(first.record) : null },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
