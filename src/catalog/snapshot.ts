/**
 * Catalog snapshots: the build validates the catalog once, then hands the render processes and the
 * stages beside them the valid entries as a snapshot file, so that no process validates again. Each
 * reads what it needs of the entries (SnapshotKeep), or their lean form (below); a render process
 * reads none whole, and each page its own record from its line (`wholeEntry`).
 *
 * One entry per line: `[file, line, datasetVersion, id]`, a tab, then the entry's source text as the
 * catalog gives it. The record is the source text's `record`: the schema changes nothing it
 * validates, so parsing again gives the validated record. The text follows the tab as it is, so that
 * each of the processes that read the snapshot parses it once, not once escaped inside the line and
 * again; a text that holds a line break (a record file written over several lines) would end the
 * line, so that entry is written `[file, line, datasetVersion, id, sourceText]` instead. JSON.stringify
 * writes no raw tab, inside strings or between values: a line holds a tab only in the first form.
 *
 * Beside it, the lean snapshot, written with it: each entry's record without its code and its prose
 * but the documentation (a rich record's bytes are mostly these), the hash of its text and where its
 * line is in the snapshot. The stages that read every record but show none whole (the render's
 * listings and related errors, the record files' short links, the message index, the filter indexes)
 * parse it, a fifth of the snapshot, instead of every record whole each; a page reads its own record
 * whole from the snapshot (`wholeEntry`). One line per entry, in the snapshot's order:
 * `[file, line, datasetVersion, id, textKey, offset, bytes, datasetVersionFrom, rowKey]`, a tab, the
 * record; `rowKey` is what a listing shows of it, hashed (src/catalog/row-key.ts), made once with
 * the piece instead of by every process that keys listing pages.
 *
 * Both are written in pieces: the snapshot's own file lists the pieces' names, one per line, and each
 * piece is two files beside it, `<name>.jsonl` (its entries' lines) and `<name>-lean.jsonl` (their lean
 * lines, whose offsets are in the piece). A piece ends after an entry whose id's hash is a multiple of
 * PIECE_ENTRIES, so where pieces end depends on the ids alone: an edit of a record, or one added or
 * removed, changes one piece or two, and the others are the bytes the last build wrote. A piece's name
 * is a hash of all its bytes are made of (each entry's place, dataset version, id and text hash), so
 * the list stands for the snapshot's content, and a build that keeps pieces (`PieceStore`: the build
 * cache) writes only those it does not have: the snapshot is about the catalog's size, written on the
 * path every build waits on.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FailureClass } from '../schema/failure-class.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { readTwin } from '../schema/input-forms.ts';
import type { LedgerPlan } from './ledger.ts';
import { textKey, type CatalogEntry } from './entry.ts';
import { dropCode, dropProse } from './record-fields.ts';
import type { RelatedLink } from './derive/related.ts';
import type { Scopes } from './derive/message-groups.ts';
import { fnv1a } from './partition.ts';
import { knownRowKey, rowKey } from './row-key.ts';

/**
 * What the snapshot's processes need of the catalog besides its entries, as validation read it: the
 * failure classes, the titles that need telling apart (headlines, scopes and place labels), and where
 * the URL ledger is. Written once, beside the entries, so that no later process reads, checks or plans
 * them again. The ledger's plan for this catalog (src/catalog/derive/index.ts, ledgerPlanFor) is a
 * file of its own (`readLedgerPlan`): it holds an entry for every record ever published, which most
 * readers of the head do not need.
 */
export interface SnapshotHead {
  /** The catalog folder. */
  root: string;
  classes: FailureClass[];
  /** The URL ledger's file, and whether it was there (its plan: `readLedgerPlan`). */
  ledger: { file: string; exists: boolean };
  /** The enclosing function of each record whose page title needs it (src/catalog/derive/message-groups.ts). */
  scopes: Scopes;
  /** By record id, the headline of each record whose title needs one told apart from another's (src/catalog/derive/titles.ts `titleHeadlines`). */
  titleHeadlines: Record<string, string>;
  /** By record id, the place label of each record whose title another record shares (src/catalog/derive/message-groups.ts `placeLabels`). */
  placeLabels: Record<string, string>;
  /** The manifest's checksum of all JSON twins (src/views/api.ts): a render process holds no record's text. */
  twinsSha256: string;
}

/** Where the snapshot's ledger plan is, beside its head. */
export const ledgerPlanFile = (headPath: string): string => headPath.replace(/(\.json)?$/, '-ledger.json');

