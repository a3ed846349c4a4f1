/**
 * The URL ledger's guarantee for message pages (`/{owner}/{repo}/m/{message-slug}/`): once published,
 * a message page's URL keeps answering. While two or more records of its repository raise the message
 * it is the message page; when one record is left, it redirects to that record's page; when none is,
 * it says the message is gone, since which dataset version, and offers a search for it. The ledger
 * file keeps every message page path published (`messages`, beside the records' `entries`).
 */
import type { CatalogEntry } from '../entry.ts';
import type { MessageGroup } from './message-groups.ts';
import { messagePath } from './message-groups.ts';
import { errorPath } from '../../util/urls.ts';
import type { MessagePageEntry, MessagePagePlan } from '../ledger.ts';

export type { MessagePageEntry, MessagePagePlan };

const TITLE_MAX = 200;
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function planMessagePages(previous: readonly MessagePageEntry[], groups: readonly MessageGroup[], entries: readonly CatalogEntry[], datasetVersion: string): MessagePagePlan {
  const old = new Map(previous.map((e) => [e.path, e]));
  const live = new Set<string>();
  const out: MessagePageEntry[] = [];
  for (const g of groups) {
    live.add(g.path);
    const before = old.get(g.path);
    out.push({ path: g.path, repo: g.repo, title: g.message.slice(0, TITLE_MAX), since: before?.since ?? datasetVersion, goneIn: null });
  }
  // Where each old message page's message stands now: raised by one record, or by none.
  const raisedBy = new Map<string, CatalogEntry[]>();
  const wanted = new Set(previous.filter((e) => !live.has(e.path)).map((e) => e.path));
  if (wanted.size > 0) {
    for (const e of entries) {
      const path = messagePath(e.record);
      if (wanted.has(path)) raisedBy.set(path, [...(raisedBy.get(path) ?? []), e]);
    }
  }
  const redirects: MessagePagePlan['redirects'] = [];
  const gone: MessagePageEntry[] = [];
  for (const e of previous) {
    if (live.has(e.path)) continue;
    const one = raisedBy.get(e.path)?.[0];
    if (one) {
      redirects.push({ from: e.path, to: errorPath(one.record) });
      out.push({ ...e, goneIn: null });
    } else {
      const entry = { ...e, goneIn: e.goneIn ?? datasetVersion };
      gone.push(entry);
      out.push(entry);
    }
  }
  out.sort((a, b) => cmp(a.path, b.path));
  return { entries: out, redirects: redirects.sort((a, b) => cmp(a.from, b.from)), gone: gone.sort((a, b) => cmp(a.path, b.path)) };
}
