import { describe, expect, it } from 'vitest';
import { checkShortLinkTemplate, SHORT_LINK_MARKERS as M, stampShortLink } from '../../../src/views/short-link.ts';

const template =
  `<html><head><title>${M.title}</title><meta property="og:title" content="${M.title}"><meta property="og:description" content="${M.description}">` +
  `<link rel="canonical" href="https://errdex.dev/sub${M.to}"><meta http-equiv="refresh" content="0; url=/sub${M.to}"></head>` +
  `<body><a href="/sub${M.to}">${M.title}</a><p>/e/${M.id}/</p><script>var t=1</script></body></html>`;

describe('short-link pages from the template', () => {
  it('puts the record’s values wherever the markers stand, the title escaped', () => {
    const html = stampShortLink(template, { id: '1111222233334444', to: '/acme/widgets/lock-failed-111122/', title: 'KeyError: "a" < b & c — acme/widgets', description: 'The "key" is <missing>.' });
    expect(html).toBe(
      '<html><head><title>KeyError: &quot;a&quot; &lt; b &amp; c — acme/widgets</title>' +
        '<meta property="og:title" content="KeyError: &quot;a&quot; &lt; b &amp; c — acme/widgets">' +
        '<meta property="og:description" content="The &quot;key&quot; is &lt;missing&gt;.">' +
        '<link rel="canonical" href="https://errdex.dev/sub/acme/widgets/lock-failed-111122/"><meta http-equiv="refresh" content="0; url=/sub/acme/widgets/lock-failed-111122/"></head>' +
        '<body><a href="/sub/acme/widgets/lock-failed-111122/">KeyError: &quot;a&quot; &lt; b &amp; c — acme/widgets</a><p>/e/1111222233334444/</p><script>var t=1</script></body></html>',
    );
  });

  it('stamps in one pass: a title that holds a marker’s text is shown as it is', () => {
    const title = `about ${M.to} and ${M.id} and $1 $' $0`;
    const html = stampShortLink(template, { id: 'abc', to: '/a/b/c/', title, description: `see ${M.title}` });
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`content="see ${M.title}"`);
    expect(html).toContain('href="/sub/a/b/c/"');
  });

  it('refuses an id or path that would need escaping, rather than write a wrong page', () => {
    expect(() => stampShortLink(template, { id: 'abc', to: '/a/b/"><script>/', title: 't', description: 'd' })).toThrow(/its to .* holds characters a URL path may not/);
    expect(() => stampShortLink(template, { id: 'a b', to: '/a/b/c/', title: 't', description: 'd' })).toThrow(/its id/);
  });

  it('accepts a template that has the page path and title outside scripts and styles', () => {
    expect(() => checkShortLinkTemplate(template)).not.toThrow();
    expect(() => checkShortLinkTemplate(template.replaceAll(M.title, 'fixed'))).toThrow(/no title marker/);
    expect(() => checkShortLinkTemplate(template.replaceAll(M.to, '/x/'))).toThrow(/no to marker/);
    expect(() => checkShortLinkTemplate(template.replaceAll(M.description, 'fixed'))).toThrow(/no description marker/);
    expect(() => checkShortLinkTemplate(template.replace('var t=1', `var t="${M.to}"`))).toThrow(/inside a <script> element/);
    expect(() => checkShortLinkTemplate(`${template}<style>a[href="${M.title}"]{}</style>`)).toThrow(/inside a <style> element/);
  });
});
