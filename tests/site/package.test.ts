/**
 * errdex as a user gets it (issue 37): `npm pack`, the tarball installed with no network into an
 * empty folder, `errdex init`, the new project's own `npm install && npm run build`, and a sample
 * error pasted into the built site's search in Chromium. The project's overrides (a logo, extra CSS,
 * a replaced component) and its config's site name must show on the pages.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { installOffline, lockToTarball, packRepository, run, type Packed } from '../support/pack.ts';
import { searchAnswered } from '../support/search-page.ts';
import { buildSite, hashTree } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

const root = mkdtempSync(join(tmpdir(), 'errdex-package-'));
const tool = join(root, 'tool');
const site = join(root, 'my-errors');
let packed: Packed;
let server: StaticServer | undefined;
let browser: Browser | undefined;

beforeAll(() => {
  packed = packRepository(root);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the package as a user installs it', () => {
  it('packs the command, its compiled code and what a build needs, and no tests, benchmarks or docs', () => {
    const files = new Set(packed.files);
    for (const f of ['bin/errdex.mjs', 'scripts/errdex.js', 'scripts/build.js', 'scripts/init.js', 'src/build/render-process.js', 'src/build/stages/render.js', 'src/pages/index.astro', 'astro.config.mjs', 'errdex.config.mjs', 'public/favicon.svg']) {
      expect(files, f).toContain(f);
    }
    for (const f of packed.files) expect(f, f).not.toMatch(/^(tests|bench|docs|\.github|\.ci)\/|^scripts\/.*\.ts$|^scripts\/bench/);
    // Pages are Astro's to load from source: a compiled copy beside one would be a second route.
    expect(packed.files.filter((f) => f.startsWith('src/pages/') && f.endsWith('.js'))).toEqual([]);
    console.log(`errdex package: ${packed.tarball}: ${packed.size} bytes packed, ${packed.unpackedSize} bytes unpacked, ${packed.files.length} files`);
  });

  it('installs offline into an empty folder, and `errdex init` writes a project there', () => {
    mkdirSync(tool);
    writeFileSync(join(tool, 'package.json'), `${JSON.stringify({ name: 'tool', private: true })}\n`);
    lockToTarball(tool, packed.tarball);
    const install = installOffline(tool);
    expect(install.status, install.stderr).toBe(0);
    console.log(`errdex installed offline in ${install.seconds.toFixed(1)} s`);

    const errdex = join(tool, 'node_modules/.bin/errdex');
    const help = run(errdex, ['init', '--help'], root);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: errdex init <folder>');
    const init = run(errdex, ['init', 'my-errors'], root);
    expect(init.status, init.stderr).toBe(0);
    for (const f of ['package.json', 'errdex.config.mjs', 'README.md', '.github/workflows/pages.yml', 'catalog/vllm-project-vllm.jsonl', 'catalog/classes.json', 'src/custom.css']) {
      expect(existsSync(join(site, f)), f).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(site, 'package.json'), 'utf8')).dependencies.errdex).toMatch(/^\^\d+\.\d+\.\d+$/);
    // Not twice into the same folder, unless told.
    const again = run(errdex, ['init', 'my-errors'], root);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('not empty');
    // Its work is done: the site installs errdex for itself.
    rmSync(tool, { recursive: true, force: true });
  });

  it("builds the new project with its own `npm install && npm run build`, overrides and all", () => {
    expect(existsSync(join(site, 'errdex.config.mjs')), 'the project of the test before').toBe(true);
    // The user's own touches: a logo, a rule in the extra CSS, a component of their own.
    writeFileSync(join(site, 'src/logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#c0ffee"/></svg>\n');
    writeFileSync(join(site, 'src/custom.css'), `${readFileSync(join(site, 'src/custom.css'), 'utf8')}\n.brand { color: rgb(1, 2, 3); }\n`);
    writeFileSync(join(site, 'src/Notice.astro'), '---\n---\n<p class="test-own-component">Our own notice.</p>\n');
    const config = readFileSync(join(site, 'errdex.config.mjs'), 'utf8')
      .replace("siteName: 'My project’s errors'", "siteName: 'Acme errors'")
      .replace("// logo: './src/logo.svg',", "logo: './src/logo.svg',")
      .replace("// components: { 'error/Solutions.astro': './src/Solutions.astro' },", "components: { 'SearchBox.astro': './src/Notice.astro' },")
      .replace(
        /\/\/ repositories: .*\n/,
        "repositories: { 'vllm-project/vllm': { description: 'Serving engine for large language models.', homepage: 'https://docs.vllm.example/' }, 'acme/not-in-catalog': { description: 'No records.' } },\n",
      );
    expect(config).toContain("'vllm-project/vllm'");
    writeFileSync(join(site, 'errdex.config.mjs'), config);

    lockToTarball(site, packed.tarball);
    const install = installOffline(site);
    expect(install.status, install.stderr).toBe(0);
    const build = run('npm', ['run', 'build'], site);
    expect(build.status, build.stderr + build.stdout).toBe(0);
    expect(build.stdout).toContain('3 records read: 3 built');
    // The project's folders hold the output, cache and ledger.
    for (const f of ['dist/index.html', 'dist/search/index.html', 'catalog/url-ledger.json', '.errdex/cache']) expect(existsSync(join(site, f)), f).toBe(true);
    expect(readFileSync(join(site, 'dist/index.html'), 'utf8')).toContain('<h1>Acme errors</h1>');
    // `repositories`: the line under the repository's name, its site beside GitHub, and a warning for one with no records.
    const repoPage = readFileSync(join(site, 'dist/vllm-project/vllm/index.html'), 'utf8');
    expect(repoPage).toContain('<p class="repo-about">Serving engine for large language models.</p>');
    expect(repoPage).toContain('href="https://docs.vllm.example/"');
    expect(readFileSync(join(site, 'dist/index.html'), 'utf8')).toContain('Serving engine for large language models.');
    expect(build.stdout + build.stderr).toContain('repositories.acme/not-in-catalog: no record of the catalog is of this repository');
  });

  it("builds this repository's own catalog into the same site, byte for byte, as this checkout does", () => {
    const env = { SOURCE_DATE_EPOCH: '1700000000', ERRDEX_REDOS_SECONDS: '0' };
    const here = buildSite('package-own', 'data', { env });
    expect(here.status, here.stderr).toBe(0);
    // A project with no errdex.config.mjs: every default, which are this repository's own settings.
    // Inside the one that installed errdex: Astro's server bundle, in the project, finds its packages up the tree.
    const own = join(site, 'own');
    mkdirSync(join(own, 'src'), { recursive: true });
    cpSync('data', join(own, 'data'), { recursive: true });
    const installed = run(join(site, 'node_modules/.bin/errdex'), ['build', '--no-ledger-update'], own, { ...process.env, ...env });
    expect(installed.status, installed.stderr + installed.stdout).toBe(0);
    expect(hashTree(join(own, 'dist'))).toEqual(hashTree(here.dist));
  });

  it('stops at a wrong key of errdex.config.mjs, naming it (exit 2)', () => {
    const file = join(site, 'errdex.config.mjs');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace("siteUrl: 'https://example.org'", "siteUrl: 'https://example.org/sub'").replace('export default {', 'export default {\n  siteTitle: 1,'));
    const build = run('npm', ['run', 'build', '--silent'], site);
    writeFileSync(file, good);
    expect(build.status).toBe(2);
    expect(build.stderr).toContain('siteUrl: must be an origin');
    expect(build.stderr).toContain('siteTitle: not a setting errdex knows');
  });

  it('finds a pasted error on the built site, in Chromium, with the logo, the CSS and the component of the project', async () => {
    expect(existsSync(join(site, 'dist/index.html')), 'the site of the test before').toBe(true);
    server = await serveStatic(join(site, 'dist'));
    browser = await launchChromium();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);

    const brand = page.locator('.brand');
    expect(await brand.innerText()).toContain('Acme errors');
    expect(await brand.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(1, 2, 3)');
    expect(await page.locator('.brand img.brand-logo').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(16);
    // The replaced component: the home page's search box is the project's own.
    expect(await page.locator('main .test-own-component').innerText()).toBe('Our own notice.');

    // A traceback ending in a sample record's message, a value in its placeholder, pasted into the header's box.
    const line = readFileSync(join(site, 'catalog/vllm-project-vllm.jsonl'), 'utf8').split('\n')[0]!;
    const record = (JSON.parse(line) as { record: { repo: string; slug: string; errorMessage: string; errorClass: string; filePath: string; lineNumber: number } }).record;
    const message = record.errorMessage.replace(/\{[^}]*\}/g, '7');
    const pasted = `Traceback (most recent call last):\n  File "${record.filePath}", line ${record.lineNumber}\n${record.errorClass}: ${message}`;
    await page.keyboard.press('/');
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, pasted);
    await page.waitForURL(/\/search\/#q=/);
    const query = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('q')!;
    await searchAnswered(page, query);
    const first = await page.locator('[data-search-results] a').first().evaluate((a) => new URL((a as HTMLAnchorElement).href).pathname);
    expect(first).toBe(`/${record.repo}/${record.slug}/`);
    expect(await page.locator('[data-search-results] a').first().getAttribute('data-match')).toBe('exact');
    expect(errors).toEqual([]);
    await page.close();
  });
});
