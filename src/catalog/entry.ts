/**
 * A catalog entry: a valid record, its text as the catalog gives it, and where it came from; and the
 * hash of that text, which stands for the record in other records' page keys.
 */
import { hash } from 'node:crypto';
import type { DatasetVersionFrom } from '../schema/input-forms.ts';
import type { ErrorRecord } from '../schema/record.ts';

export interface CatalogEntry {
  record: ErrorRecord;
  /** The wrapped record's JSON text exactly as it stands in the catalog: the page's JSON twin. */
  sourceText: string;
  /** The hash of the text, when a process read the entry without it (the lean snapshot: src/catalog/snapshot.ts). */
  textKey?: string;
  /** Where the entry's line is in the snapshot (its piece's name, the line's offset there and length), when read without its text: read whole from there (snapshot.ts `wholeEntry`). */
  snapshotLine?: { piece: string; offset: number; bytes: number };
  datasetVersion: string;
  /** Where the dataset version comes from when not from the record's own wrapper (a bare record: src/schema/input-forms.ts). */
  datasetVersionFrom?: Exclude<DatasetVersionFrom, 'record'>;
  origin: { file: string; line: number };
}

const textKeys = new WeakMap<object, string>();

/**
 * A record shown on another record's page stands in its key by the hash of its text, computed once
 * (or when the entry was read, if its text was then left out: src/catalog/snapshot.ts).
 */
export function textKey(entry: Pick<CatalogEntry, 'sourceText' | 'textKey'>): string {
  if (entry.textKey !== undefined) return entry.textKey;
  let key = textKeys.get(entry);
  if (key === undefined) textKeys.set(entry, (key = textHash(entry.sourceText)));
  return key;
}

/** Takes the hash of the entry's text already taken (by validation), so that it is not taken again. */
export function knownTextKey(entry: CatalogEntry, key: string): void {
  textKeys.set(entry, key);
}

/** The hash of a record's text that stands for it in other records' page keys. */
export const textHash = (text: string): string => hash('sha1', text);
