/**
 * The GitHub Action as a workflow runs it (`node scripts/action.ts` with the runner's environment),
 * on recorded webhook payloads, with the real lookup against a built fixture site served over HTTP
 * and a local server answering the GitHub REST calls: the comment links the right page, a second run
 * edits it rather than posting another, and an issue without an error gets no comment.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKER } from '../../src/action/comment.ts';
import { startGitHubServer, type GitHubServer } from '../support/github-server.ts';
import { runScript } from '../support/run-script.ts';
import { buildSite, FIXTURES, type BuiltSite } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

const TOKEN = 'ghs_site_test';
const BASE = '/errdex';
// The `search-sites` catalog: its pool time-out error has a page of its own.
const POOL = '/dbkit/core/pool-timed-out-b00000/';
const POOL_TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "/srv/app/worker.py", line 88, in run',
  '    conn = engine.connect()',
  '  File "/usr/local/lib/python3.12/site-packages/dbkit/pool/impl.py", line 11, in _do_get',
  '    raise exc.TimeoutError(',
  'sqlalchemy.exc.TimeoutError: QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00',
].join('\n');
// Raised in three places, none of which the paste picks: its message page.
const GROUP = 'dbkit.exc.InvalidRequestError: Unknown numeric column type: 1700';
const NO_ENTRY = 'fatal: not a git repository (or any of the parent directories): .git';

/** A recorded payload with the issue's body replaced. */
function payloadFile(dir: string, fixture: string, body: string): string {
  const payload = JSON.parse(readFileSync(`tests/fixtures/action/${fixture}.json`, 'utf8'));
  payload.issue.body = body;
  const file = join(dir, `${fixture}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(payload));
  return file;
}

/** The action as a runner starts it: nothing of this process's environment but PATH. */
const runAction = (env: Record<string, string>) => runScript('scripts/action.ts', [], { env: { PATH: process.env.PATH ?? '', ...env } });

describe('the GitHub Action against a built site', () => {
  let site: BuiltSite;
  let server: StaticServer;
  let github: GitHubServer;
  const dir = mkdtempSync(join(tmpdir(), 'errdex-action-'));
  const env = (event: string, payload: string) => ({
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: payload,
    GITHUB_API_URL: github.url,
    ERRDEX_ACTION_SITE: `${server.url}/`,
    ERRDEX_ACTION_TOKEN: TOKEN,
    ERRDEX_ACTION_SITE_NAME: 'dbkit errors',
  });
  beforeAll(async () => {
    site = buildSite('action', join(FIXTURES, 'search-sites'), { env: { ERRDEX_BASE_PATH: BASE } });
    expect(site.status, site.stderr + site.stdout).toBe(0);
    server = await serveStatic(site.dist, { base: BASE });
    github = await startGitHubServer(TOKEN);
  });
  afterAll(async () => {
    await server?.close();
    await github?.close();
  });

  it('comments with the page of a pasted traceback, then edits that comment when the issue changes', async () => {
    const opened = payloadFile(dir, 'issues-opened', `My worker dies:\n\n\`\`\`\n${POOL_TRACEBACK}\n\`\`\`\n`);
    const first = await runAction(env('issues', opened));
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('created: 1 error text(s) looked up, 1 page(s) linked');
    const comments = github.comments.get('acme/widgets#42')!;
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body.startsWith(MARKER)).toBe(true);
    expect(comments[0]!.body).toContain(`(${server.url}${POOL})`);
    expect(comments[0]!.body).toContain('in dbkit errors');
    expect(comments[0]!.body).toContain('lib/dbkit/pool/impl.py:11');

    // The user adds another error: the same comment, edited to list both pages.
    const edited = payloadFile(dir, 'issues-edited', `My worker dies:\n\n\`\`\`\n${POOL_TRACEBACK}\n\`\`\`\n\nand the importer:\n\n    ${GROUP}\n\n${GROUP}\n`);
    const second = await runAction(env('issues', edited));
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain('updated: 2 error text(s) looked up, 2 page(s) linked');
    expect(github.comments.get('acme/widgets#42')).toHaveLength(1);
    expect(github.comments.get('acme/widgets#42')![0]!.body).toMatch(/\/dbkit\/core\/m\/unknown-numeric-column-type-[\w-]+\/\)\*\*/);
    expect(github.comments.get('acme/widgets#42')![0]!.body).toContain('raised in several places');

    // And an error the catalog has no entry for: nothing to change.
    const third = payloadFile(dir, 'issues-edited', `My worker dies:\n\n\`\`\`\n${POOL_TRACEBACK}\n\`\`\`\n\nand the importer:\n\n${GROUP}\n\n\`\`\`\n${NO_ENTRY}\n\`\`\`\n`);
    const again = await runAction(env('issues', third));
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('unchanged: 3 error text(s) looked up, 2 page(s) linked');
    expect(github.calls.filter((c) => c.method !== 'GET').map((c) => c.method)).toEqual(['POST', 'PATCH']);
  });

  it('posts nothing on an issue whose error has no entry, or that pastes no error', async () => {
    const before = github.calls.filter((c) => c.method !== 'GET').length;
    for (const body of [`\`\`\`\n${NO_ENTRY}\n\`\`\``, 'The README has a typo.']) {
      const r = await runAction(env('issues', payloadFile(dir, 'issues-opened-no-error', body)));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain('silent');
    }
    expect(github.comments.get('acme/widgets#43')).toBeUndefined();
    expect(github.calls.filter((c) => c.method !== 'GET').length).toBe(before);
  });

  it('names every problem of its settings and stops with exit code 2', async () => {
    const r = await runAction({ GITHUB_EVENT_NAME: 'issues', GITHUB_EVENT_PATH: join(dir, 'missing.json'), ERRDEX_ACTION_SITE: 'errors.example.org', ERRDEX_ACTION_TOKEN: '' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('2 problems');
    expect(r.err).toContain("ERRDEX_ACTION_SITE must be the deployed site's http(s) URL");
    expect(r.err).toContain('ERRDEX_ACTION_TOKEN is not set: give the action a token');
  });
});
