/**
 * A project's errdex.config.mjs as the `errdex` command reads it (src/build/project.ts,
 * src/schema/site-config.ts): every wrong key named, the environment winning over the file, the files
 * it names found and hashed, and this repository's own config handing down exactly the settings its
 * modules read without the command (errdex.config.mjs), which keeps the site byte for byte the same.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SITE_ENV, siteConfig } from '../../../errdex.config.mjs';
import { loadProject, ProjectError } from '../../../src/build/project.ts';
import { siteConfigProblems } from '../../../src/schema/site-config.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A project folder holding `config` as its errdex.config.mjs (none when null), and `files`. */
function project(config: string | null, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-project-'));
  dirs.push(dir);
  if (config !== null) writeFileSync(join(dir, 'errdex.config.mjs'), config);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function problemsOf(config: string, files: Record<string, string> = {}): Promise<string[]> {
  try {
    await loadProject(project(config, files), {});
  } catch (e) {
    if (e instanceof ProjectError) return e.problems;
    throw e;
  }
  return [];
}

describe("a project's errdex.config.mjs", () => {
  it("hands down this repository's own settings exactly as its modules read them without the command", async () => {
    const own = await loadProject(resolve('.'), {});
    expect(JSON.parse(own.env[SITE_ENV]!)).toStrictEqual(siteConfig);
    expect(JSON.stringify(JSON.parse(own.env[SITE_ENV]!))).toBe(JSON.stringify(siteConfig));
  });

  it('names every wrong key at once', async () => {
    const problems = await problemsOf(`export default { siteUrl: 'https://example.org/docs', basePath: '/a b', reportIssueUrl: 'ftp://x.org/', siteName: '', logo: 'logo.txt', customCss: ['a.css', 'b.scss'], sitename: 'x', components: { 'Nope.tsx': 'x.astro' }, repositories: { 'no-slash': {}, 'a/b': { description: 'two\\nlines', homepage: 'x', stars: 1 } } };`);
    expect(problems).toEqual([
      expect.stringMatching(/^siteName: must not be empty/),
      expect.stringMatching(/^siteUrl: must be an origin/),
      expect.stringMatching(/^basePath: must be a path such as \/errdex/),
      expect.stringMatching(/^reportIssueUrl: must be an https: or http: URL/),
      expect.stringMatching(/^logo: must be an image file/),
      expect.stringMatching(/^customCss\.1: must be a \.css file/),
      expect.stringMatching(/^components\.Nope\.tsx: must be a component path/),
      expect.stringMatching(/^repositories\.no-slash: must be a repository as the records name it/),
      expect.stringMatching(/^repositories\.a\/b\.description: must be one line/),
      expect.stringMatching(/^repositories\.a\/b\.homepage: must be an absolute URL/),
      'repositories.a/b.stars: not a setting errdex knows',
      'sitename: not a setting errdex knows',
    ]);
  });

  it('says when the file cannot be loaded or has no default export', async () => {
    expect((await problemsOf('export default {'))[0]).toMatch(/^cannot be loaded: /);
    expect((await problemsOf('export const x = 1;'))[0]).toMatch(/^has no default export/);
    expect(siteConfigProblems(['not', 'an', 'object']).problems[0]).toMatch(/^\(the default export\): /);
  });

  it('names a file it points at that is not there', async () => {
    expect(await problemsOf("export default { logo: './src/logo.svg', customCss: ['./src/a.css', './src/b.css'] };", { 'src/a.css': 'a {}' })).toEqual([
      expect.stringMatching(/^logo: \.\/src\/logo\.svg is not a file/),
      expect.stringMatching(/^customCss\.1: \.\/src\/b\.css is not a file/),
    ]);
  });

  it('lets the environment win, resolves folders in the project, and hashes the override files', async () => {
    const dir = project("export default { siteName: 'Acme', siteUrl: 'https://a.example/', basePath: 'errors/', catalog: 'cat', outDir: '/tmp/out', logo: 'l.svg', customCss: ['c.css'], components: { 'SearchBox.astro': 'S.astro' }, repositories: { 'acme/app': { description: 'The app.' } } };", {
      'l.svg': '<svg/>',
      'c.css': 'a { color: red }',
      'S.astro': '<p/>',
    });
    const p = await loadProject(dir, { ERRDEX_SITE_NAME: 'From env', ERRDEX_DIST: '' });
    const site = JSON.parse(p.env[SITE_ENV]!);
    expect(site).toMatchObject({ siteName: 'From env', siteUrl: 'https://a.example', basePath: '/errors' });
    expect(site.logo.path).toBe(join(dir, 'l.svg'));
    expect(site.customCss[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(site.components['SearchBox.astro'].path).toBe(join(dir, 'S.astro'));
    expect(site.repositories).toEqual({ 'acme/app': { description: 'The app.' } });
    expect(p.env.ERRDEX_DATA).toBe(join(dir, 'cat'));
    expect(p.env.ERRDEX_DIST).toBe('/tmp/out');
    // A variable that is set wins over the file's folder.
    expect((await loadProject(dir, { ERRDEX_DATA: 'elsewhere' })).env.ERRDEX_DATA).toBeUndefined();
    // An edited stylesheet changes the settings, and so every page key (src/catalog/page-cache.ts).
    writeFileSync(join(dir, 'c.css'), 'a { color: blue }');
    expect(JSON.parse((await loadProject(dir, {})).env[SITE_ENV]!).customCss[0].sha256).not.toBe(site.customCss[0].sha256);
  });

  it('takes every default in a project without the file', async () => {
    const p = await loadProject(project(null), {});
    expect(p.file).toBeNull();
    expect(JSON.parse(p.env[SITE_ENV]!)).toMatchObject({ siteName: 'errdex', basePath: '' });
  });
});
