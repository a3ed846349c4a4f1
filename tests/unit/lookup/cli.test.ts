import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagePath } from '../../../src/catalog/derive/message-groups.ts';
import { EXIT, HELP, runLookup, cut, MAX_PASTE } from '../../../src/lookup/cli.ts';
import type { LookupAnswer } from '../../../src/lookup/lookup.ts';
import { INDEX_FORMAT } from '../../../src/search/message-index.ts';
import { readRecords, writeIndexSite } from '../../support/index-site.ts';
import { serveStatic, type StaticServer } from '../../support/static-server.ts';

const records = readRecords('tests/fixtures/catalogs/search-sites/errors.jsonl').map((r) =>
  // Two solutions, so that a test can tell the first.
  r.id === 'b000000000000004' ? { ...r, solutions: ['Raise pool_size or return connections sooner', 'Add a timeout'] } : r,
);
const POOL = records.find((r) => r.id === 'b000000000000004')!;
const NUMERIC = records.filter((r) => r.errorMessage.startsWith('Unknown numeric column type'));
const PG8000 = NUMERIC.find((r) => r.filePath.endsWith('pg8000.py'))!;
const POOL_PASTE = 'sqlalchemy.exc.TimeoutError: QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00';
const NO_ENTRY_PASTE = 'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree';

interface Run {
  code: number;
  out: string;
  err: string;
}

