/**
 * The action end to end on recorded webhook payloads, against a local server that answers the GitHub
 * REST calls over HTTP; the site's lookup is a stand-in here (tests/site/action.test.ts runs the real
 * one against a built site).
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MARKER, type PageMatch } from '../../../src/action/comment.ts';
import { gitHub } from '../../../src/action/github.ts';
import { NOTHING_NOW, payloadSchema, runAction } from '../../../src/action/run.ts';
import { startGitHubServer, type GitHubServer } from '../../support/github-server.ts';

const payload = (name: string) => payloadSchema.parse(JSON.parse(readFileSync(`tests/fixtures/action/${name}.json`, 'utf8')));

/** Knows two messages, as a site would: a page for each, found when the paste holds its words. */
const pages: Record<string, PageMatch> = {
  'Unknown numeric column type': {
    url: 'https://errors.example.org/acme/widgets/unknown-numeric-column-type-1a2b3c/',
    match: 'exact',
    messagePage: false,
    message: 'Unknown numeric column type: {code}',
    repo: 'acme/widgets',
    errorClass: 'ValueError',
    raised: { file: 'widgets/importer.py', line: 88, scope: 'load', github: null },
    meaning: 'The column type code is unknown.',
    firstSolution: 'Upgrade the driver.',
  },
  'Worker pool is exhausted': {
    url: 'https://errors.example.org/acme/widgets/worker-pool-is-exhausted-4d5e6f/',
    match: 'exact',
    messagePage: false,
    message: 'Worker pool is exhausted; increase max_workers',
    repo: 'acme/widgets',
    errorClass: 'RuntimeError',
    raised: { file: 'widgets/pool.py', line: 12, scope: null, github: null },
    meaning: null,
    firstSolution: null,
  },
};

describe('action: a run per webhook event', () => {
  const TOKEN = 'ghs_test_token';
  let server: GitHubServer;
  let looked: string[];
  const find = async (paste: string) => {
    looked.push(paste);
    return Object.entries(pages).find(([words]) => paste.includes(words))?.[1] ?? null;
  };
  const run = (event: string, name: string) => runAction({ event, payload: payload(name), github: gitHub({ api: server.url, token: TOKEN }), find, siteName: 'Acme errors' });
  const writes = () => server.calls.filter((c) => c.method !== 'GET');

  beforeEach(async () => {
    server = await startGitHubServer(TOKEN);
    looked = [];
  });
  afterEach(() => server.close());

  it('posts one comment on an opened issue, then edits it (never a second) when the issue is edited', async () => {
    expect(await run('issues', 'issues-opened')).toMatchObject({ kind: 'created', pastes: 1, pages: 1 });
    expect(looked).toEqual([expect.stringContaining('ValueError: Unknown numeric column type: 1700')]);
    const [first] = server.comments.get('acme/widgets#42')!;
    expect(first!.body.startsWith(MARKER)).toBe(true);
    expect(first!.body).toContain('unknown-numeric-column-type-1a2b3c');
    expect(server.calls.every((c) => c.authorization === `Bearer ${TOKEN}`)).toBe(true);

    const edited = await run('issues', 'issues-edited');
    expect(edited).toMatchObject({ kind: 'updated', pages: 2, commentId: first!.id });
    expect(server.comments.get('acme/widgets#42')).toHaveLength(1);
    expect(server.comments.get('acme/widgets#42')![0]!.body).toContain('worker-pool-is-exhausted-4d5e6f');
    expect(writes().map((c) => c.method)).toEqual(['POST', 'PATCH']);

    // The same text again: nothing to write.
    expect(await run('issues', 'issues-edited')).toMatchObject({ kind: 'unchanged' });
    expect(writes()).toHaveLength(2);
  });

  it('stays silent on an issue without an error, and looks nothing up for its shell block', async () => {
    expect(await run('issues', 'issues-opened-no-error')).toMatchObject({ kind: 'silent', pastes: 0 });
    expect(looked).toEqual([]);
    expect(writes()).toEqual([]);
  });

  it("reads errors pasted in comments, and skips its own comment's event", async () => {
    server.comments.set('acme/widgets#44', [{ id: 900, body: payload('issue-comment-created').comment!.body!, user: { login: 'hubot', type: 'User' } }]);
    expect(await run('issue_comment', 'issue-comment-created')).toMatchObject({ kind: 'created', pages: 1 });
    const own = server.comments.get('acme/widgets#44')!.find((c) => c.body.startsWith(MARKER))!;
    const ownEvent = payload('issue-comment-created');
    ownEvent.comment = { id: own.id, body: own.body };
    const result = await runAction({ event: 'issue_comment', payload: ownEvent, github: gitHub({ api: server.url, token: TOKEN }), find, siteName: 'x' });
    expect(result).toMatchObject({ kind: 'skipped' });
  });

  it('corrects its comment when the thread no longer pastes a matching error', async () => {
    await run('issues', 'issues-opened');
    const quiet = payload('issues-edited');
    quiet.issue.body = 'Fixed by upgrading, thanks.';
    const result = await runAction({ event: 'issues', payload: quiet, github: gitHub({ api: server.url, token: TOKEN }), find, siteName: 'x' });
    expect(result).toMatchObject({ kind: 'updated', pages: 0 });
    expect(server.comments.get('acme/widgets#42')![0]!.body).toBe(NOTHING_NOW);
  });

  it('ignores events that do not change the text (a label added)', async () => {
    const labeled = payload('issues-opened');
    labeled.action = 'labeled';
    expect(await runAction({ event: 'issues', payload: labeled, github: gitHub({ api: server.url, token: TOKEN }), find, siteName: 'x' })).toMatchObject({ kind: 'skipped' });
    expect(server.calls).toEqual([]);
  });

  it('says which call failed when GitHub refuses', async () => {
    await expect(runAction({ event: 'issues', payload: payload('issues-opened'), github: gitHub({ api: server.url, token: 'wrong' }), find, siteName: 'x' })).rejects.toThrow(/GET \/repos\/acme\/widgets\/issues\/42\/comments.*HTTP 401/);
  });
});
