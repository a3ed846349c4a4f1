/**
 * `--merge`: a new scan against the catalog an earlier scan (maybe edited by people since) made.
 * Sites are matched by id; the ones left over are paired when they are recognisably the same site
 * (same file and similar wording: the message was edited; or the same message and class in one other
 * file: the file was renamed), and a paired site keeps its old id so that the build's URL ledger
 * redirects its old URL. Prose a person wrote (text without the generated mark, lists and code fields
 * the scanner leaves empty) is kept; unmatched old records are gone, and the ledger says so.
 */
import type { ErrorRecord } from '../schema/record.ts';
import { slugOf } from './ids.ts';
import { GENERATED_MARK } from './record.ts';

export interface MergeReport {
  added: ErrorRecord[];
  /** Same site, message or class edited: the new record keeps the old id. */
  changed: { before: ErrorRecord; after: ErrorRecord }[];
  /** Same message in a renamed file: the new record keeps the old id. */
  moved: { before: ErrorRecord; after: ErrorRecord }[];
  gone: ErrorRecord[];
  unchanged: number;
  /** Records that kept at least one field a person wrote. */
  keptProse: number;
}

const PROSE_TEXT = ['documentation', 'triggerScenarios', 'commonSituations'] as const;
const PROSE_LISTS = ['solutions', 'preventionTips'] as const;
const PROSE_NULLABLE = ['exampleFix', 'validationCode', 'typeGuard', 'tryCatchPattern', 'handlingStrategy', 'backgroundTag', 'errorCode', 'httpStatus'] as const;

