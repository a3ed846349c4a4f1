/**
 * The error text in a GitHub issue or comment, as the paste search would be given it: fenced code
 * blocks first (where people paste what their terminal printed), then tracebacks and error lines in
 * the plain text. A block of code that prints no error (the user's own source, a config file) is not
 * looked up: each lookup costs the site a few requests, and the answer to source code is noise.
 */

/** At most this many pastes per text: a long issue thread is not a reason to hit the site hard. */
export const MAX_PASTES = 8;
/** The longest paste looked up: the matcher reads the head and the tail of longer ones anyway. */
export const MAX_PASTE_CHARS = 20_000;

// What a line that reports an error looks like in the languages errdex scans, and in their loggers:
// a class ending in Error/Exception/Warning with a message, a traceback's head, a panic, `error:`.
const ERROR_LINE =
  /(?:^|[\s:(])(?:[A-Za-z_$][\w$]*[.:])*[A-Z][\w$]*(?:Error|Exception|Warning|Exit|Fault|Failure|Interrupt)\b|^\s*Traceback \(most recent call last\)|\bpanic(?:ked)?\b|^\s*(?:error|fatal|FATAL|ERROR|Error)(?:\[[\w-]+\])?:|Uncaught\b|\bFAILED\b/;
/** Only a line's start is tested: an issue body is anyone's text, and the class pattern backtracks. */
const TESTED_CHARS = 400;

const reportsError = (text: string): boolean => text.split('\n').some((line) => ERROR_LINE.test(line.slice(0, TESTED_CHARS)));

/** Fenced blocks (``` or ~~~, three or more, as CommonMark reads them) and the text between them. */
function split(markdown: string): { blocks: string[]; prose: string[] } {
  const blocks: string[] = [];
  const prose: string[] = [];
  const lines = markdown.split(/\r?\n/);
  let fence: { char: string; size: number; indent: number } | null = null;
  let current: string[] = [];
  for (const line of lines) {
    const m = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
    if (!fence) {
      if (m && !(m[2]![0] === '`' && m[3]!.includes('`'))) {
        prose.push(current.join('\n'));
        current = [];
        fence = { char: m[2]![0]!, size: m[2]!.length, indent: m[1]!.length };
      } else current.push(line);
    } else if (m && m[2]![0] === fence.char && m[2]!.length >= fence.size && m[3]!.trim() === '') {
      blocks.push(current.join('\n'));
      current = [];
      fence = null;
    } else {
      // A fence's indent is taken off its lines, as CommonMark does.
      current.push(line.replace(new RegExp(`^ {0,${fence.indent}}`), ''));
    }
  }
  // An unclosed fence runs to the end of the text (CommonMark), a common slip in pasted issues.
  (fence ? blocks : prose).push(current.join('\n'));
  return { blocks, prose };
}

/** Plain text: paragraphs that hold an error line, with the stack frames and log lines around it. */
function proseErrors(text: string): string[] {
  const unquoted = text
    .split('\n')
    .map((l) => l.replace(/^\s{0,3}(?:>\s?)+/, ''))
    .join('\n');
  return unquoted
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(reportsError);
}

/** The pastes to look up in one issue body or comment, most likely first, each at most once. */
export function errorTexts(markdown: string | null | undefined): string[] {
  if (!markdown) return [];
  // Issue templates leave their instructions in HTML comments; GitHub does not show them.
  const shown = markdown.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  const { blocks, prose } = split(shown);
  const found = [...blocks.map((b) => b.trim()).filter(reportsError), ...prose.flatMap(proseErrors)];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const text of found) {
    const paste = text.length > MAX_PASTE_CHARS ? `${text.slice(0, MAX_PASTE_CHARS / 2)}\n${text.slice(-MAX_PASTE_CHARS / 2)}` : text;
    if (seen.has(paste)) continue;
    seen.add(paste);
    out.push(paste);
    if (out.length === MAX_PASTES) break;
  }
  return out;
}
