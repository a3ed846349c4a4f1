/**
 * One message, many raise sites: the records of one repository that share an `errorMessage` (a
 * message group, listed on its message page `/{owner}/{repo}/m/{message-slug}/`), and the place
 * label that tells apart pages whose titles would otherwise be the same (`command.rs, Command.mut_arg`).
 *
 * Labels need each record's enclosing function, read from the source excerpts (src/search/raise-site.ts):
 * the build reads them once, with every excerpt at hand, and hands them on in the snapshot's head;
 * render processes, which hold only their own partition's code, take them from there.
 */
import { hash } from 'node:crypto';
import type { ErrorRecord } from '../../schema/record.ts';
import { shortenOnWord } from '../../schema/message-template.ts';
import type { CatalogEntry } from '../entry.ts';
import { slugWords } from '../../util/text.ts';
import { compareCodeOrder } from './related.ts';
import { shownHeadline, tellApart, titleHeadline, titleHeadlines } from './titles.ts';

export interface MessageGroup {
  repo: string;
  message: string;
  /** The message page's path (messagePath). */
  path: string;
  /** Every record raising it, in code order (file, then line). */
  entries: CatalogEntry[];
  /** The exception class its places share; null when they differ or have none. */
  errorClass: string | null;
  /** The headline (`Class: message`) as its page title shows it: cut, keeping the words that tell it from the repository's other message pages (titles.ts). */
  titleHeadline: string;
}

/** The most characters of the headline a message page's title shows: it adds how many places raise it. */
export const MESSAGE_TITLE_MAX = 56;

/** The enclosing function (`Class.method`) of records whose scope is known, by id. */
export type Scopes = Record<string, string>;

type GroupFields = Pick<ErrorRecord, 'repo' | 'errorMessage'>;

const groupKey = (r: GroupFields): string => `${r.repo}\u0000${r.errorMessage}`;

/** The words of a message (placeholders by name), as record slugs are made. */
const messageWords = (message: string): string => slugWords(message) || 'message';

/**
 * The message page of a record's message, `/{owner}/{repo}/m/{words}-{hash}/`: a function of the
 * repository and the message text alone, so it stays while the message does. The page exists when
 * two or more records of the repository raise the message (messageGroups); search may link it
 * wherever a paste cannot tell those records apart.
 */
export function messagePath(r: GroupFields): string {
  return `/${r.repo}/m/${messageWords(r.errorMessage)}-${hash('sha1', r.errorMessage).slice(0, 8)}/`;
}

/** The records sharing a message with at least one other record of their repository, one group per message, by repository then message. */
export function messageGroups(entries: readonly CatalogEntry[]): MessageGroup[] {
  const byKey = new Map<string, CatalogEntry[]>();
  for (const e of entries) {
    const key = groupKey(e.record);
    const list = byKey.get(key);
    if (list) list.push(e);
    else byKey.set(key, [e]);
  }
  const groups: MessageGroup[] = [];
  for (const list of byKey.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => compareCodeOrder(a.record, b.record));
    const r = list[0]!.record;
    const errorClass = list.every((e) => e.record.errorClass === r.errorClass) ? r.errorClass : null;
    groups.push({ repo: r.repo, message: r.errorMessage, path: messagePath(r), entries: list, errorClass, titleHeadline: '' });
  }
  groups.sort((a, b) => cmp(a.repo, b.repo) || cmp(a.message, b.message));
  // Titles cut to the same words (long messages that open alike) keep the words that differ; the
  // whole headline where even those cannot (different messages have different headlines).
  const headline = (g: MessageGroup): string => shownHeadline({ errorClass: g.errorClass, errorMessage: g.message });
  for (let i = 0; i < groups.length; ) {
    let end = i;
    while (end < groups.length && groups[end]!.repo === groups[i]!.repo) end++;
    const repoGroups = groups.slice(i, end);
    const heads = repoGroups.map(headline);
    const cuts = heads.map((h) => shortenOnWord(h, MESSAGE_TITLE_MAX));
    const forms = tellApart(heads, MESSAGE_TITLE_MAX);
    const count = new Map<string, number>();
    for (const c of cuts) count.set(c, (count.get(c) ?? 0) + 1);
    repoGroups.forEach((g, k) => {
      g.titleHeadline = forms.get(heads[k]!) ?? (count.get(cuts[k]!)! > 1 ? heads[k]! : cuts[k]!);
    });
    i = end;
  }
  return groups;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

