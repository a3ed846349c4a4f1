/**
 * Fixture repositories for the scan tests: a fixture tree (tests/fixtures/scan/<name>) copied into a
 * temporary folder and committed with git, with a fixed date and a GitHub `origin` remote, so that
 * the scanner reads it as it reads any clone.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const SCAN_FIXTURES = resolve('tests/fixtures/scan');

export const FIXED_DATE = '2026-11-02T10:00:00Z';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_DATE: FIXED_DATE, GIT_COMMITTER_DATE: FIXED_DATE, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' },
  });
}

/** A new git repository holding the fixture tree `name`, committed once; returns its folder. */
export function fixtureRepo(name: string, repo = `acme/${name}-demo`): string {
  const dir = mkdtempSync(join(tmpdir(), `errdex-scan-${name}-`));
  cpSync(join(SCAN_FIXTURES, name), dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'remote', 'add', 'origin', `https://github.com/${repo}.git`);
  commitAll(dir, 'fixture');
  return dir;
}

export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD').trim();
}