export function writeHead(path: string, head: SnapshotHead, ledgerPlan: LedgerPlan): void {
  writeFileSync(path, JSON.stringify(head));
  writeFileSync(ledgerPlanFile(path), JSON.stringify(ledgerPlan));
}

export function readHead(path: string): SnapshotHead {
  return JSON.parse(readFileSync(path, 'utf8')) as SnapshotHead;
}

/** The ledger plan written beside the head at `headPath`. */
export function readLedgerPlan(headPath: string): LedgerPlan {
  return JSON.parse(readFileSync(ledgerPlanFile(headPath), 'utf8')) as LedgerPlan;
}

/** Entries of a snapshot piece, on average. */
const PIECE_ENTRIES = 4096;
/** A piece's name changes with this when what a piece's bytes hold changes. */
const PIECE_FORMAT = 'errdex-snapshot-piece 2';

/** A piece's two files. */
export interface PieceFiles {
  full: string;
  lean: string;
}

/**
 * Where a snapshot keeps its pieces from one build to the next (src/build/snapshot-pieces.ts). `take`
 * puts the piece kept under `key` at `files` and says whether it did; `keep` keeps the piece just
 * written there.
 */
export interface PieceStore {
  take: (key: string, files: PieceFiles) => boolean;
  keep: (key: string, files: PieceFiles) => void;
}

const pieceFiles = (path: string, name: string): PieceFiles => ({ full: join(dirname(path), `${name}.jsonl`), lean: join(dirname(path), `${name}-lean.jsonl`) });

/** The names of the snapshot's pieces, in order. */
const pieceNames = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((n) => n !== '');

/** The files of the snapshot's pieces, in order. */
export const snapshotPieces = (path: string): PieceFiles[] => pieceNames(path).map((name) => pieceFiles(path, name));

/** The bytes of the snapshot's entries (`lean`: of its lean snapshot). */
export const snapshotBytes = (path: string, lean = false): number => snapshotPieces(path).reduce((sum, p) => sum + statSync(lean ? p.lean : p.full).size, 0);

/** Where each piece ends (the index after its last entry). */
function pieceEnds(entries: readonly CatalogEntry[]): number[] {
  const ends: number[] = [];
  entries.forEach((e, i) => {
    if (fnv1a(e.record.id) % PIECE_ENTRIES === 0) ends.push(i + 1);
  });
  if (entries.length > 0 && ends.at(-1) !== entries.length) ends.push(entries.length);
  return ends;
}

/** The hash of all the piece's two files are made of: its entries' heads and text hashes (a record is its text's). */
function pieceKey(entries: readonly CatalogEntry[], start: number, end: number): string {
  const hash = createHash('sha1').update(PIECE_FORMAT);
  for (let i = start; i < end; i++) {
    const e = entries[i]!;
    hash.update('\n').update(JSON.stringify([e.origin.file, e.origin.line, e.datasetVersion, e.record.id, textKey(e), e.datasetVersionFrom ?? null]));
  }
  return hash.digest('hex');
}

/**
 * Writes the snapshot and its lean snapshot, in pieces; the pieces `store` keeps are taken from it,
 * not written. The entries' records are validation's, each as its text reads (the catalog's field
 * order: src/catalog/validate.ts), so that a line of the lean snapshot is what `readTwin` and dropping
 * the code and prose give of the entry's text. Returns the entries' count.
 */
export function writeSnapshot(path: string, entries: readonly CatalogEntry[], store?: PieceStore): number {
  const names: string[] = [];
  let start = 0;
  for (const end of pieceEnds(entries)) {
    const key = pieceKey(entries, start, end);
    const name = `${basename(path, '.jsonl')}.${key}`;
    const files = pieceFiles(path, name);
    if (!store?.take(key, files)) {
      writePiece(files, entries.slice(start, end));
      store?.keep(key, files);
    }
    names.push(name);
    start = end;
  }
  // A new file, never one written through.
  rmSync(path, { force: true });
  writeFileSync(path, names.map((n) => `${n}\n`).join(''));
  return entries.length;
}

function writePiece(files: PieceFiles, entries: readonly CatalogEntry[]): void {
  const full = lineWriter(files.full);
  const lean = lineWriter(files.lean);
  try {
    for (const e of entries) {
      const at = full.add(snapshotLine(e));
      // A copy keeps the fields' order; validation's records have dropped them already.
      const record = { ...e.record };
      dropCode(record);
      dropProse(record, true);
      const head: LeanHead = [e.origin.file, e.origin.line, e.datasetVersion, e.record.id, textKey(e), at.offset, at.bytes, e.datasetVersionFrom ?? null, rowKey(record)];
      lean.add(`${JSON.stringify(head)}\t${JSON.stringify(record)}`);
    }
    lean.end();
    full.end();
  } finally {
    full.close();
    lean.close();
  }
}

