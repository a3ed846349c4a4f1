import { describe, expect, it } from 'vitest';
import { issueMarkdown, ISSUE_MESSAGE_MAX } from '../../../src/views/cite.ts';
import { defaultSettingWarnings } from '../../../src/views/metadata.ts';
import { defaultSettings } from '../../../errdex.config.mjs';

describe('the Markdown block for an issue', () => {
  it('fences the message, then links the page under its title', () => {
    expect(issueMarkdown('ValueError: bad [x] *y*', 'ValueError: bad — o/r', 'https://s/e/1/')).toBe(
      '```\nValueError: bad [x] *y*\n```\n\nCatalog entry: [ValueError: bad — o/r](https://s/e/1/)\n',
    );
  });

  it('uses a fence longer than any backtick run in the message, escapes the title, and cuts a long paste', () => {
    expect(issueMarkdown('a ```` b', 'a `x` [y]', 'u')).toBe('`````\na ```` b\n`````\n\nCatalog entry: [a \\`x\\` \\[y\\]](u)\n');
    const long = issueMarkdown('x'.repeat(ISSUE_MESSAGE_MAX + 50), 't', 'u');
    expect(long).toContain(`${'x'.repeat(ISSUE_MESSAGE_MAX)}…\n`);
  });
});

describe('warnings about default settings', () => {
  it('names each setting left at its default, and nothing once both are set', () => {
    const both = defaultSettingWarnings(defaultSettings);
    expect(both).toHaveLength(2);
    expect(both[0]).toContain('ERRDEX_SITE_URL');
    expect(both[1]).toContain('ERRDEX_REPORT_URL');
    expect(defaultSettingWarnings({ siteUrl: 'https://errors.example.org', reportIssueUrl: 'https://github.com/me/cat/issues/new' })).toEqual([]);
  });
});
