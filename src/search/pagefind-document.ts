/**
 * What Pagefind indexes for one error: a small HTML document holding only what full-text search
 * needs (message, class, meaning, when it happens, solutions, the thrown line), weighted so that the
 * message and title count most and code least, with the search filters and result metadata.
 *
 * Built from the record rather than scraped from the rendered page: the same content serves the
 * site build and the benchmark, and Pagefind's memory grows with what it reads (a full page costs
 * ~170 KB of it; this document a fraction).
 */
import { escapeHtml } from '../util/text.ts';
import { errorPath } from '../util/urls.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { errorHeadline } from '../catalog/headline.ts';
import type { SearchFilter } from './filters.ts';
import { indexEntry } from './message-index.ts';

export interface PagefindDocument {
  /** Root-relative page URL without the base path (the search page adds it). */
  url: string;
  content: string;
}

/** The line the error is thrown on, when the excerpt holds it: code, weighted low. */
function thrownLine(r: ErrorRecord): string | null {
  if (r.sourceCode === null || r.sourceCodeStart === null || r.lineNumber === null) return null;
  return r.sourceCode.split('\n')[r.lineNumber - r.sourceCodeStart]?.trim() || null;
}

const meta = (name: string, value: string): string => `<meta data-pagefind-meta="${name}[content]" content="${escapeHtml(value)}">`;

export function pagefindDocument(r: ErrorRecord): PagefindDocument {
  const e = indexEntry(r);
  const filters: [SearchFilter, string][] = [
    ['repo', r.repo],
    ['severity', r.severity],
    ['errorType', r.errorType],
    ['language', e.language],
    ...(r.errorClass ? [['errorClass', r.errorClass] as [SearchFilter, string]] : []),
    ...r.tags.map((t) => ['tag', t] as [SearchFilter, string]),
  ];
  const code = thrownLine(r);
  const h = escapeHtml;
  const content = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${h(errorHeadline(r))}</title></head><body><main data-pagefind-body>`,
    `<h1 data-pagefind-weight="10" data-pagefind-meta="title">${h(errorHeadline(r))}</h1>`,
    r.errorCode ? `<p data-pagefind-weight="8">${h(r.errorCode)}</p>` : '',
    // Earlier wordings (a record scanned with --history): an old message's words find it too.
    r.history?.messageChanges.length ? `<p data-pagefind-weight="5">${r.history.messageChanges.map((c) => h(c.errorMessage)).join('<br>')}</p>` : '',
    `<p data-pagefind-weight="2">${h(r.documentation)}</p>`,
    `<p>${h(r.triggerScenarios)}</p><p>${h(r.commonSituations)}</p>`,
    r.solutions.length ? `<ul>${r.solutions.map((s) => `<li>${h(s)}</li>`).join('')}</ul>` : '',
    r.tags.length ? `<p data-pagefind-weight="2">${r.tags.map(h).join(' ')}</p>` : '',
    code ? `<pre data-pagefind-weight="0.3">${h(code)}</pre>` : '',
    // <meta> carries filters and result metadata without adding them to the searchable text.
    filters.map(([name, value]) => `<meta data-pagefind-filter="${name}[content]" content="${h(value)}">`).join(''),
    meta('repo', r.repo),
    r.errorClass ? meta('errorClass', r.errorClass) : '',
    meta('template', r.errorMessage),
    meta('id', r.id),
    '</main></body></html>',
  ].join('');
  return { url: errorPath(r), content };
}
