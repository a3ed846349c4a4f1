/**
 * A record's row key: what a listing shows of it (every field but its code and prose), hashed once.
 * The listing pages' keys are made of their records' row keys (src/catalog/page-cache.ts); the lean
 * snapshot carries each record's, made when its piece is written (src/catalog/snapshot.ts), so that
 * the processes that key listing pages do not make it again for every record.
 */
import { hash } from 'node:crypto';
import type { CatalogEntry } from './entry.ts';
import { isCodeOrProse } from './record-fields.ts';

const rowKeys = new WeakMap<object, string>();

/** The record's row key (the record's own fields are left out by name: a nested field of that name stays). */
export function rowKey(record: CatalogEntry['record']): string {
  let key = rowKeys.get(record);
  if (key === undefined) {
    const shown = JSON.stringify(record, function (this: unknown, k: string, v: unknown) {
      return this === record && isCodeOrProse(k) ? undefined : v;
    });
    rowKeys.set(record, (key = hash('sha1', shown)));
  }
  return key;
}

/** Takes a record's row key already made (the lean snapshot's), so that it is not made again. */
export function knownRowKey(record: CatalogEntry['record'], key: string): void {
  rowKeys.set(record, key);
}
