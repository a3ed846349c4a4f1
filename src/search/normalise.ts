/**
 * Paste normalisation: turns whatever a user copied from a terminal (ANSI colours, log prefixes,
 * terminal-wrapped lines, a whole traceback, smart quotes) into the error messages it contains.
 *
 * Pure and linear in the size of the paste (every pattern here is anchored and bounded), so it runs
 * on a 1 MB paste in the browser as well as in Node.
 */

import { looksLikeClassPrefix, pythonRepr, splitClassPrefix, withoutApiCall, withText, wrappedError, type PastedMessage } from './class-prefix.ts';
import { pasteFrames, type Frame } from './frames.ts';
import { indentOf, splitLogPrefix, stripLinePrefixes, stripLogPrefix, structuredLog, toolTag, withoutSharedIndent, type StructuredLog } from './log-prefix.ts';
import { CODE_FENCE, decodeEntities, unwrapInlineCode, unwrapPaste } from './unwrap.ts';

export type { PastedMessage } from './class-prefix.ts';
export { splitClassPrefix } from './class-prefix.ts';
export { stripLogPrefix, structuredLogMessage } from './log-prefix.ts';

export interface NormalisedPaste {
  /** The error messages found, the most likely first. Empty only for a blank paste. */
  messages: PastedMessage[];
  /** Every cleaned line (prefixes stripped, wrapped lines joined), for full-text search. */
  lines: string[];
  /** True when the paste looked like a traceback/stack trace and the error lines were picked out of it. */
  traceback: boolean;
  /** Its stack frames, innermost first (frames.ts). */
  frames: Frame[];
}

/** A paste longer than this keeps its head and tail: errors sit at one end of a trace. */
export const MAX_PASTE = 64_000;
/** Longest message line considered; longer lines are cut (messages are at most 4,000 characters). */
export const MAX_LINE = 4_000;
const MAX_MESSAGES = 12;

// --- character-level cleaning -------------------------------------------------------------------

// CSI (colours, cursor moves), OSC (titles, hyperlinks) and two-character escapes; also the 8-bit CSI.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// Escapes that lost their ESC byte when copied through some tools: `[31m`, `[0m`, `[1;33m`.
const ORPHAN_SGR = /\[(?:\d{1,3}(?:;\d{1,3}){0,4}m|m(?![\p{L}\p{N}_]))/gu;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200d\u2060\ufeff]/g;
const QUOTES: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'", '\u00b4': "'", '\u0060\u0060': '"',
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u00ab': '"', '\u00bb': '"',
  '\u00a0': ' ', '\u2007': ' ', '\u202f': ' ', '\u2009': ' ', '\u3000': ' ',
};
const QUOTE_RE = /[\u2018\u2019\u201a\u201b\u2032\u00b4\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u00a0\u2007\u202f\u2009\u3000]/g;

/**
 * Undoes what carried the paste (unwrap.ts), removes terminal escapes and invisible characters,
 * makes quotes and spaces plain ASCII.
 */
export function cleanText(text: string): string {
  return decodeEntities(unwrapPaste(text))
    .replace(/\r\n/g, '\n')
    .replace(ANSI, '')
    .replace(ORPHAN_SGR, '')
    .split('\n')
    .map((line) => {
      // A carriage return without a newline redraws the line (progress bars): keep what was drawn last.
      const cr = line.lastIndexOf('\r');
      const drawn = cr === -1 ? line : line.slice(cr + 1).trim() === '' ? line.slice(0, cr) : line.slice(cr + 1);
      return CODE_FENCE.test(drawn) ? '' : drawn;
    })
    .join('\n')
    .replace(CONTROL, '')
    .replace(/\t/g, '    ')
    .replace(QUOTE_RE, (c) => QUOTES[c] ?? c);
}

// --- wrapped lines ------------------------------------------------------------------------------

