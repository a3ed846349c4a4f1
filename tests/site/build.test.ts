import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, mkdtempSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { analysePatterns, redosFile, writeVerdicts } from '../../src/catalog/redos.ts';
import { FIXTURES, buildSite, hashTree, listFiles, readText, type BuiltSite } from '../support/site.ts';

/**
 * What lies beside an output folder: the folder itself, and a build's working folder and lock while it
 * runs (not old sites being deleted, nor the standby a build that reused the site keeps: src/build/standby.ts).
 */
const besideOutput = (dist: string): string[] => readdirSync(dirname(dist)).filter((f) => !f.startsWith('dist.previous-') && f !== 'dist.standby').sort();

const pages = [
  { id: 'b024d3d9177721a3', path: 'vllm-project/vllm/unexpected-frame-received-frame-b024d3', start: 1570, end: 1606, mark: 1588 },
  { id: '70cbd4c1e2925129', path: 'vllm-project/vllm/unsupported-auxiliary-frame-s-expected-1-frame-got-frame-count-70cbd4', start: 40, end: 76, mark: 58 },
  { id: '0a6c72d63cdb2574', path: 'vllm-project/vllm/received-pp-rank-0-handshake-metadata-but-does-not-support-pp-disaggregated-kv-transfer-0a6c72', start: 676, end: 712, mark: 694 },
];

