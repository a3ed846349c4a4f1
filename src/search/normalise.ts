/**
 * Paste normalisation: turns whatever a user copied from a terminal (ANSI colours, log prefixes,
 * terminal-wrapped lines, a whole traceback, smart quotes) into the error messages it contains.
 *
 * Pure and linear in the size of the paste (every pattern here is anchored and bounded), so it runs
 * on a 1 MB paste in the browser as well as in Node.
 */

export interface PastedMessage {
  /** The message as the program printed it, without log prefix or exception class. */
  text: string;
  /** The class or kind that prefixed it (`ValueError`, `java.lang.IllegalStateException`, `panic`), if any. */
  errorClass: string | null;
  /** The line with the class prefix kept: tried too, since `timeout: …` may be part of the message. */
  withPrefix: string;
}

export interface NormalisedPaste {
  /** The error messages found, the most likely first. Empty only for a blank paste. */
  messages: PastedMessage[];
  /** Every cleaned line (prefixes stripped, wrapped lines joined), for full-text search. */
  lines: string[];
  /** True when the paste looked like a traceback/stack trace and the error lines were picked out of it. */
  traceback: boolean;
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
const ORPHAN_SGR = /\[(?:\d{1,3}(?:;\d{1,3}){0,4})?m/g;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200d\u2060\ufeff]/g;
const QUOTES: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'", '\u00b4': "'", '\u0060\u0060': '"',
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u00ab': '"', '\u00bb': '"',
  '\u00a0': ' ', '\u2007': ' ', '\u202f': ' ', '\u2009': ' ', '\u3000': ' ',
};
const QUOTE_RE = /[\u2018\u2019\u201a\u201b\u2032\u00b4\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u00a0\u2007\u202f\u2009\u3000]/g;

/** Removes terminal escapes and invisible characters, makes quotes and spaces plain ASCII. */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(ANSI, '')
    .replace(ORPHAN_SGR, '')
    .split('\n')
    .map((line) => {
      // A carriage return without a newline redraws the line (progress bars): keep what was drawn last.
      const cr = line.lastIndexOf('\r');
      return cr === -1 ? line : line.slice(cr + 1).trim() === '' ? line.slice(0, cr) : line.slice(cr + 1);
    })
    .join('\n')
    .replace(CONTROL, '')
    .replace(/\t/g, '    ')
    .replace(QUOTE_RE, (c) => QUOTES[c] ?? c);
}

// --- log prefixes -------------------------------------------------------------------------------

const LEVEL = '(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|ALERT|EMERG)';
// [module] or [file.py:123] or [module.sub]
const MODULE_PREFIX = /^\[[\w.:/<>-]{1,80}\]:?\s+/;

