/**
 * Publishing the site and the URL ledger as one step: a crash, a full disk or a kill at any point
 * leaves both as they were before or both as they are after, never the new site with the old ledger
 * (whose next build would forget the URLs just published) or the new ledger with the old site.
 *
 * The order (docs/build.md):
 *   1. the new ledger is written beside the old one as a temporary file, flushed to disk;
 *   2. a journal beside the output folder (`dist.publishing.json`) names the staging folder (and its
 *      inode), the old site's new name and the two ledger files, flushed and renamed into place;
 *   3. the old site is renamed aside, the staging folder renamed to the output folder;
 *   4. the temporary ledger is renamed over the ledger;
 *   5. the journal is removed.
 * Before 2 ends nothing has changed. After it, `recoverPublish` (run by the next build of that output
 * folder, under its lock, before anything else, and by this one when a step fails) finishes the step
 * when the output folder is the staging folder (same inode), and otherwise undoes it.
 */
import { readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDir, tempFileFor, writeDurably } from '../util/files.ts';

/** The file operations publishing uses; a test hands in its own to fail any one of them. */
export interface PublishIo {
  writeDurably(path: string, data: string): void;
  rename(from: string, to: string): void;
  remove(path: string): void;
  fsyncDir(dir: string): void;
}

export const nodeIo: PublishIo = {
  writeDurably,
  rename: renameSync,
  remove: (path) => rmSync(path, { force: true }),
  fsyncDir,
};

interface Journal {
  staging: string;
  /** The staging folder's identity: after the rename the output folder has it. */
  stagingId: string;
  outDir: string;
  /** Where the old site goes; null when there was none. */
  previous: string | null;
  ledger: { file: string; next: string } | null;
}

export const journalFileFor = (outDir: string): string => `${outDir}.publishing.json`;

const folderId = (dir: string): string | null => {
  try {
    const st = statSync(dir);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
};

export interface PublishInput {
  staging: string;
  outDir: string;
  /** The new ledger to write with the site, or null (unchanged, or --no-ledger-update). */
  ledger: { file: string; text: string } | null;
}

/**
 * Publishes the staging folder as the output folder and writes the ledger, as one step (see above).
 * Returns the old site's folder, to be deleted, or null. On failure the step is finished or undone
 * before the error is thrown (or, if that fails too, by the next build).
 */
export function publishSiteAndLedger(input: PublishInput, io: PublishIo = nodeIo): string | null {
  const { staging, outDir } = input;
  const previous = folderId(outDir) === null ? null : `${outDir}.previous-${process.pid}`;
  const journal: Journal = { staging, stagingId: folderId(staging)!, outDir, previous, ledger: input.ledger && { file: input.ledger.file, next: tempFileFor(input.ledger.file) } };
  const journalFile = journalFileFor(outDir);
  try {
    if (input.ledger) io.writeDurably(journal.ledger!.next, input.ledger.text);
    io.writeDurably(tempFileFor(journalFile), JSON.stringify(journal));
    io.rename(tempFileFor(journalFile), journalFile);
    io.fsyncDir(dirname(journalFile));
  } catch (e) {
    // Nothing is published: what was written goes.
    for (const f of [journal.ledger?.next, tempFileFor(journalFile), journalFile]) if (f) rmSync(f, { force: true });
    throw e;
  }
  try {
    if (previous) io.rename(outDir, previous);
    io.rename(staging, outDir);
    io.fsyncDir(dirname(outDir));
    if (journal.ledger) {
      io.rename(journal.ledger.next, journal.ledger.file);
      io.fsyncDir(dirname(journal.ledger.file));
    }
    io.remove(journalFile);
  } catch (e) {
    try {
      recoverPublish(outDir, io);
    } catch {
      // The journal stays: the next build of this folder finishes or undoes the step.
    }
    throw e;
  }
  return previous;
}

/**
 * Finishes or undoes a publish step that did not end (its journal is there): 'after' when the output
 * folder is the new site (the ledger is then put in place), 'before' otherwise (the old site back in
 * place, the new ledger dropped); null when there was nothing to do.
 */
export function recoverPublish(outDir: string, io: PublishIo = nodeIo): 'before' | 'after' | null {
  const journalFile = journalFileFor(outDir);
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Written whole or not at all (a temporary file renamed): unreadable means it never took effect.
    io.remove(journalFile);
    return null;
  }
  const published = folderId(journal.outDir) === journal.stagingId;
  if (published) {
    if (journal.ledger && folderId(journal.ledger.next) !== null) {
      io.rename(journal.ledger.next, journal.ledger.file);
      io.fsyncDir(dirname(journal.ledger.file));
    }
  } else {
    if (journal.previous && folderId(journal.outDir) === null && folderId(journal.previous) !== null) io.rename(journal.previous, journal.outDir);
    if (journal.ledger) io.remove(journal.ledger.next);
  }
  io.remove(journalFile);
  return published ? 'after' : 'before';
}
