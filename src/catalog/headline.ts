/**
 * A record's headline, `Class: message`: the error as a terminal would show it. The catalog's URL
 * ledger titles, the pages' titles and the full-text documents all start from it.
 */
import type { ErrorRecord } from '../schema/record.ts';

export function errorHeadline(r: Pick<ErrorRecord, 'errorClass' | 'errorMessage'>): string {
  const message = r.errorMessage.replace(/\s+/g, ' ').trim();
  return r.errorClass ? `${r.errorClass}: ${message}` : message;
}

/** The most characters of a headline a page title shows (cut on a word boundary); the title adds where it is raised when that is needed to tell pages apart. */
export const TITLE_MAX = 70;

/** A title's headline when a place follows it: shorter, so the place still shows in a tab or a result. */
export const PLACED_TITLE_MAX = 56;