describe('building the basic fixture catalog', () => {
  let site: BuiltSite;
  const report = join(mkdtempSync(join(tmpdir(), 'errdex-report-')), 'report.json');
  beforeAll(() => {
    site = buildSite('basic', join(FIXTURES, 'basic'), { args: [`--report=${report}`] });
    expect(site.status, site.stderr + site.stdout).toBe(0);
  });

  it("reports the published site's files and bytes, and each stage", () => {
    const r = JSON.parse(readText(report)) as { records: number; siteFiles: number; siteBytes: number; stages: { name: string }[] };
    const files = listFiles(site.dist);
    expect(r.records).toBe(4);
    expect(r.siteFiles).toBe(files.length);
    expect(r.siteBytes).toBe(files.reduce((n, f) => n + statSync(join(site.dist, f)).size, 0));
    expect(r.stages.map((st) => st.name)).toContain('publish');
  });

  it('writes one page and one JSON twin per record', () => {
    const files = listFiles(site.dist);
    const errorPages = files.filter((f) => /^[^/]+\/[^/]+\/[^/]+\/index\.html$/.test(f) && !/^(api|e|tags|classes|search)\//.test(f));
    expect(errorPages.sort()).toEqual([...pages.map((p) => `${p.path}/index.html`), 'acme/widgets/widget-not-found-111122/index.html'].sort());
    for (const p of pages) expect(files).toContain(`api/errors/${p.id}.json`);
    expect(files).toContain('api/errors/1111222233334444.json');
    expect(files).toContain('schema/error-record.json');
  });

  it.each(pages)('page $id shows its message and its numbered excerpt with the thrown line marked', (p) => {
    const html = readText(join(site.dist, p.path, 'index.html'));
    const wrapped = JSON.parse(readText(join(site.dist, 'api/errors', `${p.id}.json`)));
    expect(wrapped.record.id).toBe(p.id);
    // The whole message template, never cut, with placeholders marked.
    const h1 = /<h1 class="message">(.*?)<\/h1>/s.exec(html)![1]!;
    const text = h1.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&').replace(/&quot;/g, '"');
    expect(text).toBe(wrapped.record.errorMessage);
    expect(h1).toMatch(/<var class="placeholder"/);
    // Gutter numbers run from sourceCodeStart to sourceCodeEnd; exactly one line is marked, the thrown one.
    const gutter = /<pre class="gutter" aria-hidden="true">(.*?)<\/pre>/s.exec(html)![1]!;
    const numbers = gutter.replace(/<[^>]*>/g, '\n').split(/\s+/).filter(Boolean).map(Number);
    expect(numbers[0]).toBe(p.start);
    expect(numbers.at(-1)).toBe(p.end);
    expect(numbers).toHaveLength(p.end - p.start + 1);
    expect(gutter).toContain(`<span class="marked">${p.mark}</span>`);
    expect(html.match(/class="line marked"/g)).toHaveLength(1);
    expect(html).toContain(`id="L${p.mark}"`);
    // The JSON twin is linked and byte-identical to the catalog line.
    expect(html).toContain(`<link rel="alternate" type="application/json" href="/api/errors/${p.id}.json">`);
  });

  it('serves each JSON twin exactly as the catalog gives it', () => {
    const lines = readFileSync(join(FIXTURES, 'basic/samples.jsonl'), 'utf8').trimEnd().split('\n');
    for (const line of lines) {
      const id = JSON.parse(line).record.id;
      expect(readText(join(site.dist, 'api/errors', `${id}.json`))).toBe(line);
    }
    expect(readText(join(site.dist, 'api/errors/1111222233334444.json'))).toBe(readText(join(FIXTURES, 'basic/acme-widget.json')));
  });

  it('renders record text as text: no HTML from a record reaches the page', () => {
    const html = readText(join(site.dist, 'acme/widgets/widget-not-found-111122/index.html'));
    // Attribute values may hold '<' safely (quotes are escaped); element content must not hold a tag.
    const body = html.slice(html.indexOf('<body>'));
    expect(body).not.toContain('<b>not bold</b>');
    expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(html).toContain('<code>Store.has(id)</code>');
    expect(html).toContain('<var class="placeholder" title="placeholder: filled in at run time">%s</var>');
    // No excerpt: no gutter, but the location and the GitHub link are there.
    expect(html).not.toContain('class="gutter"');
    expect(html).toContain('lib/store.widgetlang:12');
  });

  it('publishes the JSON Schema', () => {
    const schema = JSON.parse(readText(join(site.dist, 'schema/error-record.json')));
    expect(schema.$defs.record.required).toContain('messagePattern');
  });
});

describe('a broken catalog', () => {
  it('fails listing every problem and leaves the previous dist/ untouched', () => {
    const catalog = mkdtempSync(join(tmpdir(), 'errdex-broken-'));
    cpSync(join(FIXTURES, 'basic'), catalog, { recursive: true });
    const lines = readFileSync(join(catalog, 'samples.jsonl'), 'utf8').trimEnd().split('\n');
    const bad = JSON.parse(lines[1]!);
    bad.record.severity = 'fatal';
    bad.record.sourceCodeEnd = 99;
    writeFileSync(join(catalog, 'samples.jsonl'), [lines[0], JSON.stringify(bad), '{"record": oops', lines[2], lines[2]].join('\n') + '\n');
    const dist = join(mkdtempSync(join(tmpdir(), 'errdex-dist-')), 'dist');
    const first = buildSite('unused', join(FIXTURES, 'basic'), { dist });
    expect(first.status).toBe(0);
    const before = hashTree(dist);

    const run = buildSite('unused', catalog, { dist });
    expect(run.status).toBe(1);
    const report = run.stderr.split('\n');
    const file = `${catalog}/samples.jsonl`.replace(`${process.cwd()}/`, '');
    expect(report).toEqual(
      expect.arrayContaining([
        `${file}:2  record.severity  must be one of "critical", "error", "warning", "info"; got the string "fatal"`,
        expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2  record.sourceCode  warning: has 37 lines, expected 60`)),
        expect.stringMatching(/:3 {2}\(file\) {2}malformed JSON at column 12/),
        expect.stringMatching(/:5 {2}record\.id {2}duplicates id 0a6c72d63cdb2574 of the record at .*samples\.jsonl:4/),
      ]),
    );
    expect(run.stderr).toMatch(/^4 errors in 3 of 6 records; 1 warning \(1 file\)\.$/m);
    expect(hashTree(dist)).toEqual(before); // every byte of every file
    expect(besideOutput(dist)).toEqual(['dist']); // no working folder, no lock
  });

  // Linux's /proc names each process's parent; elsewhere the render process cannot be told apart.
  it.runIf(existsSync('/proc/self/stat'))('a failure in the render stage (its process killed, as the OOM killer does) leaves the previous dist/ byte-identical and no working folder behind', async () => {
    const dist = join(mkdtempSync(join(tmpdir(), 'errdex-dist-')), 'dist');
    expect(buildSite('unused', join(FIXTURES, 'basic'), { dist }).status).toBe(0);
    const before = hashTree(dist);
    // A valid catalog: validation passes; then a render process dies.
    const child = spawn(process.execPath, ['scripts/build.ts', '--no-ledger-update'], {
      env: { ...process.env, ERRDEX_DATA: join(FIXTURES, 'hostile'), ERRDEX_DIST: dist },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const renderers = () => childrenOf(child.pid!).filter((pid) => commandOf(pid).includes('render-process'));
    await expect.poll(() => renderers().length, { timeout: 120_000, interval: 10 }).toBeGreaterThan(0);
    for (const pid of renderers()) process.kill(pid, 'SIGKILL');
    expect(await exited).not.toBe(0);
    expect(stderr).toContain('The render stage failed');
    expect(hashTree(dist)).toEqual(before);
    // Nor the build's working folder (staging, the message index, Pagefind's full-text index), nor its lock.
    expect(besideOutput(dist)).toEqual(['dist']);
  });

  it('a build killed while rendering (out of memory, power cut) leaves the previous dist/ byte-identical', async () => {
    const dist = join(mkdtempSync(join(tmpdir(), 'errdex-dist-')), 'dist');
    expect(buildSite('unused', join(FIXTURES, 'basic'), { dist }).status).toBe(0);
    const before = hashTree(dist);
    const child = spawn(process.execPath, ['scripts/build.ts', '--no-ledger-update'], {
      env: { ...process.env, ERRDEX_DATA: join(FIXTURES, 'hostile'), ERRDEX_DIST: dist },
      stdio: 'ignore',
      detached: true, // its own process group, so the kill reaches Astro too
    });
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    // Kill as soon as the render has started writing: a render process's own folder below .errdex/render/
    // (src/build/site-folders.ts), or the staging folder it is merged into.
    const staging = join(`${dist}.build-${child.pid}`, 'staging');
    const renderRoot = resolve('.errdex/render');
    const listed = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
    const earlier = new Set(listed(renderRoot));
    const rendering = () => listed(staging).length > 0 || listed(renderRoot).some((p) => !earlier.has(p) && listed(join(renderRoot, p)).length > 0);
    await expect.poll(rendering, { timeout: 60_000, interval: 10 }).toBe(true);
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    expect(hashTree(dist)).toEqual(before);
    // The next build takes the killed one's stale lock and removes its working folder.
    expect(besideOutput(dist)).toEqual(['dist', `dist.build-${child.pid}`, 'dist.lock']);
    expect(buildSite('unused', join(FIXTURES, 'basic'), { dist }).status).toBe(0);
    expect(besideOutput(dist)).toEqual(['dist']);
    expect(hashTree(dist)).toEqual(before);
  });

  it('builds the same catalog twice, from cold build caches, into byte-identical output', async () => {
    const catalog = mkdtempSync(join(tmpdir(), 'errdex-twice-'));
    // Records only: a URL ledger that another test's build left beside a fixture would be read as a
    // record file one folder down.
    const records = (src: string) => basename(src) !== 'url-ledger.json';
    cpSync(join(FIXTURES, 'basic'), join(catalog, 'basic'), { recursive: true, filter: records });
    cpSync(join(FIXTURES, 'hostile'), join(catalog, 'hostile'), { recursive: true, filter: records });
    // The ReDoS verdicts are an input of the build, like the records (npm run validate -- --redos).
    const patternOf = new Map(loadCatalog(catalog).entries.map((e) => [e.record.id, e.record.messagePattern]));
    const patterns = [...patternOf.values()];
    const { verdicts } = await analysePatterns(patterns, { cacheFile: join(mkdtempSync(join(tmpdir(), 'errdex-memo-')), 'redos.json') });
    writeVerdicts(redosFile(catalog), verdicts);
    const cold = () => ({ env: { ERRDEX_CACHE_DIR: mkdtempSync(join(tmpdir(), 'errdex-cache-')) } });
    const one = buildSite('twice-1', catalog, cold());
    const two = buildSite('twice-2', catalog, cold());
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    const a = hashTree(one.dist);
    expect(a.size).toBeGreaterThan(10);
    expect(hashTree(two.dist)).toEqual(a);
    const index = JSON.parse(readText(join(one.dist, 'api/errors.json')));
    const column = (name: string) => index.errors.map((row: unknown[]) => row[index.fields.indexOf(name)]);
    const redos = column('redos');
    expect(redos).toEqual(column('id').map((id: string) => verdicts.get(patternOf.get(id)!)!.backtracking));
    expect(redos).not.toContain('unchecked');
  }, 240_000);

  it('builds the valid records with --skip-invalid and writes every skipped record with its reasons', () => {
    const catalog = mkdtempSync(join(tmpdir(), 'errdex-skip-'));
    cpSync(join(FIXTURES, 'basic'), catalog, { recursive: true });
    writeFileSync(join(catalog, 'extra.jsonl'), '{"record": {"id": "nope"}, "datasetVersion": "2026-01-01T00:00:00Z"}\nnot json\n');
    const report = join(catalog, 'skipped.json');
    const run = buildSite('skip-invalid', catalog, { args: [`--skip-invalid=${report}`] });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Skipped 2 invalid records of 6/);
    const skipped = JSON.parse(readText(report));
    expect(skipped.skipped.map((s: { line: number }) => s.line).sort()).toEqual([1, 2]);
    expect(skipped.skipped.find((s: { line: number }) => s.line === 1).reasons.join('\n')).toMatch(/record\.id {2}must be 16 lowercase hex/);
    expect(existsSync(join(run.dist, 'api/errors/1111222233334444.json'))).toBe(true);
  });
});

describe('the command line', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['scripts/build.ts', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

  it('says what it takes with --help, and refuses unknown options and bad settings before building anything', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--skip-invalid\[=FILE\][\s\S]*--max-fragments=N[\s\S]*ERRDEX_PARTITION_RECORDS/);
    const unknown = run(['--bogus']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--bogus'[\s\S]*Nothing was built/);
    expect(run(['--max-fragments=0']).stderr).toMatch(/--max-fragments=0: expected a whole number/);
    const workers = run([], { ERRDEX_WORKERS: 'many' });
    expect(workers.status).toBe(2);
    expect(workers.stderr).toMatch(/ERRDEX_WORKERS must be a whole number .*; got "many"\./);
  });
});

/** The pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(name));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}
