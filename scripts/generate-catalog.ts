/**
 * `npm run generate -- --count 10000 --out .errdex/catalogs/10k [--seed 1]`: writes a synthetic catalog
 * (see scripts/lib/synthetic.ts) as .jsonl files of at most 10,000 records each.
 */
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticRecords } from './lib/synthetic.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i !== -1 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

export async function generateCatalog(out: string, count: number, seed = 1): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const perFile = 10_000;
  let file: ReturnType<typeof createWriteStream> | null = null;
  let i = 0;
  for (const line of syntheticRecords({ count, seed })) {
    if (i % perFile === 0) {
      if (file) await new Promise<void>((done) => file!.end(done));
      file = createWriteStream(join(out, `part-${String(i / perFile).padStart(3, '0')}.jsonl`));
    }
    if (!file!.write(`${line}\n`)) await new Promise<void>((done) => file!.once('drain', () => done()));
    i++;
  }
  if (file) await new Promise<void>((done) => file!.end(done));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(arg('count', '1000'));
  const out = arg('out', `.errdex/catalogs/${count}`);
  const started = performance.now();
  await generateCatalog(out, count, Number(arg('seed', '1')));
  console.log(`${count} records in ${out} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
