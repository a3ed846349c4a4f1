/** A generated catalog with one big repository, for the listing-page size and filter tests. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { syntheticRecords } from '../../bench/lib/synthetic.ts';

export const BIG_REPO = 'big/repo';

/** Writes `count` synthetic records, all moved into one repository, into .errdex/catalogs/<name>/. */
export function bigRepoCatalog(name: string, count: number): string {
  const dir = resolve('.errdex/catalogs', name);
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  for (const line of syntheticRecords({ count, seed: 7 })) {
    const wrapped = JSON.parse(line) as { record: { repo: string; githubUrl: string } };
    const r = wrapped.record;
    r.githubUrl = r.githubUrl.replace(`github.com/${r.repo}/`, `github.com/${BIG_REPO}/`);
    r.repo = BIG_REPO;
    lines.push(JSON.stringify(wrapped));
  }
  writeFileSync(join(dir, 'big.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}
