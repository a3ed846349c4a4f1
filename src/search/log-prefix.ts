/**
 * Log prefixes: what loggers, process managers, test runners and CI print before each line of an
 * error (timestamps, levels, pids, logger and module names, actor prefixes, container names,
 * pytest's `E`, CI annotations), recognised by their shape, and the message of a structured (JSON,
 * logfmt) log line. Every pattern is anchored and bounded: linear in the line's length.
 */
import { looksLikeClassPrefix } from './class-prefix.ts';

const PY_TRACEBACK = /^\s*Traceback \(most recent call last\):\s*$/;

const LEVEL = '(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|ALERT|EMERG)';
// [module] or [file.py:123] or [module.sub]
const MODULE_PREFIX = /^\[[\w.:/<>-]{1,80}\]:?\s+/;

const PREFIXES: RegExp[] = [
  // A bracket opening with a date, whole: env_logger, log4rs, Celery, gunicorn and similar
  // ([2026-08-14T21:17:39Z ERROR my_crate::module], [2026-08-14 21:17:39,825: ERROR/Worker-1])
  new RegExp(`^\\[\\d{4}-\\d{2}-\\d{2}[^\\]]{0,60}?${LEVEL}?[^\\]]{0,120}\\]\\s*`, 'i'),
  // ISO-8601 timestamps: 2026-08-14T21:17:39.825Z, 2026-08-14 21:17:39,825 +0200
  /^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z| ?[+-]\d{2}:?\d{2}| ?UTC)?\]?[\s|:-]*/,
  // syslog's priority (<11>), and RFC 5424's whole header: <11>1 time host app procid msgid [data]|-
  /^<\d{1,3}>1 \S{1,64} \S{1,255} \S{1,48} \S{1,128} \S{1,32} (?:-|(?:\[[^\]]{0,400}\])+)(?: |$)/,
  /^<\d{1,3}>(?=\S)/,
  // A date and time as JavaScript's toLocaleString writes them (en-US): 12/5/2026, 10:01:02 AM
  /^\d{1,2}\/\d{1,2}\/\d{4},? \d{1,2}:\d{2}:\d{2}(?: ?[AP]M)?[\s|:-]*/,
  // NestJS's logger: [Nest] 4121  - (then such a date, the level and the context in brackets)
  /^\[Nest\] \d{1,9}\s+-\s+/,
  // Go's log package: 2026/08/14 21:17:39.123456 message
  /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,9})?\s+/,
  // syslog: Aug 14 21:17:39 host program[123]: message
  /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \S{1,64} [^\s:[]{1,64}(?:\[\d+\])?: /,
  // Short dates and times: 08-14 21:17:39 (vLLM), 21:17:39.825, [21:17:39], 10:01:02 AM (Vite)
  /^\[?(?:\d{2}[-/]\d{2} )?\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?: ?[AP]M)?\]?[\s|:-]+/,
  // Unix epoch seconds or milliseconds
  /^\[?\d{10}(?:\.\d{1,9}|\d{3})?\]?\s+/,
  // glog: E0814 21:17:39.825012  1234 file.cc:12] message
  /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{1,9}\s+\d+ [^\]\s]{1,200}\] /,
  // Ruby Logger: E, [2026-08-14T21:17:39.825 #1234] ERROR -- progname: message
  /^[DIWEFA], \[[^\]]{1,80}\]\s+\w+ -- [^:]{0,80}: /,
  // Python logging's default: ERROR:root:message, WARNING:vllm.engine:message
  new RegExp(`^${LEVEL}:[\\w.]{1,120}:`, 'i'),
  // Level words: [ERROR], [error    ] (structlog pads it), ERROR, ERROR:, <E>, level=error; lower or
  // mixed case only with a colon (`error: …`), since `Error [ERR_X]: …` names a class.
  new RegExp(`^(?:\\[${LEVEL} {0,8}\\]|<${LEVEL}>|level=${LEVEL})[\\s:|\\]-]*`, 'i'),
  new RegExp(`^${LEVEL}(?=[\\s:|\\]-])[\\s:|\\]-]*`),
  new RegExp(`^${LEVEL}:\\s*`, 'i'),
  // Python logging's common `%(asctime)s - %(name)s - %(levelname)s - %(message)s` after its time
  new RegExp(`^(?:[\\w.-]{1,80} - )?${LEVEL} - `, 'i'),
  // Process ids: [1234], (pid=1234), pid 1234:, [pid 1234]
  /^(?:\[(?:pid[= ]?)?\d{1,9}\]|\((?:pid=)?\d{1,9}\)|pid[= ]\d{1,9}:?)\s*/i,
  // Process-tagged prefixes of multi-process loggers (Ray, vLLM, torchrun): a name and key=value
  // pairs in parentheses, (EngineCore_DP0 pid=1234), (VllmWorker rank=0 pid=9), (raylet, ip=10.0.0.1)
  /^\((?:[\w.:-]{1,80}[ ,]+)?(?:[\w.-]{1,30}=[^\s,()]{1,60}[ ,]*){1,8}\)\s*/,
  // torchrun and MPI rank tags: [rank0]:, [1,0]<stderr>:, [default0]:
  /^\[(?:rank\d{1,6}|default\d{1,6}|\d{1,6},\d{1,6})\](?:<std(?:out|err)>)?:\s*/,
  // CI annotations: GitHub Actions' ::error file=…,line=…::message and ##[error]message, Azure's ##vso[…]
  /^::(?:error|warning|notice|debug)(?: [^:]{0,400})?::/,
  /^##\[(?:error|warning|notice|debug|command|section|info)\]/i,
  /^##vso\[[^\]]{1,200}\]/,
  // pytest marks the lines of an error with `E` and spaces (the indentation after them is the line's own)
  /^E {3,}(?=\S)/,
  // Rust tracing's spans after the level: request{id=7}:handler{path="/x"}:
  /^(?:[A-Za-z_][\w:]{0,80}\{[^{}]{0,300}\}:)+\s*/,
  // Docker compose / kubectl logs: service-1  | message; pm2: 0|api      | message
  /^[\w.-]{1,64}\s+\| /,
  /^\d{1,4}\|[\w.-]{1,64}\s*\| /,
  // Android's logcat, brief format: E/AndroidRuntime( 1234): message
  /^[VDIWEFA]\/[^(:\s]{1,80}\(\s*\d{1,9}\):\s/,
  // What runtimes and tools print before an error: .NET's `Unhandled exception.`, PHP's `PHP Fatal
  // error:`, npm's `npm ERR!`, and the marks of Next.js, esbuild and others (⨯, ✘, ✖), a box's side (Terraform's │)
  /^Unhandled [Ee]xception[.:]\s+/,
  /^PHP (?:Fatal error|Catchable fatal error|Parse error|Warning|Notice|Deprecated):\s+/,
  /^npm (?:ERR!|error|warn|WARN)\s+/,
  /^[⨯✘✖✗❌│┃║]\s*/,
  // Where a paste was quoted or listed: Markdown's and e-mail's `> ` (Slack's `>>> `), a list's bullet
  /^>{1,3}(?: |$)/,
  /^[-*•] +(?=\S)/,
  // The stream a container runtime read the line from: CRI log files (`stderr F `, `stdout P `), [stderr], <stdout>
  /^(?:std(?:out|err)(?: [PF])?|\[std(?:out|err)\]|<std(?:out|err)>):?\s+/i,
  MODULE_PREFIX,
];