const PREFIXES: RegExp[] = [
  // ISO-8601 timestamps, bracketed or not: 2026-08-14T21:17:39.825Z, [2026-08-14 21:17:39,825 +0200]
  /^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}| ?UTC)?\]?[\s|:-]*/,
  // env_logger, log4rs and similar: [2026-08-14T21:17:39Z ERROR my_crate::module] message
  new RegExp(`^\\[\\d{4}-\\d{2}-\\d{2}[^\\]]{0,60}?${LEVEL}?[^\\]]{0,120}\\]\\s*`, 'i'),
  // Go's log package: 2026/08/14 21:17:39.123456 message
  /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,9})?\s+/,
  // syslog: Aug 14 21:17:39 host program[123]: message
  /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \S{1,64} [^\s:[]{1,64}(?:\[\d+\])?: /,
  // Short dates and times: 08-14 21:17:39 (vLLM), 21:17:39.825, [21:17:39]
  /^\[?(?:\d{2}[-/]\d{2} )?\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?\]?[\s|:-]+/,
  // Unix epoch seconds or milliseconds
  /^\[?\d{10}(?:\.\d{1,9}|\d{3})?\]?\s+/,
  // glog: E0814 21:17:39.825012  1234 file.cc:12] message
  /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{1,9}\s+\d+ [^\]\s]{1,200}\] /,
  // Ruby Logger: E, [2026-08-14T21:17:39.825 #1234] ERROR -- progname: message
  /^[DIWEFA], \[[^\]]{1,80}\]\s+\w+ -- [^:]{0,80}: /,
  // Python logging's default: ERROR:root:message, WARNING:vllm.engine:message
  new RegExp(`^${LEVEL}:[\\w.]{1,120}:`, 'i'),
  // Level words: [ERROR], ERROR, ERROR:, <E>, level=error; lower or mixed case only with a colon
  // (`error: …`), since `Error [ERR_X]: …` names a class.
  new RegExp(`^(?:\\[${LEVEL}\\]|<${LEVEL}>|level=${LEVEL})[\\s:|\\]-]*`, 'i'),
  new RegExp(`^${LEVEL}(?=[\\s:|\\]-])[\\s:|\\]-]*`),
  new RegExp(`^${LEVEL}:\\s*`, 'i'),
  // Python logging's common `%(asctime)s - %(name)s - %(levelname)s - %(message)s` after its time
  new RegExp(`^(?:[\\w.-]{1,80} - )?${LEVEL} - `, 'i'),
  // Process ids: [1234], (pid=1234), pid 1234:, [pid 1234]
  /^(?:\[(?:pid[= ]?)?\d{1,9}\]|\((?:pid=)?\d{1,9}\)|pid[= ]\d{1,9}:?)\s*/i,
  // Ray/vLLM actor prefixes: (EngineCore_0 pid=1234), (RayWorkerWrapper pid=99, ip=10.0.0.1)
  /^\((?:[\w.-]{1,80} )?pid=\d{1,9}(?:, ip=[\d.:a-f]{1,45})?\)\s*/i,
  // Docker compose / kubectl logs: service-1  | message
  /^[\w.-]{1,64}\s+\| /,
  MODULE_PREFIX,
];

// A dotted logger name after a level: `WARN vllm.engine.core: message`.
const LOGGER_NAME = /^[a-z_][\w-]*(?:[.:]{1,2}[\w-]+){1,8}(?::\d+)?(?:\]|:)\s+/i;
// Any logger or thread name after a level, when a class or a traceback follows it: `ERROR worker-3
// KeyError: …`, `ERROR worker-1 [vllm.worker] Traceback (most recent call last):`.
const NAME_BEFORE_CLASS = /^[\w.:[\]()<>-]{1,80}\s+/;

/** Whether a line (past the log prefix) starts the error itself: a class prefix, or a Python traceback's header (after a module). */
const startsError = (s: string): boolean => looksLikeClassPrefix(s) || PY_TRACEBACK.test(s.replace(MODULE_PREFIX, ''));

/**
 * The message of a structured log line: logfmt (`level=error msg="…"`, logrus, slog) or JSON
 * (`{"level":"error","msg":"…"}`, zap, pino, bunyan). Null for any other line.
 */
