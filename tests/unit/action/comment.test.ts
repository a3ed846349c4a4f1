import { describe, expect, it } from 'vitest';
import { code, commentBody, MARKER, plain, type PageMatch } from '../../../src/action/comment.ts';

const page = (over: Partial<PageMatch> = {}): PageMatch => ({
  url: 'https://errors.example.org/acme/widgets/unknown-numeric-column-type-1a2b3c/',
  match: 'exact',
  messagePage: false,
  message: 'Unknown numeric column type: {code}',
  repo: 'acme/widgets',
  errorClass: 'ValueError',
  raised: { file: 'widgets/importer.py', line: 88, scope: 'load', github: 'https://github.com/acme/widgets/blob/0123abc/widgets/importer.py#L88' },
  meaning: 'The column type code read from the file is not one the importer knows.',
  firstSolution: 'Upgrade the database driver so that it reports the column type by name.',
  ...over,
});

describe('action: the comment', () => {
  it('lists each page once, with where it is raised, its meaning and first fix, under the marker', () => {
    const body = commentBody([page(), page(), page({ url: 'https://errors.example.org/acme/widgets/m/pool-exhausted-99/', match: 'close', messagePage: true, message: 'Worker pool is exhausted', raised: { file: 'widgets/pool.py', line: null, scope: null, github: null }, meaning: null, firstSolution: null })], 'Acme errors')!;
    expect(body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(body).toContain('The errors in this issue have pages in Acme errors:');
    expect(body.match(/unknown-numeric-column-type-1a2b3c/g)).toHaveLength(1);
    expect(body).toContain('- **[Unknown numeric column type: {code}](https://errors.example.org/acme/widgets/unknown-numeric-column-type-1a2b3c/)**\\\n');
    // One item's lines end in a hard break, so that they do not run together as one paragraph.
    expect(body).toContain("(`load`)\\\n  The column type code read from the file is not one the importer knows.\\\n  **Fix:** Upgrade");
    expect(body).toContain('raised in [`widgets/importer.py:88`](https://github.com/acme/widgets/blob/0123abc/widgets/importer.py#L88) (`load`)');
    expect(body).toContain('**Fix:** Upgrade the database driver');
    expect(body).toContain('(close match)');
    expect(body).toContain('raised in several places, for example `widgets/pool.py`');
  });

  it('posts nothing when nothing matches', () => {
    expect(commentBody([], 'Acme errors')).toBeNull();
  });

  it("shows the catalog's text as text: no markup, HTML, mention or issue link", () => {
    expect(plain('See <img src=x> and **this** @admin #12 [x](y)')).toBe('See \\<img src=x\\> and \\*\\*this\\*\\* @\u2060admin #\u206012 \\[x\\](y)');
    const body = commentBody([page({ message: 'bad `value` for @owner', meaning: '<script>alert(1)</script>' })], 'x')!;
    expect(body).not.toContain('<script>');
    expect(body).not.toMatch(/@owner/);
  });

  it('fences code spans longer than any run of backticks inside', () => {
    expect(code('a `b` c')).toBe('``a `b` c``');
    expect(code('`x')).toBe('`` `x ``');
  });
});
