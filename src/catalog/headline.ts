/**
 * A record's headline, `Class: message`: the error as a terminal would show it. The catalog's URL
 * ledger titles, the pages' titles and the full-text documents all start from it.
 */
import type { ErrorRecord } from '../schema/record.ts';

export function errorHeadline(r: Pick<ErrorRecord, 'errorClass' | 'errorMessage'>): string {
  const message = r.errorMessage.replace(/\s+/g, ' ').trim();
  return r.errorClass ? `${r.errorClass}: ${message}` : message;
}