const words = (message: string): Set<string> => new Set(message.toLowerCase().replace(/\{[^{}]*\}/g, ' ').match(/\p{L}[\p{L}\p{N}_']*/gu) ?? []);

function similarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  let both = 0;
  for (const w of wa) if (wb.has(w)) both++;
  return both / (wa.size + wb.size - both);
}

/** The new record with the person-written fields of the old one. */
function keepProse(after: ErrorRecord, before: ErrorRecord): { record: ErrorRecord; kept: boolean } {
  const record: ErrorRecord = { ...after };
  let kept = false;
  for (const f of PROSE_TEXT) {
    if (!before[f].includes(GENERATED_MARK)) {
      record[f] = before[f];
      kept = true;
    }
  }
  for (const f of PROSE_LISTS) {
    if (before[f].length > 0) {
      record[f] = before[f];
      kept = true;
    }
  }
  for (const f of PROSE_NULLABLE) {
    if (before[f] !== null) {
      (record as Record<string, unknown>)[f] = before[f];
      kept = true;
    }
  }
  if (before.errorType === after.errorType && before.severity !== after.severity) {
    record.severity = before.severity;
    kept = true;
  }
  const extraTags = before.tags.filter((t) => !after.tags.includes(t));
  if (extraTags.length > 0) record.tags = [...after.tags, ...extraTags].slice(0, 50);
  // A slug a person chose stays while the message does.
  if (before.errorMessage === after.errorMessage && before.slug !== slugOf(before.errorMessage, before.id)) record.slug = before.slug;
  return { record, kept };
}

/** Gives `after` the old record's id (and the slug that goes with it). */
function takeId(after: ErrorRecord, before: ErrorRecord): ErrorRecord {
  return { ...after, id: before.id, slug: slugOf(after.errorMessage, before.id) };
}

export function mergeRecords(scanned: readonly ErrorRecord[], previous: readonly ErrorRecord[]): { records: ErrorRecord[]; report: MergeReport } {
  const report: MergeReport = { added: [], changed: [], moved: [], gone: [], unchanged: 0, keptProse: 0 };
  const oldById = new Map(previous.map((r) => [r.id, r]));
  const pairs = new Map<ErrorRecord, ErrorRecord>(); // new -> old
  const leftNew: ErrorRecord[] = [];
  for (const r of scanned) {
    const before = oldById.get(r.id);
    if (before) {
      pairs.set(r, before);
      oldById.delete(r.id);
    } else leftNew.push(r);
  }

  // Edited messages: same file, similar words; best pairs first.
  const candidates: { a: ErrorRecord; b: ErrorRecord; score: number }[] = [];
  const oldByFile = new Map<string, ErrorRecord[]>();
  for (const b of oldById.values()) oldByFile.set(b.filePath, [...(oldByFile.get(b.filePath) ?? []), b]);
  for (const a of leftNew) {
    for (const b of oldByFile.get(a.filePath) ?? []) {
      const score = similarity(a.errorMessage, b.errorMessage) + (a.errorClass === b.errorClass ? 0.1 : 0);
      if (score >= 0.5) candidates.push({ a, b, score: score - Math.abs((a.lineNumber ?? 0) - (b.lineNumber ?? 0)) * 1e-6 });
    }
  }
  candidates.sort((x, y) => y.score - x.score);
  const pairedOld = new Set<ErrorRecord>();
  const changed = new Set<ErrorRecord>();
  for (const { a, b } of candidates) {
    if (pairs.has(a) || pairedOld.has(b)) continue;
    pairs.set(a, b);
    pairedOld.add(b);
    changed.add(a);
  }

  // Renamed files: the same message and class, once on each side.
  const sig = (r: ErrorRecord) => `${r.errorClass ?? ''}\n${r.errorMessage}`;
  const count = (rs: Iterable<ErrorRecord>) => {
    const m = new Map<string, ErrorRecord[]>();
    for (const r of rs) m.set(sig(r), [...(m.get(sig(r)) ?? []), r]);
    return m;
  };
  const oldLeft = count([...oldById.values()].filter((b) => !pairedOld.has(b)));
  const newLeft = count(leftNew.filter((a) => !pairs.has(a)));
  const movedNew = new Set<ErrorRecord>();
  for (const [key, as] of newLeft) {
    const bs = oldLeft.get(key);
    if (as.length === 1 && bs?.length === 1) {
      pairs.set(as[0]!, bs[0]!);
      pairedOld.add(bs[0]!);
      movedNew.add(as[0]!);
    }
  }

  const records: ErrorRecord[] = [];
  for (const r of scanned) {
    const before = pairs.get(r);
    if (!before) {
      report.added.push(r);
      records.push(r);
      continue;
    }
    const withId = before.id === r.id ? r : takeId(r, before);
    const { record, kept } = keepProse(withId, before);
    if (kept) report.keptProse++;
    if (changed.has(r)) report.changed.push({ before, after: record });
    else if (movedNew.has(r)) report.moved.push({ before, after: record });
    else report.unchanged++;
    records.push(record);
  }
  for (const b of oldById.values()) if (!pairedOld.has(b)) report.gone.push(b);
  return { records, report };
}

export function mergeReportLines(report: MergeReport, limit = 20): string[] {
  const lines = [
    `merge: ${report.unchanged} unchanged, ${report.changed.length} changed, ${report.moved.length} moved to another file, ` +
      `${report.added.length} added, ${report.gone.length} gone; person-written prose kept on ${report.keptProse}.`,
  ];
  const list = (label: string, items: string[]) => {
    for (const item of items.slice(0, limit)) lines.push(`  ${label.padEnd(8)}${item}`);
    if (items.length > limit) lines.push(`  ${label.padEnd(8)}… and ${items.length - limit} more`);
  };
  list('changed', report.changed.map(({ before, after }) => `${after.filePath}:${after.lineNumber} ${before.id}: ${JSON.stringify(before.errorMessage)} -> ${JSON.stringify(after.errorMessage)}`));
  list('moved', report.moved.map(({ before, after }) => `${before.filePath} -> ${after.filePath} ${before.id}`));
  list('added', report.added.map((r) => `${r.filePath}:${r.lineNumber} ${r.id}: ${JSON.stringify(r.errorMessage)}`));
  list('gone', report.gone.map((r) => `${r.filePath}:${r.lineNumber} ${r.id}: ${JSON.stringify(r.errorMessage)}`));
  return lines;
}