// A dotted logger name after a level: `WARN vllm.engine.core: message`.
const LOGGER_NAME = /^[a-z_][\w-]*(?:[.:]{1,2}[\w-]+){1,8}(?::\d+)?(?:\]|:)\s+/i;
// After a time or level only, since a message may start alike: a request id as a UUID (AWS Lambda:
// `2026-12-01T10:01:02.123Z <uuid> ERROR …`), and a host and program with its pid (journalctl -o short-iso:
// `2026-12-01T10:01:02+0000 host1 gunicorn[4121]: …`).
// Also: Heroku's `app[web.1]: `; nginx's `1234#1234: *1 `; Spring Boot's `1234 --- [app] [main]
// o.s.b.SpringApplication : `; logcat's `1234  5678 E Tag: `; log4j's and logback's logger before
// ` - ` (`[main] com.foo.Bar - `); loguru's module, function and line (`app.main:work:5 - `).
const AFTER_TIME = [
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s+/i,
  /^[\w.-]{1,64} [\w./-]{1,64}\[\d{1,9}\]: /,
  /^[\w.-]{1,64}\[[\w.-]{1,64}\]: /,
  /^\d{1,9}#\d{1,9}: (?:\*\d{1,12} )?/,
  /^\d{1,9} --- (?:\[[^\]]{0,80}\]\s*){0,2}[\w.$-]{1,120}\s*: /,
  /^\d{1,9}\s+\d{1,9}\s+[VDIWEFA]\s+[^:]{1,80}?:\s/,
  /^[\w$]{1,60}(?:\.[\w$]{1,60}){1,10} - /,
  /^[\w.$-]{1,120}:[\w.<>$-]{1,120}:\d{1,7} - /,
];
// A file position before an error or a level word: Python's warnings (`/app/x.py:12: UserWarning: …`),
// compilers and linters (`src/a.c:3:5: error: …`).
const FILE_POSITION = /^(?:[A-Za-z]:)?[\w./\\-]{0,300}\.\w{1,8}:\d{1,7}(?::\d{1,5})?:\s+/;
const LEVEL_COLON = new RegExp(`^${LEVEL}:`, 'i');
// Any logger or thread name after a level, when a class or a traceback follows it: `ERROR worker-3
// KeyError: …`, `ERROR worker-1 [vllm.worker] Traceback (most recent call last):`.
const NAME_BEFORE_CLASS = /^[\w.:[\]()<>-]{1,80}\s+/;

