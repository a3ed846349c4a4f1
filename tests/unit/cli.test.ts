/**
 * The `errdex` command (bin/errdex.mjs, scripts/errdex.ts) as a user runs it: its help, its refusal of
 * what it does not know (exit 2), and each subcommand being the script `npm run <command>` runs, with
 * the same output and exit code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const errdex = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, ['bin/errdex.mjs', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
const script = (file: string, args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, [file, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

describe('errdex, the command', () => {
  it('lists its commands with --help, and refuses none or an unknown one with exit 2', () => {
    const help = errdex(['--help']);
    expect(help.status).toBe(0);
    for (const c of ['scan', 'validate', 'build', 'preview', 'lookup', 'deploy:s3']) expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(errdex([]).status).toBe(2);
    const unknown = errdex(['bulid']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no command "bulid"');
  });

  it('runs each command as its script: the same output and exit code', () => {
    for (const env of [{ ERRDEX_DATA: 'tests/fixtures/catalogs/basic' }, { ERRDEX_DATA: 'tests/fixtures/bad-catalogs/duplicate-ids' }]) {
      const viaCommand = errdex(['validate'], env);
      const direct = script('scripts/validate.ts', [], env);
      expect(viaCommand.status).toBe(direct.status);
      // The timing in the summary line differs between two runs.
      const stable = (t: string) => t.replace(/\d+\.\d+ s/g, 'N s');
      expect(stable(viaCommand.stdout + viaCommand.stderr)).toBe(stable(direct.stdout + direct.stderr));
    }
    expect(errdex(['validate'], { ERRDEX_DATA: 'tests/fixtures/bad-catalogs/duplicate-ids' }).status).toBe(1);
  });

  // The system's Node (20 on CI) cannot strip types: the command hands itself to the bundled Node 24.
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => existsSync(p) && spawnSync(p, ['-e', 'process.exit(process.features.typescript ? 0 : 1)']).status === 1);
  it.skipIf(!systemNode)('runs on a Node without type stripping, through the Node it brings', () => {
    const run = spawnSync(systemNode!, ['bin/errdex.mjs', 'validate', '--help'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: npm run validate');
  });

  it("gives each command's own help, and its exit code for a wrong option", () => {
    expect(errdex(['validate', '--help']).stdout).toContain('Usage: npm run validate');
    expect(errdex(['build', '--help']).stdout).toContain('Usage: npm run build');
    expect(errdex(['lookup', '--help']).stdout).toContain('errdex lookup --site');
    expect(errdex(['preview', '--help']).status).toBe(0);
    expect(errdex(['validate', '--no-such-option']).status).toBe(2);
  });
});