type PlaceFields = Pick<ErrorRecord, 'id' | 'repo' | 'errorClass' | 'errorMessage' | 'filePath' | 'lineNumber'>;

/** What a page title starts from: the headline as the title shows it (titles.ts), in its repository. */
export const titleKey = (r: PlaceFields, headlines: ReadonlyMap<string, string>): string => `${r.repo}\u0000${titleHeadline(r, headlines)}`;

/** For each of some file paths, its shortest ending (whole folder and file names) that no other of them shares. */
function shortestEndings(paths: readonly string[]): Map<string, string> {
  const distinct = [...new Set(paths)];
  const ending = (p: string, k: number) => p.split('/').slice(-k).join('/');
  const out = new Map<string, string>();
  for (const path of distinct) {
    const segments = path.split('/').length;
    let n = 1;
    while (n < segments && distinct.some((other) => other !== path && ending(other, n) === ending(path, n))) n++;
    out.set(path, ending(path, n));
  }
  return out;
}

/** Labels that more than one record has: those records need more detail. */
function sharedLabels(labels: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const l of labels) (seen.has(l) ? shared : seen).add(l);
  return shared;
}

/** The records whose page title is another's: they need a place label, and so their scope. */
export function sharedTitles<T extends PlaceFields>(records: readonly T[], headlines: ReadonlyMap<string, string> = titleHeadlines(records)): T[] {
  // Each record's key once: a title's headline is worked out from the message (on every build's path).
  const keys = records.map((r) => titleKey(r, headlines));
  const count = new Map<string, number>();
  for (const key of keys) count.set(key, (count.get(key) ?? 0) + 1);
  return records.filter((_, i) => count.get(keys[i]!)! > 1);
}

/**
 * The label of each record whose page title would be another's (the same headline as titles show it,
 * titles.ts, in the same repository: in practice one message raised in several places): see labelPlaces.
 */
export function placeLabels(
  records: readonly PlaceFields[],
  scopes: Scopes,
  headlines: ReadonlyMap<string, string> = titleHeadlines(records),
): Map<string, string> {
  const byTitle = new Map<string, PlaceFields[]>();
  for (const r of records) {
    const key = titleKey(r, headlines);
    const list = byTitle.get(key);
    if (list) list.push(r);
    else byTitle.set(key, [r]);
  }
  const labels = new Map<string, string>();
  for (const group of byTitle.values()) {
    if (group.length < 2) continue;
    labelPlaces(group, scopes).forEach((label, i) => labels.set(group[i]!.id, label));
  }
  return labels;
}

/**
 * Labels that tell apart the places of some records: the shortest ending of each file's path that
 * tells the group's files apart, and its enclosing function; its line where the group has another
 * record of the same file and function, and its id's start where even that is shared.
 */
export function labelPlaces(group: readonly PlaceFields[], scopes: Scopes): string[] {
  const endings = shortestEndings(group.map((r) => r.filePath));
  const label = (r: PlaceFields, line: boolean, id: boolean) => {
    let place = endings.get(r.filePath)!;
    if (line && r.lineNumber !== null) place += `:${r.lineNumber}`;
    if (id) place += ` #${r.id.slice(0, 8)}`;
    const scope = scopes[r.id];
    return scope ? `${place}, ${scope}` : place;
  };
  let chosen = group.map((r) => label(r, false, false));
  let shared = sharedLabels(chosen);
  chosen = group.map((r, i) => (shared.has(chosen[i]!) ? label(r, true, false) : chosen[i]!));
  shared = sharedLabels(chosen);
  return group.map((r, i) => (shared.has(chosen[i]!) ? label(r, true, true) : chosen[i]!));
}
