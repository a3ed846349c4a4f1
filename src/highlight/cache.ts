/**
 * The content-addressed highlight cache: the highlighted lines' HTML of each code block, under a key
 * that covers everything the HTML depends on (the code, the language, Shiki's version and errdex's
 * own line-HTML format), so an entry never goes stale: a changed input is a new key.
 *
 * One SQLite file (node:sqlite) rather than a file per block: a catalog of 100,000 records has
 * ~180,000 blocks, and creating that many small files costs more than highlighting on a busy disk.
 * The build fills it before the render (src/build/highlight-pool.ts); pages read it, and highlight
 * inline (and store the result) on a miss. It sits in the build cache (`ERRDEX_CACHE_DIR`, default
 * `.errdex/cache`), the one folder CI persists between builds.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

/** The build cache folder: ERRDEX_CACHE_DIR of the environment given (an entry's), or `.errdex/cache`. */
export function buildCacheDir(env: NodeJS.ProcessEnv): string {
  return resolve(env.ERRDEX_CACHE_DIR && env.ERRDEX_CACHE_DIR.trim() !== '' ? env.ERRDEX_CACHE_DIR : '.errdex/cache');
}

export function highlightCacheFile(cacheDir: string): string {
  return join(cacheDir, 'highlight.sqlite');
}

let shikiVersion: string | undefined;
function getShikiVersion(): string {
  if (shikiVersion === undefined) {
    try {
      shikiVersion = (JSON.parse(readFileSync(resolve('node_modules/shiki/package.json'), 'utf8')) as { version: string }).version;
    } catch {
      shikiVersion = 'unknown';
    }
  }
  return shikiVersion;
}

/**
 * The cache key of one block (40 hex digits). `format` names the shape of the line HTML (the
 * highlighter's token classes and version), so a change there is a new key too.
 */
export function highlightKey(code: string, lang: string, format: string, engineVersion: string = getShikiVersion()): string {
  return hash('sha1', `${format}\0${engineVersion}\0${lang}\0${code}`);
}

/**
 * A block's lines as the store keeps them: joined by newlines (a line of HTML never holds a newline).
 * `HighlightStore.get` splits them again.
 */
export const storedText = (lines: readonly string[]): string => lines.join('\n');

/** The store: key -> the block's lines as `storedText` gives them. */
export class HighlightStore {
  readonly file: string;
  private readonly db: DatabaseSync;
  private readonly getStmt: StatementSync;
  private readonly putStmt: StatementSync;
  /** Whether a read transaction is open (see `read`). */
  private reading = false;

  constructor(file: string) {
    this.file = file;
    mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    // 16 KB pages (taken by a new file only): a block's lines are about 2 KB, and with 4 KB pages most
    // rows spill onto overflow pages. No mmap: it read a third faster, but each render process then
    // counted the pages of the file it touched (most of it) in its memory: 3.9 GB at 100k records.
    // WAL: the render processes read while one of them may store a miss; wait for a lock, never fail on it.
    this.db.exec('PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000;');
    // A table with rowids and an index on the key: rows this large cost four times as long to write into
    // a WITHOUT ROWID table, the earlier `blocks` (20,371 blocks: 1.0 s against 0.26 s), dropped here.
    this.db.exec('DROP TABLE IF EXISTS blocks; CREATE TABLE IF NOT EXISTS block_lines (key TEXT PRIMARY KEY, lines TEXT NOT NULL)');
    this.getStmt = this.db.prepare('SELECT lines FROM block_lines WHERE key = ?');
    this.putStmt = this.db.prepare('INSERT OR REPLACE INTO block_lines (key, lines) VALUES (?, ?)');
  }

  get(key: string): string[] | null {
    const row = this.read(key);
    return row ? row.lines.split('\n') : null;
  }

  has(key: string): boolean {
    return this.read(key) !== undefined;
  }

  /**
   * Reads run in one read transaction, open from the first read until the next write, prune or `close`:
   * on its own each read would take and drop SQLite's locks (a render process reads some 20,000 blocks).
   */
  private read(key: string): { lines: string } | undefined {
    if (!this.reading) {
      this.db.exec('BEGIN');
      this.reading = true;
    }
    return this.getStmt.get(key) as { lines: string } | undefined;
  }

  private endRead(): void {
    if (this.reading) this.db.exec('COMMIT');
    this.reading = false;
  }

  /** Stores blocks in one transaction; `text` is a block's `storedText`. */
  putMany(blocks: Iterable<{ key: string; text: string }>): void {
    this.endRead();
    this.db.exec('BEGIN');
    try {
      for (const b of blocks) this.putStmt.run(b.key, b.text);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM block_lines').get() as { n: number }).n;
  }

  /** Deletes the blocks not in `keep` (blocks no record has any more); returns how many. */
  prune(keep: Iterable<string>): number {
    this.endRead();
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS keep (key TEXT PRIMARY KEY) WITHOUT ROWID; DELETE FROM keep;');
    const add = this.db.prepare('INSERT OR IGNORE INTO keep (key) VALUES (?)');
    this.db.exec('BEGIN');
    for (const k of keep) add.run(k);
    const removed = Number(this.db.prepare('DELETE FROM block_lines WHERE key NOT IN (SELECT key FROM keep)').run().changes);
    this.db.exec('COMMIT; DROP TABLE keep;');
    return removed;
  }

  close(): void {
    this.endRead();
    this.db.close();
  }
}