/** The snapshot's lines, piece after piece. */
function* snapshotLines(path: string): Generator<Buffer> {
  for (const [bytes] of lines(snapshotPieces(path).map((p) => p.full))) yield bytes;
}

/** The lean snapshot's lines, piece after piece, each with its piece's name. */
function* leanLines(path: string): Generator<[line: Buffer, piece: string]> {
  const names = pieceNames(path);
  for (const [bytes, piece] of lines(names.map((name) => pieceFiles(path, name).lean))) yield [bytes, names[piece]!];
}

type LeanHead = [file: string, line: number, datasetVersion: string, id: string, textKey: string, offset: number, bytes: number, datasetVersionFrom: CatalogEntry['datasetVersionFrom'] | null, rowKey: string];

/**
 * The entries of the lean snapshot beside the snapshot at `path`, one at a time: each record without
 * its code and prose (with `documentation`, its documentation kept), its text left out but its hash
 * and its line in the snapshot (`wholeEntry` reads it whole from there). `entry`: which are read at
 * all, by record id; the others' records are not parsed.
 */
export function* leanSnapshotEntries(path: string, keep: { entry?: (id: string) => boolean; documentation?: boolean } = {}): Generator<CatalogEntry & Pick<EntryPlace, 'snapshotLine'>> {
  for (const [bytes, piece] of leanLines(path)) {
    const tab = bytes.indexOf(0x09);
    const [file, line, datasetVersion, id, textKey, offset, size, from, row] = JSON.parse(bytes.toString('utf8', 0, tab)) as LeanHead;
    if (keep.entry && !keep.entry(id)) continue;
    const record = JSON.parse(bytes.toString('utf8', tab + 1)) as ErrorRecord;
    if (!keep.documentation) record.documentation = '';
    if (row !== undefined) knownRowKey(record, row);
    yield { record, sourceText: '', textKey, snapshotLine: { piece, offset, bytes: size }, datasetVersion, ...(from ? { datasetVersionFrom: from } : {}), origin: { file, line } };
  }
}

/** Where an entry is, as `leanSnapshotTextKeys` gives it without parsing its record: enough for `wholeEntry`. */
export interface EntryPlace {
  id: string;
  snapshotLine: NonNullable<CatalogEntry['snapshotLine']>;
}

/**
 * Each entry's text hash from the lean snapshot, in the snapshot's order, its record parsed only when
 * `record` is called (as `leanSnapshotEntries` gives it: its documentation kept with `documentation`),
 * which must be before the next entry is taken: the line is not kept. For a stage that keeps what it
 * made of each text. `place`: the record's id and its line in the snapshot.
 */
export function* leanSnapshotTextKeys(path: string, keep: { documentation?: boolean } = {}): Generator<[textKey: string, record: () => ErrorRecord, place: EntryPlace]> {
  for (const [bytes, piece] of leanLines(path)) {
    const tab = bytes.indexOf(0x09);
    const [, , , id, textKey, offset, size] = JSON.parse(bytes.toString('utf8', 0, tab)) as LeanHead;
    yield [
      textKey,
      () => {
        const record = JSON.parse(bytes.toString('utf8', tab + 1)) as ErrorRecord;
        if (!keep.documentation) record.documentation = '';
        return record;
      },
      { id, snapshotLine: { piece, offset, bytes: size } },
    ];
  }
}

function snapshotLine(e: CatalogEntry): string {
  const head = [e.origin.file, e.origin.line, e.datasetVersion, e.record.id];
  return e.sourceText.includes('\n') ? JSON.stringify([...head, e.sourceText]) : `${JSON.stringify(head)}\t${e.sourceText}`;
}

/**
 * What a process reads of each entry; everything when not given. A process that needs no record's code
 * or prose reads the lean snapshot instead (`leanSnapshotEntries`).
 */
export interface SnapshotKeep {
  /** Which entries are read at all, by record id; the others are passed over without parsing their text. */
  entry?: (id: string) => boolean;
  /** Whether the entries' prose fields are needed; left out ('' and []) when not, to save memory. */
  prose?: boolean;
  /** Whether the entries' text (`sourceText`, the JSON twin) is needed; '' when not. */
  text?: boolean;
}

