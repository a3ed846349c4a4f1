/** Writes a deterministic synthetic catalog (bench/lib/synthetic.ts) as .jsonl files of at most 10,000 records each. */
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticRecords, type Profile } from './synthetic.ts';

export async function generateCatalog(out: string, count: number, seed = 1, profile: Profile = 'lean'): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const perFile = 10_000;
  let file: ReturnType<typeof createWriteStream> | null = null;
  let i = 0;
  for (const line of syntheticRecords({ count, seed, profile })) {
    if (i % perFile === 0) {
      if (file) await new Promise<void>((done) => file!.end(done));
      file = createWriteStream(join(out, `part-${String(i / perFile).padStart(3, '0')}.jsonl`));
    }
    if (!file!.write(`${line}\n`)) await new Promise<void>((done) => file!.once('drain', () => done()));
    i++;
  }
  if (file) await new Promise<void>((done) => file!.end(done));
}
