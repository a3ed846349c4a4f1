/**
 * Bidirectional controls in a record's message never reorder what the reader sees: shown isolated and
 * labelled in the heading and links (HTML), as a `[U+202E]` marker in the title and in copied text.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../src/catalog/catalog.ts';
import { messageGroups } from '../../../src/catalog/derive/message-groups.ts';
import { issueMarkdown } from '../../../src/views/cite.ts';
import { markdownLink, messagePageTitle, pageTitle, reportIssueUrl } from '../../../src/views/error-view.ts';
import { templateHtml } from '../../../src/views/html-fragments.ts';

const r = { id: '0000000000000001', repo: 'acme/widgets', errorClass: 'ValueError', errorMessage: 'file txt.\u202Eexe\u202C {name} not found' };

describe('bidirectional controls in an error message', () => {
  it('the heading keeps each control isolated in a labelled span, the placeholder too', () => {
    const html = templateHtml('file txt.\u202Eexe\u202C {na\u2067me} not found');
    expect(html).toContain('txt.<span class="bidi-control" title="U+202E RIGHT-TO-LEFT OVERRIDE" data-cp="U+202E">\u202E</span>exe');
    expect(html).toContain(
      '<var class="placeholder" title="placeholder: filled in at run time">{na<span class="bidi-control" title="U+2067 RIGHT-TO-LEFT ISOLATE" data-cp="U+2067">\u2067</span>me}</var>',
    );
  });

  it('titles, links and copied text show a marker where each control was', () => {
    expect(pageTitle(r)).toBe('ValueError: file txt.[U+202E]exe[U+202C] {name} not found — acme/widgets');
    expect(pageTitle(r, { place: 'store.py' })).toContain('[U+202E]');
    const [group] = messageGroups([r, { ...r, id: '0000000000000002' }].map((record) => ({ record }) as CatalogEntry));
    expect(messagePageTitle(group!)).toContain('txt.[U+202E]exe[U+202C]');
    expect(markdownLink(r, 'https://errdex.dev/e/1/')).toContain('txt.\\[U+202E\\]exe\\[U+202C\\]'); // Markdown-escaped, renders as [U+202E]
    expect(issueMarkdown(r.errorMessage, 'title', 'https://errdex.dev/e/1/')).toContain('file txt.[U+202E]exe[U+202C] {name} not found');
    const issue = new URL(reportIssueUrl(r, 'https://errdex.dev/e/1/'));
    expect(issue.searchParams.get('title')).toContain('[U+202E]');
    expect(issue.searchParams.get('body')).toContain('txt.[U+202E]exe');
    for (const text of [pageTitle(r), markdownLink(r, 'u'), issueMarkdown(r.errorMessage, 't', 'u')]) expect(text).not.toMatch(/\p{Bidi_Control}/u);
  });
});