/** Whether a line (past the log prefix) starts the error itself: a class prefix, or a Python traceback's header (after a module). */
const startsError = (s: string): boolean => looksLikeClassPrefix(s) || PY_TRACEBACK.test(s.replace(MODULE_PREFIX, ''));

// A JSON line's message is the first of these fields it has; `log`: Docker's json-file driver
// (`{"log":"…\n","stream":"stderr"}`); `textPayload`: Google Cloud Logging; `detail`: an HTTP API's
// error body (Django REST framework, FastAPI, RFC 9457's problem details).
const JSON_MESSAGE_KEYS = ['msg', 'message', 'error', 'err', 'exception', 'error.message', '@message', 'log', 'textPayload', 'detail'];
// What a line says happened, and the error it carries beside that (zap, logrus, structlog).
const SAID_KEYS = ['msg', 'message', '@message'];
const ERROR_KEYS = ['error', 'err', 'exception', 'error.message', 'exc_info', 'stack_trace'];
const LOGFMT_MESSAGE = /(?:^|\s)(?:msg|message|error|err)="((?:[^"\\]|\\.){0,4000})"/;
const LOGFMT_SAID = /(?:^|\s)(?:msg|message)="((?:[^"\\]|\\.){0,4000})"/;
const LOGFMT_ERROR = /(?:^|\s)(?:error|err)="((?:[^"\\]|\\.){0,4000})"/;
const LOGFMT_LINE = /(?:^|\s)(?:level|lvl|time|ts)=/;

/** A field's text: a string, or the `message` of an object (`"error": {"message": "…", "type": "…"}`: OpenAI-style bodies, ECS, Serilog). */
function fieldText(v: unknown): string | null {
  if (typeof v === 'string') return v.trimEnd();
  if (v && typeof v === 'object' && typeof (v as Record<string, unknown>).message === 'string') return (v as Record<string, string>).message ?? null;
  return null;
}

const firstField = (value: Record<string, unknown>, keys: readonly string[]): string | null => {
  for (const key of keys) {
    const text = fieldText(value[key]);
    if (text !== null) return text;
  }
  return null;
};

/** A structured log line read: its message, and the error it carries beside what it says happened (null: none, or the same). */
export interface StructuredLog {
  message: string;
  error: string | null;
}

