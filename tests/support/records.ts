/** Shared test helpers: the sample records and temporary catalogs. */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const SAMPLE_CATALOG = 'data/vllm-project-vllm.jsonl';

/** The built-in failure classes, which the sample records name: copy it into a temporary catalog with them. */
export const SAMPLE_CLASSES = readFileSync('data/classes.json', 'utf8');

/** The built-in sample records, parsed, as fresh copies a test may change. */
export function sampleWrapped(): { record: Record<string, unknown>; datasetVersion: string }[] {
  return readFileSync(SAMPLE_CATALOG, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** Two sample records with a finding of their own: `warned` a warning (a branch for a commit), `broken` an error (a pattern RE2 cannot compile). */
export function flaggedSamples(): { warned: ReturnType<typeof sampleWrapped>[number]; broken: ReturnType<typeof sampleWrapped>[number] } {
  const warned = sampleWrapped()[1]!;
  warned.record.id = 'abcdefabcdefabcd';
  warned.record.slug = 'warned-slug';
  warned.record.analyzedSha = 'not-a-sha-but-a-branch';
  const broken = sampleWrapped()[2]!;
  broken.record.id = '0123456789abcdef';
  broken.record.messagePattern = 'unexpected (frame';
  return { warned, broken };
}

/** Writes files (path -> content) into a fresh temporary folder and returns its path. */
export function tempCatalog(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'errdex-catalog-'));
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

export const jsonl = (values: unknown[]): string => `${values.map((v) => JSON.stringify(v)).join('\n')}\n`;
