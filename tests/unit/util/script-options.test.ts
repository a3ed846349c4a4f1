/**
 * The scripts' options (src/util/script-options.ts) as a maintainer meets them: `--help` prints the
 * usage and exits 0; an unknown option, or one without its value, is named with the usage and exit
 * code 2, not a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const run = (file: string, args: string[]) => spawnSync(process.execPath, [file, ...args], { encoding: 'utf8' });
const SCRIPTS = [
  'scripts/generate-catalog.ts',
  'scripts/bench-shards.ts',
  'scripts/bench-search-wrapped.ts',
  'scripts/init.ts',
  'scripts/validate.ts',
  'scripts/scan.ts',
  'scripts/schema.ts',
  'scripts/bench.ts',
  'scripts/bench-fragments.ts',
  'scripts/bench-history.ts',
  'scripts/bench-related.ts',
  'scripts/bench-scan.ts',
  'scripts/bench-search-hostile.ts',
  'scripts/bench-search-real.ts',
  'scripts/bench-search.ts',
  'scripts/first-screen.ts',
  'scripts/measure-lists.ts',
  'scripts/page-weight.ts',
  'scripts/screenshots.ts',
];
const out = mkdtempSync(join(tmpdir(), 'errdex-options-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the scripts’ options', () => {
  it.each(SCRIPTS)('%s: --help prints the usage, an unknown option is named with it (exit 2)', (file) => {
    const help = run(file, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage|usage/);
    const unknown = run(file, ['--nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--nope'");
    expect(unknown.stderr).toContain(help.stdout.trim());
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
  });

  it('a value that is no whole number, or below its least, is named with the usage (exit 2) before any work', () => {
    const word = run('scripts/bench-fragments.ts', ['--queries', 'ten']);
    expect(word.status).toBe(2);
    expect(word.stderr).toContain('--queries takes a whole number of at least 1; got ten');
    expect(word.stderr).toContain('Usage');
    const zero = run('scripts/bench-search-hostile.ts', ['--reps', '0']);
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain('--reps takes a whole number of at least 1; got 0');
  });

  it('generate: an option without its value, or a count that is no count, is refused before anything is written', () => {
    const missing = run('scripts/generate-catalog.ts', ['--out', out, '--count']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("Option '--count <value>' argument missing");
    const bad = run('scripts/generate-catalog.ts', ['--out', out, '--count', 'ten']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--count must be a whole number');
    expect(readdirSync(out)).toEqual([]);
  });

  it('generate: the options given are used', () => {
    const made = run('scripts/generate-catalog.ts', ['--out', join(out, 'three'), '--count', '3', '--profile', 'rich']);
    expect(made.status).toBe(0);
    expect(made.stdout).toContain(`3 records in ${join(out, 'three')}`);
    expect(readdirSync(join(out, 'three'))).toEqual(['part-000.jsonl']);
  });
});
