/**
 * The edits a maintainer makes between two builds, applied to a generated catalog's first file: one
 * record's prose, one line of its excerpt, its message (so its related errors, its message-index
 * keys and the listings change), one record added and one removed. Each keeps the catalog valid and
 * is a different record from the others', so that every edit changes the site.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeRegExp } from '../../src/util/text.ts';

export const EDITS = ['prose', 'excerpt', 'message', 'add', 'remove'] as const;
export type Edit = (typeof EDITS)[number];

interface Wrapped {
  record: Record<string, unknown> & { id: string; slug: string; errorMessage: string; messagePattern: string; sourceCode: string | null; lineNumber: number | null; sourceCodeStart: number | null };
  datasetVersion: string;
}

const FILE = 'part-000.jsonl';

/** Applies `edit` to the catalog folder's first file; returns what it did, for the bench's output. */
export function applyEdit(catalogDir: string, edit: Edit, stamp: string): string {
  const file = join(catalogDir, FILE);
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  // Each edit takes its own record, away from the file's ends.
  const at = Math.floor(lines.length * (0.2 + 0.1 * EDITS.indexOf(edit)));
  const wrapped = JSON.parse(lines[at]!) as Wrapped;
  const r = wrapped.record;
  let said: string;
  if (edit === 'prose') {
    r.documentation = `${String(r.documentation)} Edited for the benchmark (${stamp}).`;
    said = `documentation of ${r.id}`;
  } else if (edit === 'excerpt') {
    const code = (r.sourceCode ?? '').split('\n');
    // A line other than the thrown one gets a comment at its end: the excerpt's span is unchanged.
    const thrown = r.lineNumber !== null && r.sourceCodeStart !== null ? r.lineNumber - r.sourceCodeStart : -1;
    const line = thrown === 0 ? 1 : 0;
    code[line] = `${code[line]} ${code.some((l) => l.trimStart().startsWith('#')) ? '#' : '//'} edited (${stamp})`;
    r.sourceCode = code.join('\n');
    said = `excerpt line ${line + 1} of ${r.id}`;
  } else if (edit === 'message') {
    const tail = ` (edited ${stamp})`;
    r.errorMessage += tail;
    r.messagePattern += escapeRegExp(tail);
    said = `message of ${r.id}`;
  } else if (edit === 'add') {
    const id = createHash('sha256').update(`added ${r.id} ${stamp}`).digest('hex').slice(0, 16);
    // Its slug by its id too: a second record added to the same catalog (another run's) is another page.
    const added: Wrapped = { ...wrapped, record: { ...r, id, slug: `${r.slug}-added-${id.slice(0, 6)}`, errorMessage: `${r.errorMessage} (added ${stamp})`, messagePattern: `${r.messagePattern}${escapeRegExp(` (added ${stamp})`)}` } };
    lines.push(JSON.stringify(added));
    said = `record ${id}`;
  } else {
    lines.splice(at, 1);
    said = `record ${r.id}`;
  }
  if (edit !== 'add' && edit !== 'remove') lines[at] = JSON.stringify(wrapped);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return `${edit}: ${said}`;
}
