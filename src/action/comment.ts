/**
 * The one comment the action keeps on an issue: the error pages that match what the thread pasted,
 * exact and close matches only (a "possibly related" guess on someone's bug report is noise). A
 * hidden marker names the comment as the action's, so a later run edits it instead of adding one.
 */

/** Starts the action's comment; never shown. */
export const MARKER = '<!-- errdex: error pages for this issue -->';

/** What a comment says of one matched page: the fields of `errdex lookup`'s answer it quotes. */
export interface PageMatch {
  /** The page's absolute URL. */
  url: string;
  match: 'exact' | 'close';
  /** A page listing every place the message is raised. */
  messagePage: boolean;
  message: string;
  repo: string;
  errorClass: string | null;
  raised: { file: string; line: number | null; scope: string | null; github: string | null };
  meaning: string | null;
  firstSolution: string | null;
}

/** The longest prose quoted from a page: the page says the rest. */
const PROSE_CHARS = 280;

/**
 * Text from the catalog, shown as plain text: no markup, no HTML, no @-mention or #-reference that
 * would notify someone or link an issue (a zero-width joiner after @ and # defuses them).
 */
export function plain(text: string): string {
  return text
    .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`)
    .replace(/([@#])(?=\w)/g, '$1\u2060')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A code span that holds any text: a fence longer than its longest run of backticks. */
export function code(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A URL as a Markdown link target: nothing in it can close the link. */
const href = (url: string): string => url.replace(/[()<>\s]/g, (c) => encodeURIComponent(c));

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const at = head.lastIndexOf(' ');
  return `${head.slice(0, at > max / 2 ? at : max).trimEnd()}…`;
}

function item(m: PageMatch): string {
  const place = `${m.raised.file}${m.raised.line !== null ? `:${m.raised.line}` : ''}`;
  const where = m.raised.github ? `[${code(place)}](${href(m.raised.github)})` : code(place);
  const kind = m.match === 'close' ? ' (close match)' : '';
  const lines = [
    `- **[${plain(cut(m.message, 160))}](${href(m.url)})**${kind}`,
    `  ${plain(m.repo)}${m.errorClass ? ` · ${code(m.errorClass)}` : ''} · ${m.messagePage ? 'raised in several places, for example' : 'raised in'} ${where}${m.raised.scope ? ` (${code(m.raised.scope)})` : ''}`,
  ];
  if (m.meaning) lines.push(`  ${plain(cut(m.meaning, PROSE_CHARS))}`);
  if (m.firstSolution) lines.push(`  **Fix:** ${plain(cut(m.firstSolution, PROSE_CHARS))}`);
  // Lines of one list item would run together as one paragraph: a hard break (CommonMark's backslash) keeps them apart.
  return lines.join('\\\n');
}

/** The comment for these matches (one per page, in the order found); null when there are none. */
export function commentBody(matches: readonly PageMatch[], siteName: string): string | null {
  const pages = [...new Map(matches.map((m) => [m.url, m])).values()];
  if (pages.length === 0) return null;
  const heading = pages.length === 1 ? `The error in this issue has a page in ${plain(siteName)}:` : `The errors in this issue have pages in ${plain(siteName)}:`;
  return `${MARKER}\n${heading}\n\n${pages.map(item).join('\n')}\n\n<sub>Found by errdex from the error text in this issue; edited when the issue changes.</sub>\n`;
}
