/**
 * Derive: everything the browse pages show that is computed from the whole catalog, once per
 * process. Pure over a Catalog; pages read it through the render context (src/context.ts).
 */
import type { FailureClass } from '../../schema/failure-class.ts';
import type { Severity } from '../../schema/record.ts';
import type { Catalog, CatalogEntry } from '../catalog.ts';
import { errorHeadline } from '../headline.ts';
import { directoryOf } from '../../util/text.ts';
import { errorPath } from '../../util/urls.ts';
import { shortenOnWord } from '../../schema/message-template.ts';
import { planLedger, type LedgerPlan } from '../ledger.ts';
import { messageGroups, placeLabels, type MessageGroup, type Scopes } from './message-groups.ts';
import { planMessagePages } from './message-ledger.ts';
import { relatedRowNames, type RowName } from './related-rows.ts';
import { titleHeadlines } from './titles.ts';
import { compareCodeOrder, relatedErrors, type RelatedLink, type RelatedReasons } from './related.ts';

export interface RepoSummary {
  repo: string;
  /** Grouped by directory, then file, then line: the order of the repository page. */
  entries: CatalogEntry[];
  files: number;
  severities: Record<Severity, number>;
  /** Newest analysis of any of its records. */
  analyzedAt: string;
}

export interface ClassSummary {
  cls: FailureClass;
  /** Grouped by repository, in code order. */
  entries: CatalogEntry[];
}

export interface TagSummary {
  tag: string;
  entries: CatalogEntry[];
}

export interface Related {
  entry: CatalogEntry;
  reasons: RelatedReasons;
  /** What its row says, where its message cut alone would read as another row's (related-rows.ts). */
  name?: RowName;
}

export interface Derived {
  repos: RepoSummary[];
  repoByName: Map<string, RepoSummary>;
  classes: ClassSummary[];
  classById: Map<string, ClassSummary>;
  tags: TagSummary[];
  related: Map<string, Related[]>;
  /** Most recently analysed first. */
  recent: CatalogEntry[];
  /** Messages raised in several places of one repository (src/catalog/derive/message-groups.ts). */
  messageGroups: MessageGroup[];
  messageGroupById: Map<string, MessageGroup>;
  /** The headline a record's page title shows, for the records whose headline cut alone would read as another message's (titles.ts). */
  titleHeadlines: Map<string, string>;
  /** Where a record is raised, for the records whose page title needs it to be told apart. */
  placeLabels: Map<string, string>;
  /** The enclosing functions the build read, of the records whose title needed them. */
  scopes: Scopes;
}

