/**
 * The `errdex` command (bin/errdex.mjs, scripts/errdex.ts) as a user runs it: its help, its refusal of
 * what it does not know (exit 2), and each subcommand being the script `npm run <command>` runs, with
 * the same output and exit code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = resolve('bin/errdex.mjs');
const errdex = (args: string[], env: Record<string, string> = {}, cwd?: string) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, cwd });
const script = (file: string, args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, [file, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

describe('errdex, the command', () => {
  it('lists its commands with --help, and refuses none or an unknown one with exit 2', () => {
    const help = errdex(['--help']);
    expect(help.status).toBe(0);
    for (const c of ['init', 'scan', 'validate', 'build', 'preview', 'lookup', 'deploy:s3']) expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
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

describe('errdex init', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'errdex-init-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes a project that validates, refuses a folder that is not empty unless --force, and says how it is used', () => {
    expect(errdex(['init', '--help']).stdout).toContain('Usage: errdex init <folder> [--force]');
    expect(errdex(['init']).status).toBe(2);
    expect(errdex(['init', 'a', 'b']).status).toBe(2);
    expect(errdex(['init', 'x', '--no-such-option']).status).toBe(2);

    const made = errdex(['init', 'My Errors'], {}, tmp);
    expect(made.status, made.stderr).toBe(0);
    const site = join(tmp, 'My Errors');
    const pkg = JSON.parse(readFileSync(join(site, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('my-errors');
    expect(pkg.dependencies.errdex).toBe(`^${JSON.parse(readFileSync('package.json', 'utf8')).version}`);
    expect(pkg.scripts.build).toBe('errdex build');
    for (const f of ['errdex.config.mjs', 'README.md', '.gitignore', '.github/workflows/pages.yml', 'src/custom.css', 'catalog/classes.json', 'catalog/README.md']) expect(existsSync(join(site, f)), f).toBe(true);
    // The project as written is valid: its config and its sample catalog.
    const validate = errdex(['validate'], {}, site);
    expect(validate.status, validate.stdout + validate.stderr).toBe(0);
    expect(validate.stdout).toContain('3 records read: 3 built');

    const again = errdex(['init', 'My Errors'], {}, tmp);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('is not empty');
    writeFileSync(join(site, 'errdex.config.mjs'), 'export default {};');
    expect(errdex(['init', 'My Errors', '--force'], {}, tmp).status).toBe(0);
    expect(readFileSync(join(site, 'errdex.config.mjs'), 'utf8')).toContain('siteName:');
    mkdirSync(join(tmp, 'empty'));
    expect(errdex(['init', 'empty'], {}, tmp).status).toBe(0);
    writeFileSync(join(tmp, 'file'), '');
    expect(errdex(['init', 'file'], {}, tmp).status).toBe(2);
  });

  it("stops a command at a wrong key of the project's errdex.config.mjs, naming it, with exit 2", () => {
    const site = join(tmp, 'bad');
    mkdirSync(site);
    writeFileSync(join(site, 'errdex.config.mjs'), "export default { siteUrl: 'errors.example.org', colour: 'red' };");
    for (const command of ['validate', 'build']) {
      const run = errdex([command], {}, site);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('siteUrl: must be an absolute URL');
      expect(run.stderr).toContain('colour: not a setting errdex knows');
    }
    // Help needs no valid project.
    expect(errdex(['build', '--help'], {}, site).status).toBe(0);
  });
});