export function readSnapshot(path: string, keep: SnapshotKeep = {}): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  forEachSnapshotEntry(path, (entry) => entries.push(entry), keep);
  return entries;
}

/** Calls `f` with each entry in turn, holding one at a time. */
export function forEachSnapshotEntry(path: string, f: (entry: CatalogEntry) => void, keep: SnapshotKeep = {}): void {
  for (const entry of snapshotEntries(path, keep)) f(entry);
}

type LineHead = [file: string, line: number, datasetVersion: string, id: string, escapedText?: string];

/** A snapshot line's head, decoded alone, and where its text begins (after the tab; -1: the text is the head's fifth value). */
function lineHead(bytes: Buffer): { head: LineHead; tab: number } {
  // A tab byte is a tab: UTF-8 uses bytes below 0x80 for nothing else.
  const tab = bytes.indexOf(0x09);
  return { head: JSON.parse(bytes.toString('utf8', 0, tab === -1 ? bytes.length : tab)) as LineHead, tab };
}

/** The entries one at a time, read as they are asked for (an async consumer may await between them). */
export function* snapshotEntries(path: string, keep: SnapshotKeep = {}): Generator<CatalogEntry> {
  for (const bytes of snapshotLines(path)) {
    const entry = entryOf(bytes, keep);
    if (entry) yield entry;
  }
}

/** A snapshot line's entry (what `keep` asks for of it; null: not asked for). */
function entryOf(bytes: Buffer, keep: SnapshotKeep): CatalogEntry | null {
  // The head alone is decoded first: an entry not asked for costs no more.
  const { head, tab } = lineHead(bytes);
  const [file, lineNo, datasetVersion, id, escapedText] = head;
  if (keep.entry && !keep.entry(id)) return null;
  const sourceText = tab === -1 ? escapedText! : bytes.toString('utf8', tab + 1);
  const { record, datasetVersionFrom } = readTwin(sourceText);
  if (keep.prose === false) dropProse(record);
  const from = datasetVersionFrom === 'record' ? {} : { datasetVersionFrom };
  return { record, sourceText: keep.text === false ? '' : sourceText, datasetVersion, ...from, origin: { file, line: lineNo } };
}

/**
 * The whole entry (record, code, prose, text) of one read from the lean snapshot, read again from
 * its line in the snapshot: a render process holds every record without them, and a page reads whole the one it shows, for as long as it is rendered. An entry read whole
 * is given back as it is.
 */
export function wholeEntry(path: string, entry: CatalogEntry): CatalogEntry {
  const at = entry.snapshotLine;
  return at === undefined ? entry : entryAt(path, { id: entry.record.id, snapshotLine: at });
}

/** The whole entry at a place of the snapshot (`leanSnapshotTextKeys` gives each entry's), read from its line there. */
export function entryAt(path: string, place: EntryPlace): CatalogEntry {
  const at = place.snapshotLine;
  const file = pieceFiles(path, at.piece).full;
  const bytes = Buffer.allocUnsafe(at.bytes);
  const fd = openSync(file, 'r');
  try {
    for (let read = 0; read < at.bytes; ) {
      const n = readSync(fd, bytes, read, at.bytes - read, at.offset + read);
      if (n === 0) throw new Error(`${file}: ends before the line of ${place.id} (byte ${at.offset})`);
      read += n;
    }
  } finally {
    closeSync(fd);
  }
  const whole = entryOf(bytes, {});
  if (whole?.record.id !== place.id) throw new Error(`${file}: byte ${at.offset} is not the line of ${place.id}`);
  return whole;
}

/**
 * Each entry's record id and its text, decoded only when asked for, before the next entry is: a
 * reader that needs few of the texts does not decode the others.
 */
export function* lazySnapshotTexts(path: string): Generator<[id: string, text: () => string]> {
  for (const bytes of snapshotLines(path)) {
    const { head, tab } = lineHead(bytes);
    yield [head[3], () => (tab === -1 ? head[4]! : bytes.toString('utf8', tab + 1))];
  }
}

/**
 * The related errors of each snapshot entry, in snapshot order, one line each (src/catalog/derive/index.ts);
 * the lines' count and the file's SHA-1, taken as it is written (the build cache keeps the file by it).
 */
export function writeRelated(path: string, links: readonly RelatedLink[][]): { lines: number; sha1: string } {
  const digest = createHash('sha1');
  const lines = writeLines(path, map(links, (l) => JSON.stringify(l)), digest);
  return { lines, sha1: digest.digest('hex') };
}

