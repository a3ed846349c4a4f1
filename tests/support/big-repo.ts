/** A generated catalog with one big repository, for the listing-page size and filter tests and measurements. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { syntheticRecords } from '../../bench/lib/synthetic.ts';

export const BIG_REPO = 'big/repo';

/** Failure classes half the records name, when asked for: their pages are big listings too. */
export const BIG_CLASSES = [
  { id: 'lock-held', title: 'Locks held by another writer' },
  { id: 'bad-input', title: 'Input the code does not accept' },
];

/**
 * Writes `count` synthetic records, all moved into one repository, into .errdex/catalogs/<name>/
 * (with `classes`, a classes.json they name).
 */
export function bigRepoCatalog(name: string, count: number, options: { classes?: boolean } = {}): string {
  const dir = resolve('.errdex/catalogs', name);
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  const classIds = options.classes ? BIG_CLASSES.map((c) => c.id) : undefined;
  for (const line of syntheticRecords({ count, seed: 7, classIds })) {
    const wrapped = JSON.parse(line) as { record: { repo: string; githubUrl: string } };
    const r = wrapped.record;
    r.githubUrl = r.githubUrl.replace(`github.com/${r.repo}/`, `github.com/${BIG_REPO}/`);
    r.repo = BIG_REPO;
    lines.push(JSON.stringify(wrapped));
  }
  writeFileSync(join(dir, 'big.jsonl'), `${lines.join('\n')}\n`);
  if (options.classes) {
    const classes = BIG_CLASSES.map((c) => ({ ...c, summary: `${c.title}.`, explanation: `Errors where ${c.title.toLowerCase()}.` }));
    writeFileSync(join(dir, 'classes.json'), `${JSON.stringify(classes, null, 2)}\n`);
  }
  return dir;
}
