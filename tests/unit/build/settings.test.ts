/**
 * The build's settings are checked at its start: every ERRDEX_* setting a user gives is a URL, folder,
 * number or name that works, and every wrong one is named, all in one message, before any work.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSettings, planSettings, settingProblems } from '../../../src/build/settings.ts';

const folder = mkdtempSync(join(tmpdir(), 'errdex-settings-'));
const file = join(folder, 'a-file');
writeFileSync(file, '');
/** A sound environment: the catalog exists, the rest is unset. */
const env = (more: Record<string, string> = {}) => ({ ERRDEX_DATA: folder, ERRDEX_DIST: join(folder, 'dist'), ERRDEX_CACHE_DIR: join(folder, 'cache'), ...more });
const flags = { skipReport: null, strict: false, noCache: false, noLedgerUpdate: true, report: null, maxFragments: undefined };

describe('settings checked at the start', () => {
  it('accepts a sound environment and the values CI and hosts set', () => {
    expect(settingProblems(env())).toEqual([]);
    const ci = env({ ERRDEX_SITE_URL: 'https://acme.github.io', ERRDEX_BASE_PATH: '/errdex', ERRDEX_REPORT_URL: 'https://github.com/acme/errdex/issues/new', ERRDEX_WORKERS: '2', SOURCE_DATE_EPOCH: '1767225600' });
    expect(settingProblems(ci)).toEqual([]);
    expect(settingProblems(env({ ERRDEX_SITE_URL: 'http://localhost:4321', ERRDEX_SITE_NAME: 'Acme errors' }))).toEqual([]);
  });

  it.each([
    ['ERRDEX_REPORT_URL', 'javascript:alert(1)', /^ERRDEX_REPORT_URL must be an https: or http: URL; got "javascript:alert\(1\)" \(javascript:\)\.$/],
    ['ERRDEX_REPORT_URL', 'not a url', /^ERRDEX_REPORT_URL must be a URL without spaces/],
    ['ERRDEX_REPORT_URL', 'github.com/acme/issues', /^ERRDEX_REPORT_URL must be an absolute URL .*which is not a URL\.$/],
    ['ERRDEX_REPORT_URL', 'https://user:secret@github.com/x', /^ERRDEX_REPORT_URL must not hold a user name or password/],
    ['ERRDEX_SITE_URL', 'data:text/html,x', /^ERRDEX_SITE_URL must be an https: or http: URL/],
    ['ERRDEX_SITE_URL', 'https://acme.github.io/errdex', /^ERRDEX_SITE_URL must be an origin .*a path goes in ERRDEX_BASE_PATH/],
    ['ERRDEX_BASE_PATH', '/../up', /^ERRDEX_BASE_PATH must be a path such as \/errdex/],
    ['ERRDEX_BASE_PATH', '/a b', /^ERRDEX_BASE_PATH must be a path/],
    ['ERRDEX_SITE_NAME', 'two\nlines', /^ERRDEX_SITE_NAME must be one line/],
    ['ERRDEX_WORKERS', '0', /^ERRDEX_WORKERS must be a whole number from 1 to 1,024; got "0"\.$/],
    ['ERRDEX_WORKERS', '2.5', /^ERRDEX_WORKERS must be a whole number/],
    ['ERRDEX_PARTITION_RECORDS', 'many', /^ERRDEX_PARTITION_RECORDS must be a whole number/],
    ['ERRDEX_EARLY_HIGHLIGHT_BYTES', '-1', /^ERRDEX_EARLY_HIGHLIGHT_BYTES must be a whole number of at least 1/],
    ['ERRDEX_PAGEFIND_PART_RECORDS', 'abc', /^ERRDEX_PAGEFIND_PART_RECORDS must be a whole number/],
    ['SOURCE_DATE_EPOCH', 'yesterday', /^SOURCE_DATE_EPOCH must be a whole number/],
    ['ERRDEX_DATA', join(folder, 'missing'), /^ERRDEX_DATA: .*missing does not exist\.$/],
    ['ERRDEX_DIST', file, /^ERRDEX_DIST: .*a-file exists and is not a folder\.$/],
    ['ERRDEX_CACHE_DIR', join(folder, 'no', 'such', 'cache'), /^ERRDEX_CACHE_DIR: .* cannot be made: its parent folder .*no\/such does not exist\.$/],
  ])('%s=%j is refused, naming the variable', (name, value, message) => {
    const problems = settingProblems(env({ [name]: value }));
    expect(problems).toEqual([expect.stringMatching(message)]);
  });

  it('the build stops before any work with every problem at once', () => {
    const wrong = env({ ERRDEX_REPORT_URL: 'javascript:void(0)', ERRDEX_WORKERS: 'lots', ERRDEX_SITE_URL: 'not a url' });
    expect(() => buildSettings(flags, wrong)).toThrow(/^3 settings are wrong:\n {2}ERRDEX_WORKERS .*\n {2}ERRDEX_SITE_URL .*\n {2}ERRDEX_REPORT_URL /);
    expect(() => planSettings({ ERRDEX_WORKERS: '0' })).toThrow(/ERRDEX_WORKERS must be a whole number/);
    expect(buildSettings(flags, env({ ERRDEX_WORKERS: '3' })).plan.workers).toBe(3);
  });
});
