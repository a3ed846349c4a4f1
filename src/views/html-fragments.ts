/**
 * The small pieces of HTML that pages repeat many times (section headings, prose, message
 * templates), as functions rather than Astro components: a page puts them in with `set:html`.
 *
 * Why: 100 more uses on each of 10,000 error pages added 10.2 CPU-seconds to the render as an Astro
 * component with a slot, 1.8 as `<Fragment set:html>` and 0.5 as `set:html` on an element. An error
 * page used about 30 of these pieces as components; rendering them as functions saved a few tenths of
 * a CPU-second at 10k pages.
 *
 * Every text is escaped here: nothing of a record is ever taken as HTML.
 */
import { parseTemplate } from '../schema/message-template.ts';
import { showBidiControls } from '../schema/text-safety.ts';
import { escapeHtml, proseSegments } from '../util/text.ts';

/** One paragraph (or line) of plain-text prose, `backtick` spans as inline code. */
const proseLine = (text: string): string =>
  proseSegments(text)
    .map((s) => (s.code ? `<code>${escapeHtml(s.text)}</code>` : escapeHtml(s.text)))
    .join('');

/**
 * Plain-text prose: a paragraph for each run of text between blank lines, `backtick` spans as inline
 * code. `inline`: no paragraphs, for a list item or a sentence.
 */
export function proseHtml(text: string, options: { inline?: boolean } = {}): string {
  if (options.inline) return proseLine(text);
  return text
    .split(/\n\s*\n/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${proseLine(p)}</p>`)
    .join('');
}

/**
 * A section heading with a stable anchor and a link to it (a copy-link control where JavaScript
 * runs: src/client/copy.ts).
 */
export function sectionHeadingHtml(id: string, title: string, level: 2 | 3 = 2): string {
  const tag = `h${level}`;
  const anchor = escapeHtml(id);
  return (
    `<div class="heading-wrap level-${level}"><${tag} id="${anchor}">${escapeHtml(title)}</${tag}>` +
    `<a class="anchor-link" href="#${anchor}" data-copy-link aria-label="Link to this section"><span aria-hidden="true">#</span></a></div>`
  );
}

/**
 * An error message template, its placeholders marked as <var>, each with a tooltip saying what it is
 * (`titled`; a list of many messages leaves it out: its links lead to pages that say it).
 */
export function templateHtml(template: string, options: { titled?: boolean } = {}): string {
  const open = options.titled === false ? '<var class="placeholder">' : '<var class="placeholder" title="placeholder: filled in at run time">';
  return parseTemplate(template)
    .map((p) => (p.kind === 'text' ? showBidiControls(p.raw, 'html') : `${open}${showBidiControls(p.raw, 'html')}</var>`))
    .join('');
}