/** Lines that begin something new: they are never the continuation of a wrapped line. */
const NEW_LINE_START =
  /^(?:\s*(?:File "|Cell In\[|at |from |Caused by:|Traceback |During handling|The above exception|goroutine |panic:|thread '|Exception in |Error:|error(?:\[E\d+\])?:|(?:note|help|hint|warning): |Aborted \(core dumped\)|Segmentation fault|\.\.\. \d+ more|\d+: )|\S+\.\w{1,5}:\d+:in )/;

/**
 * A line of a compiler's or bundler's code frame (rustc, gcc, clang, Babel, Elm): a source line
 * under a gutter of line numbers (`12 |`, `> 12 |`, `8|`), the marker line under it
 * (`   |     ^^^^ label`), or rustc's location arrow (`--> src/main.rs:4:7`). Source, its labels
 * and where it is, never the error's message: a label such as `method not found in \`Vec<u8>\``
 * reads like a message of its own. (pm2's `0|api | …` has no space after its first bar.)
 */
const CODE_FRAME = /^\s*(?:(?:>\s*)?\d+\s*[|\u2502](?: |$)|[|\u2502]\s*[\^~-]+(?:\s|$)|--> \S+:\d+)/;

/** A rule drawn across the terminal (pytest's `_ _ _`, IPython's `-----`, `=====`): never a wrapped line. */
const RULE = /^\s*(?:[-_=~*+#] ?){3,}\s*$/;

/**
 * Joins lines a terminal wrapped at a fixed width. A wrapped line is exactly as long as the widest
 * line of the paste, and the next line does not start a new frame, cause or log entry. With only
 * one line that wide, the break must also fall inside a word or after a space, as a wrap does;
 * `loose` also takes a break between any two printed characters (`10.0.8` and `.93:8000`), which
 * a wrap can make too but two separate lines can as well: the paste is then read both ways.
 */
export function joinWrappedLines(lines: string[], loose = false): string[] {
  if (lines.length < 2) return lines;
  let width = 0;
  for (const l of lines) width = Math.max(width, l.length);
  if (width < 40) return lines;
  // Several lines of that width are a wrap's mark; the last line does not count: a wrapped line's
  // last piece is what is left, and two lines that merely print as long (a Rust panic's location
  // line and its message) are not a wrap.
  const several = lines.slice(0, -1).filter((l) => l.length === width).length > 1;
  const continues = (line: string, next: string): boolean => {
    if (next.trim() === '' || NEW_LINE_START.test(next) || CODE_FRAME.test(next) || stripLogPrefix(next) !== next.trimStart()) return false;
    // A rule is no wrapped line, nor its rest; nor is the prefix of the line before and nothing else
    // (pytest's `E` on an empty line of the message).
    if (RULE.test(next) || RULE.test(line) || splitLogPrefix(line).prefix.trim() === next.trim()) return false;
    // An exception line (`ValueError: …`) starts the report: the widest line before it (a traceback's
    // last frame, `File "…", line 694, in set_xfer_…`) ends where it ends, even inside a word.
    if (splitClassPrefix(next).errorClass !== null) return false;
    // Indented: a frame, a code line or the next part of a report (`  what():  …`), not a wrap.
    if (/^(?:\t| {2})/.test(next)) return false;
    if (several) return true;
    // A wrap inside a word, or at a space (kept at the end of the line or the start of the next);
    // deeper indentation marks a frame or code line instead.
    return /\s$/.test(line) || /^ \S/.test(next) || (/[\p{L}\p{N}_]$/u.test(line) && /^[\p{L}\p{N}_]/u.test(next)) || (loose && /\S$/.test(line) && /^\S/.test(next));
  };
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    // A word-wrapping terminal or editor breaks at a space and leaves it at the end of the line,
    // whatever the line's width; a line a program printed seldom ends with one.
    while ((lines[i]!.length === width || / $/.test(lines[i]!)) && i + 1 < lines.length && continues(lines[i]!, lines[i + 1]!)) {
      i++;
      line += lines[i]!;
    }
    out.push(line);
  }
  return out;
}

// --- tracebacks ---------------------------------------------------------------------------------

const FRAME =
  /^\s*(?:File "[^"]*", line \d+|File \S+:\d+, in |Cell In\[\d+\], line \d+|at (?:async )?[\w$.<>[\]/@:\\ -]*(?:\(.*\))?$|from \S+:\d+:in|\.\.\. \d+ (?:more|common frames omitted)|\d+: 0x[0-9a-f]+ - |at \S+:\d+(?::\d+)?$|[\w./-]+\.go:\d+ \+0x[0-9a-f]+$|goroutine \d+ \[|created by |(?:[\w.-]+\/)*[\w-]+\.[\w.*()]+\((?:0x[0-9a-f]+|\.\.\.|, )*\)$)/;
const PY_TRACEBACK = /^\s*Traceback \(most recent call last\):\s*$/;
const IPYTHON_HEADER = /^([A-Za-z_][\w.]{0,200}) {2,}Traceback \(most recent call last\)\s*$/;
/** Lines after an IPython header its error line is looked for in (it folds repeated frames: `[... skipping similar frames …]`). */
const IPYTHON_REACH = 500;
// Python 3.11's exception groups (asyncio's TaskGroup, anyio, trio): each traceback drawn in a box
// of `|` and `+`, one level deeper per group; `+-+---- 1 ----` and `+----` lines separate them.
const GROUP_TITLE = /^\s*Exception Group Traceback \(most recent call last\):\s*$/;
const GROUP_RULE = /^\s*\+[-+]*(?: (?:\d+|\.\.\.) -*)?\s*$|^\s*\| and \d+ more exceptions?\s*$/;
const GROUP_SIDE = /^\s*(?:\| ?|\+ )/;

/**
 * The lines of an exception group's traceback as the lines of plain ones: the box's sides and rules
 * taken off, each group's header a Python traceback's, so each traceback in it is read as one. Other
 * pastes as they are (a line may start with `|` of its own).
 */
export function withoutGroupBoxes(lines: string[]): string[] {
  if (!lines.some((l) => GROUP_TITLE.test(l.replace(GROUP_SIDE, '')))) return lines;
  return lines.map((line) => {
    if (GROUP_RULE.test(line)) return '';
    const rest = line.replace(GROUP_SIDE, '');
    return GROUP_TITLE.test(rest) ? 'Traceback (most recent call last):' : rest;
  });
}

const PY_CHAIN = /^\s*(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)\s*$/;

/**
 * Picks the error lines out of a traceback or stack trace (Python, Java/Kotlin, JavaScript,
 * Rust, Go, Ruby, C++); the most likely one first. Returns null when the lines hold no trace.
 */
function tracebackMessages(lines: string[]): PastedMessage[] | null {
  const found: { msg: PastedMessage; weight: number; at: number }[] = [];
  const add = (text: string, weight: number, at: number, errorClass?: string) => {
    const line = text.trim();
    if (!line) return;
    const msg = errorClass !== undefined ? { text: line, errorClass, withPrefix: `${errorClass}: ${line}` } : splitClassPrefix(line);
    found.push({ msg, weight, at });
  };
  let isTrace = false;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    let m: RegExpExecArray | null;

    // Python: the exception line is the first line after the frames that is not indented. A paste
    // whose every line was indented alike (a tab) and trimmed has lost only its header's indentation:
    // the exception line is then at the least indentation of the lines after it, and is no frame.
    if (PY_TRACEBACK.test(line)) {
      isTrace = true;
      let base = Infinity;
      // Up to the next traceback: each line is looked at for one header only.
      for (let k = i + 1; k < lines.length && base > 0 && !PY_TRACEBACK.test(lines[k]!); k++) if (lines[k]!.trim() !== '') base = Math.min(base, indentOf(lines[k]!));
      const margin = Math.max(indentOf(line), base === Infinity ? 0 : base);
      let j = i + 1;
      while (j < lines.length && (lines[j]!.trim() === '' || indentOf(lines[j]!) > margin || (margin > 0 && FRAME.test(lines[j]!)))) j++;
      if (j < lines.length) {
        // Later exceptions of a chain are what surfaced; the first is usually the cause. Both count.
        const chained = lines.slice(j + 1).some((l) => PY_TRACEBACK.test(l));
        add(lines[j]!, chained ? 2 : 3, j);
        i = j;
      }
      continue;
    }
    // IPython and Jupyter: a header `ValueError    Traceback (most recent call last)`, frames that are
    // not indented (`Cell In[3], line 5`, `----> 5 …`), then the exception's line, which names that class.
    m = IPYTHON_HEADER.exec(line);
    if (m) {
      isTrace = true;
      const cls = m[1]!;
      // Looked for within a notebook traceback's reach, so that many headers cost each a bounded scan.
      const end = Math.min(lines.length, i + 1 + IPYTHON_REACH);
      let j = i + 1;
      while (j < end && !(lines[j]!.startsWith(`${cls}: `) || lines[j]!.trim() === cls)) j++;
      if (j < end) {
        add(lines[j]!, 3, j);
        i = j;
      }
      continue;
    }
    if (PY_CHAIN.test(line)) {
      isTrace = true;
      // The exception the chain begins with, when the paste starts at it, past its own Traceback.
      let k = i - 1;
      while (k >= 0 && lines[k]!.trim() === '') k--;
      if (k >= 0 && !/^\s/.test(lines[k]!) && !FRAME.test(lines[k]!) && !found.some((f) => f.at === k)) add(lines[k]!, 2, k);
      continue;
    }
    // Rust panics: `thread 'main' panicked at src/x.rs:2:5:` then the message; or the older one-line
    // form, `panicked at 'msg', src/x.rs:2:5`, also when the paste stops before its location.
    m = /^\s*thread '[^']*' panicked at (?:'(.*)'(?:,(?: \S+:\d+:\d+)?)?|(\S+:\d+:\d+):?)\s*$/.exec(line);
    if (m) {
      isTrace = true;
      if (m[1] !== undefined) add(m[1], 3, i, 'panic');
      else if (next !== undefined) add(next, 3, i + 1, 'panic');
      continue;
    }
    // Rust `main` returning Err, anyhow and eyre: `Error: msg` then `Caused by:` and numbered causes.
    if (/^\s*Caused by:\s*$/.test(line)) {
      isTrace = true;
      for (let j = i + 1; j < lines.length; j++) {
        const cause = /^\s+(?:\d+: )?(.+)$/.exec(lines[j]!);
        if (!cause || FRAME.test(lines[j]!)) break;
        add(cause[1]!, 2, j);
      }
      continue;
    }
    // Java/Kotlin/Scala: `Exception in thread "main" pkg.Class: msg`, `Caused by: pkg.Class: msg`.
    m = /^\s*(?:Exception in thread "[^"]*" |Caused by: )(.+)$/.exec(line);
    if (m) {
      isTrace = true;
      add(m[1]!, line.trimStart().startsWith('Caused by') ? 2 : 3, i);
      continue;
    }
    // Go: `panic: msg` then a goroutine dump; `fatal error: msg`.
    m = /^(?:panic|fatal error): (.+?)(?: \[recovered\])?$/.exec(line);
    if (m) {
      isTrace = true;
      add(m[1]!, 3, i, 'panic');
      continue;
    }
    // Ruby: `app.rb:12:in 'method': message (ArgumentError)` (3.4 quotes, older backtick-quote).
    m = /^\s*\S+:\d+:in [`'][^']*': (.+) \(([A-Z][\w:]*)\)\s*$/.exec(line);
    if (m) {
      isTrace = true;
      add(m[1]!, 3, i, m[2]!);
      continue;
    }
    // C++: `terminate called after throwing an instance of 'std::runtime_error'` then `  what():  msg`.
    m = /^\s*terminate called after throwing an instance of '([^']+)'\s*$/.exec(line);
    if (m) {
      isTrace = true;
      const what = next !== undefined ? /^\s*what\(\):\s+(.+)$/.exec(next) : null;
      if (what) add(what[1]!, 3, i + 1, m[1]!);
      continue;
    }
    // JavaScript, Java without the thread prefix, Python frames printed by logging: a `Class: msg`
    // line directly followed by stack frames.
    if (next !== undefined && FRAME.test(next) && !FRAME.test(line) && line.trim() !== '') {
      isTrace = true;
      add(line, 3, i);
      continue;
    }
    // Node prints the throwing source line and a caret, then the error after a blank line.
    if (/^\s*\^+\s*$/.test(line)) {
      isTrace = true;
      let j = i + 1;
      while (j < lines.length && lines[j]!.trim() === '') j++;
      if (j < lines.length) {
        add(lines[j]!, 3, j);
        i = j;
      }
    }
  }
  if (!isTrace) return null;
  // Keep the order of appearance within a weight, the heaviest first; one entry per text.
  found.sort((a, b) => b.weight - a.weight || a.at - b.at);
  return dedupe(found.map((f) => f.msg));
}

function dedupe(messages: PastedMessage[]): PastedMessage[] {
  const seen = new Set<string>();
  return messages.filter((m) => {
    const key = m.withPrefix;
    if (seen.has(key) || m.text === '') return false;
    seen.add(key);
    return true;
  });
}

// --- the whole paste ----------------------------------------------------------------------------

/** Keeps the head and the tail of a very long paste: a trace's error line sits at one of its ends. */
function clip(text: string): string {
  if (text.length <= MAX_PASTE) return text;
  const head = text.slice(0, MAX_PASTE / 4);
  const tail = text.slice(text.length - (MAX_PASTE * 3) / 4);
  return `${head.slice(0, head.lastIndexOf('\n') + 1 || head.length)}\n${tail.slice(tail.indexOf('\n') + 1)}`;
}

// A line number and what separates it from the line: a tab (`cat -n`), a space, or a bar.
const GUTTER = /^ {0,8}(\d{1,7})(?:\t| ?[|│] ?| )/;
/** Fewest numbered lines read as a gutter: two numbered lines may be the paste's own. */
const MIN_GUTTER_LINES = 3;

/**
 * The lines without the numbers an editor, a log viewer or `cat -n` printed before each: every
 * non-blank line numbered, each number one more than the line's before.
 */
export function withoutGutter(lines: string[]): string[] {
  let expected: number | null = null;
  let numbered = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const m = GUTTER.exec(line);
    const n = m ? Number(m[1]) : NaN;
    if (!m || (expected !== null && n !== expected)) return lines;
    expected = n + 1;
    numbered++;
  }
  if (numbered < MIN_GUTTER_LINES) return lines;
  // The spaces after the number that all lines share are the gutter's too (a tab read as spaces).
  return withoutSharedIndent(lines.map((line) => line.replace(GUTTER, '')));
}

// Twisted's mark between the frames of a Failure's traceback, where the error was caught.
const CAUGHT_HERE = /^\s*--- <exception caught here> ---$/;

/** Normalises a paste into the error messages it holds. */
export function normalisePaste(paste: string): NormalisedPaste {
  const raw = withoutGutter(cleanText(clip(paste)).split('\n'));
  // Inline code is unwrapped once a wrapped line is whole again (a wrap may leave `` `x` `` alone on a line).
  const strictLines = joinWrappedLines(raw).map(unwrapInlineCode);
  const strict = read(strictLines);
  // A line that may have been wrapped anywhere: its joined reading's messages come after the others.
  const looseLines = joinWrappedLines(raw, true).map(unwrapInlineCode);
  if (looseLines.length === strictLines.length) return strict;
  const loose = read(looseLines);
  return { ...strict, messages: dedupe([...strict.messages, ...loose.messages]).slice(0, MAX_MESSAGES) };
}

/** `nested`: reading the error a structured log line carries (`carriedErrors`), which is not looked into again. */
function read(wrapped: string[], nested = false): NormalisedPaste {
  // Wrapped lines are joined first (a wrap can fall anywhere, even inside a log prefix), then prefixes
  // stripped, keeping the indentation of lines without one (it marks frames and continuations).
  // Structured log lines, each parsed once here: one whose message holds line breaks (a traceback
  // logged whole) is read as its lines; the errors they carry are read below.
  const logs = wrapped.map(structuredLog);
  const expanded = wrapped.flatMap((l, i) => (logs[i]?.message.includes('\n') ? logs[i].message.split('\n') : [l]));
  // A code frame's lines are left blank, as they were printed or once a log's prefix is off them, and
  // so is Twisted's mark among a traceback's frames.
  const joined = withoutGroupBoxes(stripLinePrefixes(expanded.map((l) => l.replace(/\s+$/, '').slice(0, MAX_LINE)))).map((l, i) =>
    CODE_FRAME.test(l) || CODE_FRAME.test(expanded[i]!) || CAUGHT_HERE.test(l) ? '' : l,
  );
  const lines = joined.map((l) => l.trim()).filter((l) => l !== '');

  // Errors a line holds inside other text: a Python repr at its end, a structured log line's error field, a quoted message, an unquoted `error=` field.
  const inner = [...lines.map(pythonRepr).filter((m) => m !== null), ...(nested ? [] : carriedErrors(logs)), ...lines.flatMap(quotedMessages), ...lines.flatMap(fieldErrors)];
  const fromTrace = tracebackMessages(joined);
  let messages: PastedMessage[];
  if (fromTrace && fromTrace.length > 0) {
    messages = [...fromTrace, ...inner];
  } else {
    // No trace: each line that is not a frame is a candidate, error-looking lines first (of a long
    // paste, only the first MAX_MESSAGES are read).
    const candidates = [...lines.filter((l) => !FRAME.test(l)).map(splitClassPrefix), ...inner];
    const errorish = (m: PastedMessage) => (m.errorClass ? 0 : /\b(?:error|fail|cannot|could not|unable|invalid|unexpected|not found)\b/i.test(m.text) ? 1 : 2);
    messages = candidates.map((m, i) => ({ m, i })).sort((a, b) => errorish(a.m) - errorish(b.m) || a.i - b.i).map((x) => x.m);
  }
  messages = [...messages, ...tagged(wrapped, messages), ...messageBlocks(joined)];
  // Also each message without the name of an API call before it, without a note after it (a link to
  // documentation, a place), without a stack trace flattened after it, the error it wraps
  // (class-prefix.ts `wrappedError`), and with its runs of spaces as one (a terminal or a copy doubles spaces;
  // some messages have two after a full stop, so both are read).
  messages = dedupe(
    messages
      .flatMap((m) => {
        // The wrapped error first: its message is the error's, the wrapper's line only carries it.
        const inner = wrappedError(m);
        const own = [m, withoutApiCall(m), withoutEndNote(m), withoutFlatStack(m)];
        return inner ? [inner, withoutEndNote(inner), ...own] : own;
      })
      .filter((m) => m !== null)
      .flatMap((m) => [m, singleSpaced(m)])
      .map(unquoted),
  ).slice(0, MAX_MESSAGES);
  return { messages, lines, traceback: fromTrace !== null && fromTrace.length > 0, frames: pasteFrames(joined) };
}

/** The messages of the errors structured log lines carry beside their message (log-prefix.ts `structuredLog`), each read as a paste of its own. */
function carriedErrors(logs: readonly (StructuredLog | null)[]): PastedMessage[] {
  return logs.flatMap((log) => (log?.error ? read(log.error.split('\n'), true).messages : []));
}

/** Messages read with the tool's tag their line's prefix ended with (`[vite:html] internal error…`). */
function tagged(wrapped: readonly string[], messages: readonly PastedMessage[]): PastedMessage[] {
  const out: PastedMessage[] = [];
  for (const line of wrapped) {
    const tag = toolTag(line);
    if (!tag) continue;
    const rest = stripLogPrefix(line);
    for (const m of messages.filter((m) => m.withPrefix === rest || m.text === rest)) {
      out.push({ text: `${tag} ${m.text}`, errorClass: m.errorClass, withPrefix: `${tag} ${m.withPrefix}` });
    }
  }
  return out;
}

/** Most lines of a message printed over several lines that are read as one. */
const MAX_BLOCK = 6;

/**
 * Messages printed over several lines (a hint on the next line, a JavaScript error whose message
 * holds a newline): each run of consecutive lines that are not indented, blank, frames or the start
 * of something new, read whole with its line breaks.
 */
function messageBlocks(lines: readonly string[]): PastedMessage[] {
  // Blocks that start with a class first: a notebook's or a log's header lines make blocks too.
  const named: PastedMessage[] = [];
  const unnamed: PastedMessage[] = [];
  const part = (l: string | undefined, indented: boolean): boolean => l !== undefined && l.trim() !== '' && (indented || !/^\s/.test(l)) && !FRAME.test(l);
  for (let i = 0; i < lines.length && named.length < MAX_BLOCKS; i++) {
    const first = lines[i];
    if (!part(first, false) || (NEW_LINE_START.test(first!) && !looksLikeClassPrefix(first!))) continue;
    // After a class, indented lines are the message's too (Python prints a message's own indented
    // lines after its class: `Valid SQLite URL forms are:` then ` sqlite:///:memory:`).
    const withClass = looksLikeClassPrefix(first!);
    let j = i + 1;
    while (j < lines.length && j - i < MAX_BLOCK && part(lines[j], withClass) && !NEW_LINE_START.test(lines[j]!) && !looksLikeClassPrefix(lines[j]!)) j++;
    if (j - i >= 2 && (withClass || unnamed.length < MAX_BLOCKS)) {
      const head = splitClassPrefix(first!);
      const rest = lines.slice(i + 1, j).join('\n');
      (withClass ? named : unnamed).push({ text: `${head.text}\n${rest}`, errorClass: head.errorClass, withPrefix: `${head.withPrefix}\n${rest}` });
    }
    i = Math.max(i, j - 1);
  }
  return [...named, ...unnamed].slice(0, MAX_BLOCKS);
}

/** Blocks read of one paste. */
const MAX_BLOCKS = 2;

// What a library or runtime adds at the end of every message, after it: a note that points to
// documentation, in parentheses (SQLAlchemy's `(Background on this error at:
// https://sqlalche.me/e/20/bhk3)`, `(see https://…)`), and the place of an older Swift's trap
// (`Fatal error: … : file Swift/Array.swift, line 418`). One space or colon before each, so that a
// run of spaces costs no backtracking.
const END_NOTES = [/ \([^()]{0,100}https?:\/\/[^\s()]{1,300}\)\.?$/, /: file [^\s,]{1,300}, line \d{1,7}$/];

// A stack trace flattened onto the message's line (an issue's or a tracker's one-line copy): the first
// frame after it, ` at fn (file.js:12:3)`, ` at file.js:12:3`, Java's ` at pkg.Cls.fn(Cls.java:12)`.
// Each part bounded, so a line costs a bounded scan at each ` at `.
// A place is a file with an extension (or Node's own `node:…`) and its line and column, not a time.
const FRAME_PLACE = String.raw`(?:node:[^()\s]{1,300}|[^()\s]{0,400}\.[A-Za-z]{1,5}):\d{1,7}:\d{1,7}`;
const FLAT_FRAME = new RegExp(String.raw` at (?:[^()\n]{1,200}? \(${FRAME_PLACE}\)|${FRAME_PLACE}(?=\s|$)|[\w$.]{1,300}\([\w$]{1,200}\.(?:java|kt|scala):\d{1,7}\))`);

/** The message without the stack trace flattened after it on its line (FLAT_FRAME), or null. */
function withoutFlatStack(m: PastedMessage): PastedMessage | null {
  const frame = FLAT_FRAME.exec(m.text);
  return frame && frame.index > 0 ? withText(m, m.text.slice(0, frame.index).trimEnd()) : null;
}

/** The message without a note at its end (END_NOTES), or null. */
function withoutEndNote(m: PastedMessage): PastedMessage | null {
  const note = END_NOTES.map((re) => re.exec(m.text)).find((n) => n !== null);
  return note && note.index > 0 ? withText(m, m.text.slice(0, note.index).trimEnd()) : null;
}

function singleSpaced(m: PastedMessage): PastedMessage {
  return / {2}/.test(m.text) ? { text: m.text.replace(/ {2,}/g, ' '), errorClass: m.errorClass, withPrefix: m.withPrefix.replace(/ {2,}/g, ' ') } : m;
}

/** Shortest quoted text read as a message of its own: a few words, not a name or a value. */
const MIN_QUOTED = 20;

// The field of a log line that holds its error, written unquoted: Rust tracing's `error=…`, logfmt's `err=…`.
const ERROR_FIELDS = [' error=', ' err=', ' exception=', ' cause='];
const NEXT_FIELD = / [A-Za-z_][\w.]{0,40}=/;

/**
 * The error a log line gives as an unquoted field after its message (tracing's `task failed
 * error=timer error: …`): the rest of the line, and the same up to the next field when one follows.
 * A quoted value is `quotedMessages`'s.
 */
function fieldErrors(line: string): PastedMessage[] {
  for (const field of ERROR_FIELDS) {
    const at = line.lastIndexOf(field);
    if (at < 0) continue;
    const value = line.slice(at + field.length);
    if (value.startsWith('"') || value.length < MIN_QUOTED || !value.includes(' ')) continue;
    const next = NEXT_FIELD.exec(value);
    return [value, ...(next ? [value.slice(0, next.index)] : [])].map(splitClassPrefix);
  }
  return [];
}

/**
 * The messages a line quotes inside other words, as people write about an error (`I get "Multipart
 * file uploads require …" when …`, an issue's title): each text between double quotes or backticks
 * that holds a few words. A line that is one quoted message is `unquoted`'s.
 */
function quotedMessages(line: string): PastedMessage[] {
  const out: PastedMessage[] = [];
  for (const q of ['"', '`']) {
    for (let open = line.indexOf(q); open >= 0; ) {
      const close = line.indexOf(q, open + 1);
      if (close < 0) break;
      const text = line.slice(open + 1, close).trim();
      const whole = open === 0 && close === line.length - 1;
      if (!whole && text.length >= MIN_QUOTED && text.includes(' ')) out.push(splitClassPrefix(text));
      open = line.indexOf(q, close + 1);
    }
  }
  return out;
}

/** A message printed in quotes as a whole (Python's `KeyError: 'frame 9 not found'` shows its repr): the text inside. */
function unquoted(m: PastedMessage): PastedMessage {
  const q = m.text[0];
  if ((q !== "'" && q !== '"') || m.text.length < 3 || !m.text.endsWith(q) || m.text.slice(1, -1).includes(q)) return m;
  return { ...m, text: m.text.slice(1, -1).trim() };
}
