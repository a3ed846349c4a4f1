/**
 * What an error page says of its raise site's history (the record's optional `history`, written by
 * `npm run scan -- --history … --out …`): since when it is raised, the earlier wordings of its
 * message, and whether it is gone. Pure: the page renders what this returns.
 */
import type { ErrorRecord, HistoryRevision } from '../schema/record.ts';
import { isoDate } from '../util/text.ts';

export interface RevisionView {
  name: string;
  date: string;
  /** The repository's tree at that commit. */
  href: string;
}

export interface HistoryView {
  since: RevisionView;
  /** The site was already there at the first revision scanned: it may be older. */
  orEarlier: boolean;
  /** Earlier wordings, newest change first: each change's revision and the message before it. */
  changes: { at: RevisionView; before: string }[];
  removed: RevisionView | null;
}

const revisionView = (repo: string, r: HistoryRevision): RevisionView => ({ name: r.name, date: isoDate(r.date), href: `https://github.com/${repo}/tree/${r.sha}` });

export function historyView(r: Pick<ErrorRecord, 'repo' | 'history'>): HistoryView | null {
  const h = r.history;
  if (!h) return null;
  return {
    since: revisionView(r.repo, h.introduced),
    orEarlier: h.introduced.sha === h.scannedFrom.sha,
    changes: h.messageChanges.map((c) => ({ at: revisionView(r.repo, c.at), before: c.errorMessage })).reverse(),
    removed: h.removed ? revisionView(r.repo, h.removed) : null,
  };
}

/** The header's words after "Raised in …", as text: what the first screen's estimate counts (first-screen.ts). */
export function historyLineText(v: HistoryView): string {
  const parts = [`since ${v.since.name}${v.orEarlier ? ' or earlier' : ''}`];
  if (v.changes[0]) parts.push(`message changed in ${v.changes[0].at.name}`);
  return ` · ${parts.join(' · ')}`;
}