export const RECENT_COUNT = 12;

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `links`: the related errors of each entry, when already computed (see precomputedRelated); `scopes`:
 * the enclosing function of each record whose excerpt shows it (read by the build: message-groups.ts);
 * `titles`: the title headlines and place labels, when the build worked them out once for every
 * process (the snapshot's head).
 */
export function deriveCatalog(
  catalog: Catalog,
  links: RelatedLink[][] = relatedErrors(catalog.entries.map((e) => e.record)),
  scopes: Scopes = {},
  titles?: { headlines: Map<string, string>; places: Map<string, string> },
): Derived {
  const listings = browseListings(catalog.entries, catalog.classes);

  if (links.length !== catalog.entries.length) throw new Error(`related errors for ${links.length} records, but the catalog has ${catalog.entries.length}`);
  const related = new Map<string, Related[]>();
  catalog.entries.forEach((e, i) => {
    const rows = links[i]!.map((l) => catalog.entries[l.index]!);
    const names = relatedRowNames(
      rows.map((r) => r.record),
      scopes,
    );
    related.set(
      e.record.id,
      links[i]!.map((l, k) => (names[k] ? { entry: rows[k]!, reasons: l.reasons, name: names[k] } : { entry: rows[k]!, reasons: l.reasons })),
    );
  });

  const recent = [...catalog.entries].sort((a, b) => cmp(b.record.analyzedAt, a.record.analyzedAt) || cmp(a.record.id, b.record.id)).slice(0, RECENT_COUNT);

  const groups = messageGroups(catalog.entries);
  const messageGroupById = new Map<string, MessageGroup>();
  for (const g of groups) for (const e of g.entries) messageGroupById.set(e.record.id, g);

  const records = catalog.entries.map((e) => e.record);
  const headlines = titles?.headlines ?? titleHeadlines(records);
  return {
    ...listings,
    related,
    recent,
    messageGroups: groups,
    messageGroupById,
    titleHeadlines: headlines,
    placeLabels: titles?.places ?? placeLabels(records, scopes, headlines),
    scopes,
  };
}

/** The browse listings' errors in page order: each repository's, failure class's and tag's (also read by the list-index stage). */
export function browseListings(
  entries: readonly CatalogEntry[],
  classes: readonly FailureClass[],
): Pick<Derived, 'repos' | 'repoByName' | 'classes' | 'classById' | 'tags'> {
  const inCodeOrder = [...entries].sort((a, b) => compareCodeOrder(a.record, b.record));

  const repoByName = new Map<string, RepoSummary>();
  for (const e of inCodeOrder) {
    const r = e.record;
    let s = repoByName.get(r.repo);
    if (!s) {
      s = { repo: r.repo, entries: [], files: 0, severities: { critical: 0, error: 0, warning: 0, info: 0 }, analyzedAt: '' };
      repoByName.set(r.repo, s);
    }
    if (s.entries.at(-1)?.record.filePath !== r.filePath) s.files++;
    s.entries.push(e);
    s.severities[r.severity]++;
    if (r.analyzedAt > s.analyzedAt) s.analyzedAt = r.analyzedAt;
  }

  const classById = new Map<string, ClassSummary>(classes.map((cls) => [cls.id, { cls, entries: [] }]));
  const tagMap = new Map<string, CatalogEntry[]>();
  for (const e of inCodeOrder) {
    if (e.record.backgroundTag) classById.get(e.record.backgroundTag)?.entries.push(e);
    for (const t of new Set(e.record.tags)) {
      let list = tagMap.get(t);
      if (!list) tagMap.set(t, (list = []));
      list.push(e);
    }
  }
  for (const s of repoByName.values()) s.entries.sort(compareDirectoryOrder);
  return {
    repos: [...repoByName.values()].sort((a, b) => cmp(a.repo, b.repo)),
    repoByName,
    classes: [...classById.values()],
    classById,
    tags: [...tagMap].map(([tag, entries]) => ({ tag, entries })).sort((a, b) => cmp(a.tag, b.tag)),
  };
}

/** What the URL ledger makes of this catalog: redirects for old slugs, notices for removed records. */
export function ledgerPlanFor(catalog: Catalog): LedgerPlan {
  const published = catalog.entries.map((e) => ({
    id: e.record.id,
    repo: e.record.repo,
    title: shortenOnWord(errorHeadline(e.record), LEDGER_TITLE_MAX),
    path: errorPath(e.record),
  }));
  const previous = catalog.ledger.ledger;
  if (previous === null) throw new Error(`${catalog.ledger.file}: a catalog read from a build's snapshot has no ledger entries; its plan is the snapshot's`);
  const plan = planLedger(previous, published, catalog.datasetVersion);
  const messages = planMessagePages(previous.messages ?? [], messageGroups(catalog.entries), catalog.entries, catalog.datasetVersion);
  if (messages.entries.length > 0) plan.ledger.messages = messages.entries;
  return { ...plan, messages };
}

const LEDGER_TITLE_MAX = 200;

/** Directory, then file name, then line: each directory's files together, before its subdirectories' files. */
export function compareDirectoryOrder(a: CatalogEntry, b: CatalogEntry): number {
  const x = a.record;
  const y = b.record;
  return cmp(directoryOf(x.filePath), directoryOf(y.filePath)) || cmp(x.filePath, y.filePath) || (x.lineNumber ?? 0) - (y.lineNumber ?? 0) || cmp(x.id, y.id);
}
