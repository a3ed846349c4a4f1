/**
 * What a paste picked up on its way from the terminal that printed it: Markdown's code fences and
 * inline code (an issue, a chat), HTML's escapes (a page's source, a log viewer), a JSON string (a
 * JSON log, an API's body), URL encoding (an address), line breaks escaped as `\n` (a log that
 * escapes them). Each is undone only when the whole paste, or the whole line, has that shape.
 * Linear in the paste's length: no pattern here backtracks.
 */

const ENTITY = /&(?:(quot|apos|amp|lt|gt|nbsp)|#(\d{1,7})|#x([0-9a-f]{1,6}));/gi;
const NAMED: Record<string, string> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>', nbsp: ' ' };

/**
 * HTML's escapes of what messages print, from a paste copied out of a page's source or a log
 * viewer that escapes (`Can&#39;t`, `&quot;x&quot;`), decoded in one pass: `&amp;lt;` is `&lt;`.
 */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (all: string, name?: string, dec?: string, hex?: string) => {
    if (name) return NAMED[name.toLowerCase()] ?? all;
    const code = dec ? Number(dec) : Number.parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

/** A Markdown code fence (```` ```python ````, `~~~`): not part of what was printed. */
export const CODE_FENCE = /^\s*(?:`{3,}|~{3,})[\w+.-]{0,20}\s*$/;

/**
 * A line wrapped whole in Markdown's inline code (`` `KeyError: 'x'` ``, as pasted into an issue or
 * a chat): the text inside. Not a line whose backticks belong to its message (`` `a` is not `b` ``):
 * the opening run must not appear again inside.
 */
export function unwrapInlineCode(line: string): string {
  const start = line.length - line.trimStart().length;
  const end = line.trimEnd().length;
  if (line[start] !== '`' || line[end - 1] !== '`') return line;
  let open = start;
  while (open < end && line[open] === '`') open++;
  let close = end;
  while (close > open && line[close - 1] === '`') close--;
  const run = open - start;
  const inner = line.slice(open, close);
  if (run !== end - close || inner.trim() === '' || backtickRuns(inner).includes(run)) return line;
  return `${line.slice(0, start)}${inner.trim()}`;
}

/** The lengths of the runs of backticks in a text. */
function backtickRuns(text: string): number[] {
  const runs: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '`') continue;
    let j = i;
    while (j < text.length && text[j] === '`') j++;
    runs.push(j - i);
    i = j;
  }
  return runs;
}

/**
 * A paste that is one URL-encoded string (copied out of an address: `Cannot%20read%20…`, or
 * `Cannot+read+…` from a form): decoded. Anything with a space, or not valid, stays as it is.
 */
function urlDecoded(text: string): string {
  const t = text.trim();
  if (/\s/.test(t) || !/%[0-9A-Fa-f]{2}/.test(t)) return text;
  try {
    return decodeURIComponent(t.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A paste that is one JSON string (`"KeyError: 'x'\n  File …"`, copied out of a JSON log or an API's body): its value. */
function jsonDecoded(text: string): string {
  const t = text.trim();
  if (t.length < 3 || t[0] !== '"' || t[t.length - 1] !== '"' || !t.includes('\\')) return text;
  try {
    const value: unknown = JSON.parse(t);
    return typeof value === 'string' ? value : text;
  } catch {
    return text;
  }
}

/** A structured log line (`{"msg":"…","exception":"Traceback…\n  File…"}`): its fields are read whole, their breaks as JSON gives them (log-prefix.ts). */
function isJsonObject(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * A trace printed on one line with its line breaks escaped (`KeyError: 'x'\n  File "…"`, from a
 * log that escapes them, or a string's repr): the breaks restored. Only when one ends a line as a
 * trace's do (before indentation, another break or the end; after `…:13:` or `last):`), so that
 * `C:\new\node` stays a path; and not in a structured log line, whose reader parses them.
 */
function escapedNewlines(text: string): string {
  if (text.includes('\n') || !/[\d)]:\\n|\\n(?=[ \t]|\\n|\\r|$)/.test(text) || isJsonObject(text)) return text;
  return text.replace(/\\r\\n|\\n/g, '\n').replace(/\\t/g, '\t');
}

/** The paste as it was printed: one JSON string's value, a URL-encoded string decoded, escaped line breaks restored. */
export function unwrapPaste(text: string): string {
  return escapedNewlines(jsonDecoded(urlDecoded(text)));
}
