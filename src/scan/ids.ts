/**
 * Record ids and slugs for scanned sites. The id hashes what identifies a site in a way that
 * survives unrelated edits: repository, file path, enclosing definition and message template;
 * never line numbers. Sites with the same key in one file (the same message raised twice in one
 * function) are told apart by their order: the second is `#2`, and so on.
 */
import { createHash } from 'node:crypto';
import { slugWords } from '../util/text.ts';

export function siteKey(repo: string, filePath: string, enclosing: string | null, errorMessage: string): string {
  return [repo, filePath, enclosing ?? '', errorMessage].join('\n');
}

export function idOf(key: string, occurrence: number): string {
  const text = occurrence > 1 ? `${key}\n#${occurrence}` : key;
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Assigns ids to keys in order; equal keys get their occurrence number, and a (never seen) hash clash the next free one. */
export class IdAllocator {
  private readonly seen = new Map<string, number>();
  private readonly taken = new Set<string>();
  next(key: string): string {
    let n = (this.seen.get(key) ?? 0) + 1;
    let id = idOf(key, n);
    while (this.taken.has(id)) id = idOf(key, ++n);
    this.seen.set(key, n);
    this.taken.add(id);
    return id;
  }
}

/** Lowercase words of the message (placeholders by name), at most six, then the id's first six characters. */
export function slugOf(errorMessage: string, id: string): string {
  const base = slugWords(errorMessage);
  return base ? `${base}-${id.slice(0, 6)}` : `error-${id.slice(0, 6)}`;
}
