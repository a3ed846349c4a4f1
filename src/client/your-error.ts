/**
 * Fills the "Your error" box of an error page from `#m=` (search results link so: the fragment
 * never reaches a server's log) or `?m=` (links shared before): the template with the pasted values put
 * in, and each placeholder's value listed (`frame_count = 3`). Text only, never HTML. Makes what "Copy
 * for issue" copies (src/views/cite.ts, src/components/error/CiteBar.astro): the message as the reader
 * saw it, or the template when no paste came with the page.
 */
import { errorHeadline } from '../catalog/headline.ts';
import { fillTemplate, parseTemplate } from '../schema/message-template.ts';
import { issueMarkdown } from '../views/cite.ts';
import { addressValue } from './paste-box.ts';

/** A pasted message longer than this is cut: it is shown, not processed. */
const MAX_MESSAGE = 4_000;

const box = document.querySelector<HTMLElement>('[data-your-error]');
const issue = document.querySelector<HTMLElement>('[data-copy-issue]');
// The heading's text is the template as written (src/views/html-fragments.ts: templateHtml).
const template = document.querySelector('h1.message')?.textContent ?? '';
const pasted = addressValue('m')?.trim().slice(0, MAX_MESSAGE);
if (box && issue) setIssueBlock(issue, errorHeadline({ errorClass: issue.dataset.errorClass || null, errorMessage: template }));
if (box && pasted) show(box, pasted);

function setIssueBlock(button: HTMLElement, message: string): void {
  button.dataset.copy = issueMarkdown(message, button.dataset.title ?? '', button.dataset.url ?? '');
}

function show(box: HTMLElement, message: string): void {
  const out = box.querySelector<HTMLElement>('[data-your-error-message]')!;
  const list = box.querySelector<HTMLElement>('[data-your-error-values]')!;
  const note = box.querySelector<HTMLElement>('[data-your-error-note]')!;
  const values = fillTemplate(template, message);
  if (values) {
    let i = 0;
    for (const p of parseTemplate(template)) {
      if (p.kind === 'text') out.append(p.text);
      else {
        const mark = document.createElement('mark');
        mark.className = 'filled';
        mark.title = `${p.name ?? p.raw}`;
        mark.textContent = values[i++]?.value ?? '';
        out.append(mark);
      }
    }
    for (const v of values) {
      const dt = document.createElement('dt');
      const name = document.createElement('code');
      name.textContent = v.name ?? v.raw;
      dt.append(name);
      const dd = document.createElement('dd');
      const value = document.createElement('code');
      value.textContent = v.value;
      dd.append(value);
      list.append(dt, dd);
    }
    list.hidden = values.length === 0;
    note.textContent = values.length ? 'The highlighted parts are the values from your message.' : 'Your message is exactly this template.';
  } else {
    out.textContent = message;
    list.hidden = true;
    note.textContent = 'Your message does not follow this template exactly: it may come from another version of the code, or from a similar error.';
  }
  box.hidden = false;
  if (issue) {
    // The template filled in reads as the error did, with its class before it; a paste that does not fit is quoted as pasted.
    const cls = issue.dataset.errorClass;
    setIssueBlock(issue, values ? `${cls ? `${cls}: ` : ''}${out.textContent ?? ''}` : message);
  }
}
