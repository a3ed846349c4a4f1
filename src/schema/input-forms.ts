/**
 * The forms a record comes in. A catalog file or line holds a wrapped record
 * `{"record": {...}, "datasetVersion": "..."}`, a bare record (the record object alone, as other
 * error catalogs publish their entries), or an array of either. Keys starting with `$` (`$schema`,
 * `$comment`) are notes for people and tools, allowed and ignored.
 *
 * Whatever the input form, errdex publishes the wrapped form as the record's JSON twin. A bare record
 * has no dataset version of its own: it takes the newest of its file's wrapped records, else the
 * catalog's, else the build's, and its twin says which (`$datasetVersionFrom`), as does its page.
 */
import { errorRecordSchema, type ErrorRecord } from './record.ts';

/** Where a record's dataset version comes from: its own wrapper, or, for a bare record, the first of these that has one. */
export type DatasetVersionFrom = 'record' | 'file' | 'catalog' | 'build';

const RECORD_FIELDS = new Set(Object.keys(errorRecordSchema.shape));

/** `obj` without its `$` keys (the same object when it has none). */
export function withoutNotes(obj: Record<string, unknown>): Record<string, unknown> {
  let notes = false;
  for (const key in obj) if (key.startsWith('$')) notes = true;
  if (!notes) return obj;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) if (!key.startsWith('$')) out[key] = value;
  return out;
}

/** An object with no `record` key and at least one field of a record: a record given without its wrapper. */
export function isBareRecord(obj: Record<string, unknown>): boolean {
  if ('record' in obj) return false;
  for (const key in obj) if (RECORD_FIELDS.has(key)) return true;
  return false;
}

/** The record in a parsed catalog value, wrapped or bare, before validation (may hold anything). */
export function recordOf(value: unknown): Record<string, unknown> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const obj = value as Record<string, unknown>;
  if (isBareRecord(obj)) return obj;
  const record = obj.record;
  return record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>) : null;
}

/** The JSON twin of a bare record: the wrapped form, its record the catalog's text exactly. */
export function wrappedTwin(bareText: string, datasetVersion: string, from: Exclude<DatasetVersionFrom, 'record'>): string {
  return `{"record":${bareText.trim()},"datasetVersion":${JSON.stringify(datasetVersion)},"$datasetVersionFrom":${JSON.stringify(from)}}`;
}

/**
 * The validated record again from its JSON twin (a render process reads twins, not catalog files):
 * the twin is the validated text, so only what the schema fills in is filled in again (notes dropped,
 * `backgroundTag` null when absent).
 */
export function readTwin(text: string): { record: ErrorRecord; datasetVersionFrom: DatasetVersionFrom } {
  const twin = JSON.parse(text) as { record: Record<string, unknown>; $datasetVersionFrom?: DatasetVersionFrom };
  const record = withoutNotes(twin.record);
  record.backgroundTag ??= null;
  return { record: record as unknown as ErrorRecord, datasetVersionFrom: twin.$datasetVersionFrom ?? 'record' };
}
