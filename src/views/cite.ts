/**
 * What "Copy for issue" copies: a Markdown block for a GitHub issue or chat, with the message as the
 * reader saw it (their values, when they came with a paste), the page's title and its permanent link.
 * Pure and free of site settings: the browser builds it, from the page's message template or with the
 * reader's values (src/client/your-error.ts).
 */
import { showBidiControls } from '../schema/text-safety.ts';

/** Characters that Markdown would read as formatting or link syntax inside link text. */
const MARKDOWN_SPECIAL = /[\\`*_[\]<>]/g;

/** Text as Markdown link text that renders exactly as written. */
export const markdownText = (text: string): string => text.replace(MARKDOWN_SPECIAL, (c) => `\\${c}`);

/** The most characters of a message the block quotes: a pasted trace is cut. */
export const ISSUE_MESSAGE_MAX = 2_000;

/**
 * The block: the message in a fenced code block (a fence longer than any run of backticks in it, so
 * nothing in the message can end it), then `Catalog entry: [title](link)`.
 */
export function issueMarkdown(message: string, title: string, url: string): string {
  const shown = showBidiControls(message, 'text');
  const text = shown.length > ISSUE_MESSAGE_MAX ? `${shown.slice(0, ISSUE_MESSAGE_MAX)}…` : shown;
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${text.replace(/\s+$/, '')}\n${fence}\n\nCatalog entry: [${markdownText(title)}](${url})\n`;
}