async function run(args: string[], stdin: string | null = null, tty = false): Promise<Run> {
  let out = '';
  let err = '';
  const input = Object.assign(Readable.from(stdin === null ? [] : [Buffer.from(stdin)]), { isTTY: tty });
  const code = await runLookup(args, { stdin: input, stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}
const json = (r: Run) => JSON.parse(r.out) as LookupAnswer;

let dir: string;
let server: StaticServer;
beforeAll(async () => {
  dir = writeIndexSite(records);
  server = await serveStatic(dir, { base: '/errdex' });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('errdex lookup on a folder', () => {
  it('answers a message with its page, where it is raised, what it means and the first solution', async () => {
    const r = await run(['--site', dir, POOL_PASTE]);
    expect(r.code).toBe(EXIT.found);
    const page = `/${POOL.repo}/${POOL.slug}/`;
    expect(r.out).toContain(`https://errors.example.org${page}`);
    expect(r.out).toContain(join(dir, page, 'index.html'));
    expect(r.out).toContain(`Raised in  ${POOL.filePath}:${POOL.lineNumber}`);
    expect(r.out).toContain(`https://github.com/${POOL.repo}/blob/${POOL.analyzedSha}/${POOL.filePath}#L${POOL.lineNumber}`);
    expect(r.out).toContain(POOL.documentation);
    expect(r.out).toContain('First solution\n  Raise pool_size or return connections sooner');
    expect(r.out).not.toContain('Add a timeout');
    expect(r.out).toContain('size = 5');
  });

  it('prints the answer as JSON with --json, with every file it read', async () => {
    const a = json(await run(['--site', dir, '--json', POOL_PASTE]));
    expect(a).toMatchObject({ status: 'found', match: 'exact', messagePage: false, path: `/${POOL.repo}/${POOL.slug}/`, url: `https://errors.example.org/${POOL.repo}/${POOL.slug}/`, repo: POOL.repo, errorClass: 'TimeoutError' });
    if (a.status !== 'found') throw new Error('not found');
    expect(a.raised).toMatchObject({ file: POOL.filePath, line: POOL.lineNumber });
    expect(a.meaning).toBe(POOL.documentation);
    expect(a.firstSolution).toBe('Raise pool_size or return connections sooner');
    expect(a.values.map((v) => [v.name, v.value])).toEqual([['size', '5'], ['overflow', '10'], ['timeout', '30.00']]);
    expect(a.reads.map((x) => x.path)).toEqual(expect.arrayContaining(['/search-index/manifest.json', `/api/errors/${POOL.id}.json`]));
    expect(a.bytes).toBe(a.reads.reduce((s, x) => s + x.bytes, 0));
  });

  it('reads the paste from standard input, a whole traceback', async () => {
    const trace = ['Traceback (most recent call last):', '  File "/srv/app.py", line 3, in <module>', '    conn = engine.connect()', `  File "/venv/lib/python3.12/site-packages/dbkit/pool/impl.py", line ${POOL.lineNumber}, in _do_get`, '    raise exc.TimeoutError(', POOL_PASTE].join('\n');
    const a = json(await run(['--site', dir, '--json'], trace));
    expect(a).toMatchObject({ status: 'found', path: `/${POOL.repo}/${POOL.slug}/` });
    expect(json(await run(['--site', dir, '--json', '-'], POOL_PASTE))).toMatchObject({ status: 'found' });
  });

  it('answers with the message page when the paste does not say which of several places raised it', async () => {
    const a = json(await run(['--site', dir, '--json', 'InvalidRequestError: Unknown numeric column type: 1700']));
    if (a.status !== 'found') throw new Error('not found');
    expect(a.messagePage).toBe(true);
    expect(a.path).toBe(messagePath(PG8000));
    expect(a.places.map((p) => p.path).sort()).toEqual(NUMERIC.map((r) => `/${r.repo}/${r.slug}/`).sort());
    expect((await run(['--site', dir, 'InvalidRequestError: Unknown numeric column type: 1700'])).out).toContain('raised in 3 places; your paste does not say which');
  });

  it("answers with one place's page when the traceback's frame names it", async () => {
    const trace = [
      'Traceback (most recent call last):',
      `  File "/usr/lib/python3.12/site-packages/dbkit/dialects/postgresql/pg8000.py", line 66, in result_processor`,
      '    raise InvalidRequestError(',
      'dbkit.exc.InvalidRequestError: Unknown numeric column type: 1700',
    ].join('\n');
    expect(json(await run(['--site', dir, '--json'], trace))).toMatchObject({ status: 'found', messagePage: false, path: `/${PG8000.repo}/${PG8000.slug}/` });
  });

  it('says plainly that the catalog has no entry, with exit code 1', async () => {
    const r = await run(['--site', dir, NO_ENTRY_PASTE]);
    expect(r.code).toBe(EXIT.noEntry);
    expect(r.out).toContain(`the catalog at ${dir} has no entry for this error`);
    const a = json(await run(['--site', dir, '--json', NO_ENTRY_PASTE]));
    expect(a.status).toBe('no-entry');
    // Nothing but the index was read.
    expect(a.reads.every((x) => x.path.startsWith('/search-index/') || x.path === '/api/manifest.json')).toBe(true);
  });

  it("says why a row whose template fits is no match: the paste names another error than the record's", async () => {
    const paste = POOL_PASTE.replace('sqlalchemy.exc.TimeoutError', 'celery.exceptions.WorkerLostError');
    const r = await run(['--site', dir, paste]);
    expect(r.code).toBe(EXIT.noEntry);
    expect(r.out).toContain(`the same words, but your paste names celery.exceptions.WorkerLostError and this entry raises ${POOL.errorClass}`);
    const a = json(await run(['--site', dir, '--json', paste]));
    expect(a.status === 'no-entry' && a.related[0]).toMatchObject({ repo: POOL.repo, errorClass: POOL.errorClass, otherClass: 'celery.exceptions.WorkerLostError' });
  });

  it("says why a row whose template fits is no match: the paste's traceback does not go through the record's raise site", async () => {
    const paste = ['Traceback (most recent call last):', '  File "/srv/app.py", line 3, in <module>', '    conn = engine.connect()', POOL_PASTE].join('\n');
    const r = await run(['--site', dir, paste]);
    expect(r.code).toBe(EXIT.noEntry);
    expect(r.out).toContain(`the same words, but your paste's traceback does not go through ${POOL.filePath}, where this entry raises it`);
    const a = json(await run(['--site', dir, '--json', paste]));
    expect(a.status === 'no-entry' && a.related[0]).toMatchObject({ repo: POOL.repo, missedFile: POOL.filePath });
  });

  it('gives paths only when the folder names no site URL', async () => {
    const bare = writeIndexSite(records, { siteUrl: null });
    try {
      const a = json(await run(['--site', bare, '--json', POOL_PASTE]));
      expect(a).toMatchObject({ status: 'found', url: null, pageFile: join(bare, POOL.repo, POOL.slug, 'index.html') });
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("still answers when the record's JSON twin is missing, and says so", async () => {
    const broken = writeIndexSite(records);
    rmSync(join(broken, 'api/errors', `${POOL.id}.json`));
    try {
      const r = await run(['--site', broken, '--json', POOL_PASTE]);
      expect(r.code).toBe(EXIT.found);
      const a = json(r);
      if (a.status !== 'found') throw new Error('not found');
      expect(a.note).toContain(`${POOL.id}.json`);
      // The index's start of the explanation.
      expect(a.meaning).toBeTruthy();
      expect(POOL.documentation.startsWith(a.meaning!.replace(/…$/, ''))).toBe(true);
      expect(a.firstSolution).toBeNull();
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});

describe('errdex lookup over HTTP', () => {
  it('answers from the deployed site under its base path, with absolute URLs', async () => {
    const a = json(await run(['--site', server.url, '--json', POOL_PASTE]));
    expect(a).toMatchObject({ status: 'found', url: `${server.url}/${POOL.repo}/${POOL.slug}/`, pageFile: null });
    expect(a.site).toBe(`${server.url}/`);
  });

  it('fetches only the manifest, the shards of the paste and the one twin, counting their bytes', async () => {
    server.bytes.clear();
    const a = json(await run(['--site', `${server.url}/`, '--json', POOL_PASTE]));
    const fetched = [...server.bytes.keys()];
    expect(fetched.sort()).toEqual(a.reads.map((x) => `/errdex${x.path}`).sort());
    expect(fetched.filter((p) => !p.startsWith('/errdex/search-index/'))).toEqual([`/errdex/api/errors/${POOL.id}.json`]);
    expect(a.bytes).toBe([...server.bytes.values()].reduce((s, b) => s + b, 0));
  });

  it('exits 1 for no entry and 2 when the site is not there', async () => {
    expect((await run(['--site', server.url, NO_ENTRY_PASTE])).code).toBe(EXIT.noEntry);
    const missing = await run(['--site', `${server.url}/nothing-here/`, '--json', POOL_PASTE]);
    expect(missing.code).toBe(EXIT.error);
    expect(JSON.parse(missing.out)).toMatchObject({ status: 'error' });
    expect(missing.err).toContain('HTTP 404');
    const refused = await run(['--site', 'http://127.0.0.1:9/', POOL_PASTE]);
    expect(refused.code).toBe(EXIT.error);
    expect(refused.err).toContain('cannot fetch http://127.0.0.1:9/search-index/manifest.json');
  });
});

describe('errdex lookup, usage', () => {
  it('prints its help', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${HELP}\n`);
  });

  it('exits 2 on a missing --site, an unknown option, an empty paste, no paste at a terminal, a folder that is not a site', async () => {
    for (const [args, stdin, tty, says] of [
      [[POOL_PASTE], null, false, '--site is required'],
      [['--site', dir, '--bogus', POOL_PASTE], null, false, "Unknown option '--bogus'"],
      [['--site', dir], '  \n', false, 'the paste is empty'],
      [['--site', dir], null, true, 'give the paste as arguments'],
      [['--site', dir, '--timeout', 'soon', POOL_PASTE], null, false, '--timeout takes a number of seconds'],
      [['--site', join(dir, 'api'), POOL_PASTE], null, false, 'search-index/manifest.json'],
      [['--site', join(dir, 'no-such-folder'), POOL_PASTE], null, false, 'is not a folder'],
    ] as const) {
      const r = await run([...args], stdin, tty);
      expect(r.code, args.join(' ')).toBe(EXIT.error);
      expect(r.err, args.join(' ')).toContain(says);
    }
  });

  it('refuses a message index of another format, naming both', async () => {
    const other = writeIndexSite(records);
    const file = join(other, 'search-index/manifest.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), format: 99 }));
    try {
      const r = await run(['--site', other, POOL_PASTE]);
      expect(r.code).toBe(EXIT.error);
      expect(r.err).toContain(`the site's message index is format 99; this errdex reads format ${INDEX_FORMAT}`);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('keeps the head and tail of a paste too long to match whole', () => {
    const long = `first line\n${'x'.repeat(MAX_PASTE)}\nValueError: the end`;
    const kept = cut(long);
    expect(kept.length).toBeLessThanOrEqual(MAX_PASTE + 3);
    expect(kept.startsWith('first line\n')).toBe(true);
    expect(kept.endsWith('ValueError: the end')).toBe(true);
    expect(cut('short')).toBe('short');
  });
});