export function structuredLogMessage(line: string): string | null {
  const s = line.trim();
  if (s.startsWith('{') && s.endsWith('}')) {
    try {
      const value = JSON.parse(s) as Record<string, unknown>;
      for (const key of ['msg', 'message', 'error', 'err']) if (typeof value[key] === 'string') return value[key];
    } catch {
      return null;
    }
    return null;
  }
  const m = /(?:^|\s)(?:msg|message|error|err)="((?:[^"\\]|\\.){0,4000})"/.exec(s);
  if (m && /(?:^|\s)(?:level|lvl|time|ts)=/.test(s)) return m[1]!.replace(/\\(["\\])/g, '$1').replace(/\\n/g, ' ');
  return null;
}

/** Strips any chain of log prefixes (timestamp, level, pid, module) from the start of a line. */
export function stripLogPrefix(line: string): string {
  const structured = structuredLogMessage(line);
  if (structured !== null) return structured;
  let s = line.trimStart();
  let sawLevelOrTime = false;
  for (let round = 0; round < 8; round++) {
    let changed = false;
    for (const re of PREFIXES) {
      const m = re.exec(s);
      if (m && m[0].length > 0 && m[0].length < s.length) {
        s = s.slice(m[0].length).trimStart();
        changed = true;
        sawLevelOrTime = true;
        break;
      }
    }
    if (!changed && sawLevelOrTime) {
      const name = NAME_BEFORE_CLASS.exec(s);
      const m = LOGGER_NAME.exec(s) ?? (name && startsError(s.slice(name[0].length)) ? name : null);
      if (m && m[0].length < s.length && !looksLikeClassPrefix(s)) {
        s = s.slice(m[0].length).trimStart();
        changed = true;
      }
    }
    if (!changed) break;
  }
  return s;
}

// --- wrapped lines ------------------------------------------------------------------------------

/** Lines that begin something new: they are never the continuation of a wrapped line. */
const NEW_LINE_START =
  /^(?:\s*(?:File "|at |from |Caused by:|Traceback |During handling|The above exception|goroutine |panic:|thread '|Exception in |Error:|error(?:\[E\d+\])?:|(?:note|help|hint|warning): |Aborted \(core dumped\)|Segmentation fault|\.\.\. \d+ more|\d+: )|\S+\.\w{1,5}:\d+:in )/;

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
  const several = lines.filter((l) => l.length === width).length > 1;
  const continues = (line: string, next: string): boolean => {
    if (next.trim() === '' || NEW_LINE_START.test(next) || stripLogPrefix(next) !== next.trimStart()) return false;
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
    while (lines[i]!.length === width && i + 1 < lines.length && continues(lines[i]!, lines[i + 1]!)) {
      i++;
      line += lines[i]!;
    }
    out.push(line);
  }
  return out;
}

// --- exception classes --------------------------------------------------------------------------

// `ValueError: …`, `pkg.mod.HandshakeError: …`, `java.lang.IllegalStateException: …`, `std::runtime_error: …`,
// `Error [ERR_INVALID_ARG_TYPE]: …`, `Uncaught TypeError: …`, `panic: …`, `error[E0382]: …`.
const CLASS_PREFIX =
  /^(?:Uncaught (?:\(in promise\) )?)?((?:[A-Za-z_$][\w$]*(?:\.|::|\$))*[A-Za-z_$][\w$]*)(?: \[[A-Z][A-Z0-9_]*\]|\[E\d{4}\])?: (.+)$/s;
const KIND_WORDS = /^(?:panic|fatal error|fatal|error|Error|ERROR|warning|Warning|exception|Exception|thread panicked|E)$/;

function looksLikeClassName(name: string): boolean {
  const last = name.split(/\.|::|\$/).pop() ?? name;
  if (KIND_WORDS.test(name) || /^(?:std|boost)::\w+$/.test(name)) return true;
  if (/(?:Error|Exception|Warning|Fault|Failure|Panic|Interrupt|Exit|Timeout|Abort|Rejection|_error|_exception)$/.test(last)) return true;
  // Qualified CamelCase names: `pkg.module.HandshakeError`, `io.grpc.StatusRuntimeException`.
  return /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/.test(last) && name !== last;
}

function looksLikeClassPrefix(line: string): boolean {
  const m = CLASS_PREFIX.exec(line);
  return m !== null && looksLikeClassName(m[1]!);
}

/** Splits `Class: message` into its parts; the class is null when the prefix does not look like one. */
export function splitClassPrefix(line: string): PastedMessage {
  const trimmed = line.trim();
  const m = CLASS_PREFIX.exec(trimmed);
  if (m && looksLikeClassName(m[1]!)) {
    return { text: m[2]!.trim(), errorClass: m[1]!, withPrefix: trimmed };
  }
  const panic = /^(?:fatal error|panic): (.+)$/s.exec(trimmed);
  if (panic) return { text: panic[1]!.replace(/ \[recovered\]$/, '').trim(), errorClass: 'panic', withPrefix: trimmed };
  return { text: trimmed, errorClass: null, withPrefix: trimmed };
}

// --- tracebacks ---------------------------------------------------------------------------------

const FRAME =
  /^\s*(?:File "[^"]*", line \d+|at (?:async )?[\w$.<>[\]/@:\\ -]*(?:\(.*\))?$|from \S+:\d+:in|\.\.\. \d+ (?:more|common frames omitted)|\d+: 0x[0-9a-f]+ - |at \S+:\d+(?::\d+)?$|[\w./-]+\.go:\d+ \+0x[0-9a-f]+$|goroutine \d+ \[|created by |(?:[\w.-]+\/)*[\w-]+\.[\w.*()]+\((?:0x[0-9a-f]+|\.\.\.|, )*\)$)/;
const PY_TRACEBACK = /^\s*Traceback \(most recent call last\):\s*$/;
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

    // Python: the exception line is the first line after the frames that is not indented.
    if (PY_TRACEBACK.test(line)) {
      isTrace = true;
      let j = i + 1;
      while (j < lines.length && (/^\s/.test(lines[j]!) || lines[j]!.trim() === '')) j++;
      if (j < lines.length) {
        // Later exceptions of a chain are what surfaced; the first is usually the cause. Both count.
        const chained = lines.slice(j + 1).some((l) => PY_TRACEBACK.test(l));
        add(lines[j]!, chained ? 2 : 3, j);
        i = j;
      }
      continue;
    }
    if (PY_CHAIN.test(line)) {
      isTrace = true;
      continue;
    }
    // Rust panics: `thread 'main' panicked at src/x.rs:2:5:` then the message; or the older one-line form.
    let m = /^\s*thread '[^']*' panicked at (?:'(.*)', \S+:\d+:\d+|(\S+:\d+:\d+):?)\s*$/.exec(line);
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

/** Normalises a paste into the error messages it holds. */
export function normalisePaste(paste: string): NormalisedPaste {
  const raw = cleanText(clip(paste)).split('\n');
  const strictLines = joinWrappedLines(raw);
  const strict = read(strictLines);
  // A line that may have been wrapped anywhere: its joined reading's messages come after the others.
  const looseLines = joinWrappedLines(raw, true);
  if (looseLines.length === strictLines.length) return strict;
  const loose = read(looseLines);
  return { ...strict, messages: dedupe([...strict.messages, ...loose.messages]).slice(0, MAX_MESSAGES) };
}

function read(wrapped: string[]): NormalisedPaste {
  // Wrapped lines are joined first (a wrap can fall anywhere, even inside a log prefix), then prefixes
  // stripped, keeping the indentation of lines without one (it marks frames and continuations).
  const joined = wrapped.map((l) => {
    const line = l.replace(/\s+$/, '').slice(0, MAX_LINE);
    const s = stripLogPrefix(line);
    return s.length === line.trimStart().length ? line : s;
  });
  const lines = joined.map((l) => l.trim()).filter((l) => l !== '');

  const fromTrace = tracebackMessages(joined);
  let messages: PastedMessage[];
  if (fromTrace && fromTrace.length > 0) {
    messages = fromTrace;
  } else {
    // No trace: each line that is not a frame is a candidate, error-looking lines first.
    const candidates = lines.filter((l) => !FRAME.test(l)).map(splitClassPrefix);
    const errorish = (m: PastedMessage) => (m.errorClass ? 0 : /\b(?:error|fail|cannot|could not|unable|invalid|unexpected|not found)\b/i.test(m.text) ? 1 : 2);
    messages = candidates.map((m, i) => ({ m, i })).sort((a, b) => errorish(a.m) - errorish(b.m) || a.i - b.i).map((x) => x.m);
  }
  messages = dedupe(messages.map(unquoted)).slice(0, MAX_MESSAGES);
  return { messages, lines, traceback: fromTrace !== null && fromTrace.length > 0 };
}

/** A message printed in quotes as a whole (Python's `KeyError: 'frame 9 not found'` shows its repr): the text inside. */
function unquoted(m: PastedMessage): PastedMessage {
  const q = m.text[0];
  if ((q !== "'" && q !== '"') || m.text.length < 3 || !m.text.endsWith(q) || m.text.slice(1, -1).includes(q)) return m;
  return { ...m, text: m.text.slice(1, -1).trim() };
}