/**
 * A structured log line: logfmt (`level=error msg="…"`, logrus, slog) or JSON (`{"level":"error",
 * "msg":"…"}`, zap, pino, bunyan), parsed once. Null for any other line. The error a line carries
 * beside its message (`"msg":"task failed","error":"…"`, structlog's `exception`) is often the part a
 * catalog holds.
 */
export function structuredLog(line: string): StructuredLog | null {
  const s = line.trim();
  if (s.startsWith('{') && s.endsWith('}')) {
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(s) as Record<string, unknown>;
    } catch {
      return null;
    }
    const message = firstField(value, JSON_MESSAGE_KEYS);
    if (message === null) return null;
    const said = firstField(value, SAID_KEYS);
    const error = firstField(value, ERROR_KEYS);
    return { message, error: said && error && error !== said ? error : null };
  }
  // Most lines hold no quoted field: not scanned for one (this runs on every line of a paste).
  if (!s.includes('="')) return null;
  const m = LOGFMT_MESSAGE.exec(s);
  if (!m || !LOGFMT_LINE.test(s)) return null;
  const said = LOGFMT_SAID.exec(s);
  const error = LOGFMT_ERROR.exec(s);
  return {
    message: m[1]!.replace(/\\(["\\])/g, '$1').replace(/\\n/g, ' '),
    error: said && error && error[1] !== said[1] ? error[1]!.replace(/\\(["\\])/g, '$1').replace(/\\n/g, '\n') : null,
  };
}

/** The message of a structured log line (`structuredLog`); null for any other line. */
export const structuredLogMessage = (line: string): string | null => structuredLog(line)?.message ?? null;

/** The first of the patterns that takes a prefix off the line and leaves something of it, or null. */
function firstPrefix(patterns: readonly RegExp[], s: string): string | null {
  for (const re of patterns) {
    const m = re.exec(s);
    if (m && m[0].length > 0 && m[0].length < s.length) return m[0];
  }
  return null;
}

/** Strips any chain of log prefixes (timestamp, level, pid, module) from the start of a line. */
export function stripLogPrefix(line: string): string {
  const structured = structuredLogMessage(line);
  return structured ?? withoutLogPrefix(line).rest;
}

/** The line without its chain of log prefixes, and the logger or thread name the chain held, if any. */
function withoutLogPrefix(line: string): { rest: string; name: string | null } {
  let s = line.trimStart();
  let sawLevelOrTime = false;
  // One logger or thread name at most, and after it only prefixes proper (time, level, pid): a message
  // may start like a name (`timer error: …` reads as the name `timer` before the kind `error:`) or a
  // request id, and no logger prints two names.
  let name: string | null = null;
  for (let round = 0; round < 8; round++) {
    const prefix = firstPrefix(PREFIXES, s);
    if (prefix !== null) {
      s = s.slice(prefix.length).trimStart();
      sawLevelOrTime = true;
      continue;
    }
    const position = FILE_POSITION.exec(s);
    if (position && position[0].length < s.length) {
      const rest = s.slice(position[0].length);
      if (startsError(rest) || LEVEL_COLON.test(rest)) {
        s = rest;
        continue;
      }
    }
    if (!sawLevelOrTime || name !== null) break;
    const id = firstPrefix(AFTER_TIME, s);
    if (id !== null) {
      s = s.slice(id.length).trimStart();
      continue;
    }
    const before = NAME_BEFORE_CLASS.exec(s);
    const m = LOGGER_NAME.exec(s) ?? (before && startsError(s.slice(before[0].length)) ? before : null);
    if (!m || m[0].length >= s.length || looksLikeClassPrefix(s)) break;
    s = s.slice(m[0].length).trimStart();
    name = m[0].trim();
  }
  return { rest: s, name };
}

// A tool's or plugin's tag (`[vite:html]`, `[webpack-cli]`): no digits or dots, so not a file position.
const TOOL_TAG = /\[([A-Za-z][A-Za-z_:-]{0,40})\]:?\s+$/;
const LEVEL_WORD = new RegExp(`^${LEVEL}$`, 'i');

/**
 * The tool's tag the log prefix of a line ends with (`[vite:html]` in `12:01:02 [vite:html] internal
 * error`), or null: some programs print it as part of their message, so the line is read with it too.
 */
export function toolTag(line: string): string | null {
  const { prefix } = splitLogPrefix(line);
  const m = TOOL_TAG.exec(`${prefix} `);
  return m && !LEVEL_WORD.test(m[1]!) ? `[${m[1]!}]` : null;
}

/**
 * Splits a line into its log prefix and the rest, which keeps its own indentation (a frame under
 * an `ERROR … ` prefix stays indented): the rest starts with the spaces after the prefix.
 */
export function splitLogPrefix(line: string): { prefix: string; rest: string; name: string | null } {
  const structured = structuredLogMessage(line);
  if (structured !== null) return { prefix: line, rest: ` ${structured}`, name: null };
  const { rest: stripped, name } = withoutLogPrefix(line);
  const trimmed = line.trimStart();
  const consumed = trimmed.length - stripped.length;
  if (consumed <= 0) return { prefix: '', rest: line, name: null };
  const lead = line.length - trimmed.length;
  const end = lead + line.slice(lead, lead + consumed).trimEnd().length;
  return { prefix: line.slice(0, end), rest: line.slice(end), name };
}

/**
 * A line's parts with the logger name its prefix lacked: a name is taken off a line by itself only
 * before an error (`ERROR app: Traceback …`, `ERROR app: KeyError: …`), since a message may start
 * like one; a logger that printed it there prints it on every line of the error
 * (`ERROR app:   File "x.py", line 4`), where it is taken off too.
 */
function withName(p: { prefix: string; rest: string; name: string | null }, names: ReadonlySet<string>): { prefix: string; rest: string } {
  if (p.prefix === '' || p.name !== null) return p;
  const lead = p.rest.length - p.rest.trimStart().length;
  const word = /^\S+/.exec(p.rest.slice(lead))?.[0];
  if (!word || !names.has(word) || !/^\s/.test(p.rest.slice(lead + word.length))) return p;
  const end = lead + word.length;
  return { prefix: p.prefix + p.rest.slice(0, end), rest: p.rest.slice(end) };
}

/**
 * Every line without its log prefix. A logger prints its prefix on every line of a traceback: the
 * lines that had one lose the indentation they all share after it (the separator, or pytest's
 * `E` column), so a frame stays indented under its exception and a message line does not; a line
 * that is only such a prefix is blank. A prefix that ends in its own mark, with no space after it
 * (GitHub Actions' `##[error]Process completed …` under a log timestamped like the traceback above
 * it), says nothing of that shared indentation.
 */
export function stripLinePrefixes(lines: readonly string[]): string[] {
  const split = lines.map(splitLogPrefix);
  const names = new Set(split.map((p) => p.name).filter((n) => n !== null));
  const parts = names.size > 0 ? split.map((p) => withName(p, names)) : split;
  const rests = withoutSharedIndent(
    parts.map((p) => p.rest),
    (i) => parts[i]!.prefix !== '' && /^\s/.test(parts[i]!.rest),
  );
  // A line that is only a prefix other lines carry is an empty line of theirs (pytest's `E`, `web-1  |`).
  const prefixes = new Set(parts.map((p) => p.prefix.trim()).filter((p) => p !== ''));
  return parts.map((p, i) => (p.prefix !== '' ? rests[i]! : prefixes.has(lines[i]!.trim()) ? '' : lines[i]!));
}

/** How many whitespace characters a line starts with. */
export const indentOf = (s: string): number => s.length - s.trimStart().length;

/**
 * Each text without the indentation that the `counted` ones which are not blank all share: what a
 * prefix or a line number's separator left before every line, not the lines' own indentation.
 */
export function withoutSharedIndent(texts: readonly string[], counted: (i: number) => boolean = () => true): string[] {
  let shared = Infinity;
  texts.forEach((t, i) => {
    if (counted(i) && t.trim() !== '') shared = Math.min(shared, indentOf(t));
  });
  return texts.map((t) => t.slice(Math.min(shared, indentOf(t))));
}