/**
 * Each entry's related errors; `keep(i)` false: entry i's line is passed over unparsed and its list left
 * empty (a render process shows related errors only on the pages it renders).
 */
export function readRelated(path: string, keep: (index: number) => boolean = () => true): RelatedLink[][] {
  const links: RelatedLink[][] = [];
  for (const [line] of lines([path])) links.push(keep(links.length) ? (JSON.parse(line.toString('utf8')) as RelatedLink[]) : []);
  return links;
}

function* map<T>(items: Iterable<T>, f: (item: T) => string): Iterable<string> {
  for (const item of items) yield f(item);
}

/**
 * Writes the lines to a new file (never one written through: the build cache may hold a link to the
 * last one), a few megabytes at a time: a stream's write per line took twice as long as this, on the
 * path every build waits on.
 */
function writeLines(path: string, lines: Iterable<string>, digest?: Hash): number {
  const writer = lineWriter(path, digest);
  try {
    for (const line of lines) writer.add(line);
    return writer.end();
  } finally {
    writer.close();
  }
}

/**
 * A new file written a line at a time (`writeLines`): `add` tells where each line begins and its bytes
 * (without its newline), `end` writes what is held and gives the lines' count, `close` closes the file
 * (once ended, or on a failure). Lines are encoded straight into one buffer, written each time it is
 * full: joining them into a string first, then encoding that, copied every byte twice more, on the
 * path every build waits on (the snapshot is some 500 MB at 100,000 rich records).
 */
function lineWriter(path: string, digest?: Hash): { add: (line: string) => { offset: number; bytes: number }; end: () => number; close: () => void } {
  rmSync(path, { force: true });
  const fd = openSync(path, 'w');
  const buffer = Buffer.allocUnsafe(WRITE_BYTES);
  let held = 0;
  let written = 0;
  let n = 0;
  let open = true;
  const write = (bytes: Uint8Array) => {
    digest?.update(bytes);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  };
  const flush = () => {
    write(buffer.subarray(0, held));
    held = 0;
  };
  return {
    add(line) {
      const at = { offset: written, bytes: Buffer.byteLength(line) };
      if (held + at.bytes + 1 > buffer.length) flush();
      if (at.bytes + 1 > buffer.length) write(Buffer.from(`${line}\n`));
      else {
        held += buffer.write(line, held);
        buffer[held++] = 0x0a;
      }
      written += at.bytes + 1;
      n++;
      return at;
    },
    end() {
      flush();
      return n;
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** Bytes of lines gathered before each write. */
const WRITE_BYTES = 8 * 1024 * 1024;

/**
 * The files' lines as bytes, file after file (with the file's index among them), read a block at a
 * time: a whole large snapshot is longer than a JavaScript string may be, and holding all its bytes
 * at once while the records it holds are parsed would add its size to the process's peak memory. A
 * line's bytes are the buffer's own, which the next read overwrites: each is to be decoded before the
 * next is asked for.
 *
 * One buffer serves every file: the line a block's end cuts is moved to its front and the next read
 * fills in after it. A new buffer per block, or per piece of the snapshot, cost more than the reading
 * itself (each large allocation is fresh memory the system must hand over page by page), and the
 * stages beside the render read the snapshot several times over.
 */
function* lines(files: readonly string[]): Generator<[line: Buffer, file: number]> {
  let buffer = Buffer.allocUnsafe(BLOCK_BYTES);
  for (const [file, path] of files.entries()) {
    const fd = openSync(path, 'r');
    try {
      // Bytes at the buffer's front that hold no line break: the start of a line cut by the last read.
      let held = 0;
      for (;;) {
        // A line longer than the buffer: a larger one, for the rest of the files.
        if (held === buffer.length) buffer = Buffer.concat([buffer], buffer.length * 2);
        const read = readSync(fd, buffer, held, buffer.length - held, null);
        const bytes = buffer.subarray(0, held + read);
        let start = 0;
        for (let end = bytes.indexOf(0x0a, held); end !== -1; end = bytes.indexOf(0x0a, start)) {
          if (end > start) yield [bytes.subarray(start, end), file];
          start = end + 1;
        }
        if (read === 0) {
          if (start < bytes.length) yield [bytes.subarray(start), file];
          break;
        }
        held = bytes.copy(buffer, 0, start);
      }
    } finally {
      closeSync(fd);
    }
  }
}

const BLOCK_BYTES = 8 * 1024 * 1024;
