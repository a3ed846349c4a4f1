/**
 * The exception class or kind a pasted error line starts with (`ValueError: …`, `panic: …`,
 * `java.lang.IllegalStateException: …`, Elixir's `** (RuntimeError) …`), split from the message and kept as a hint; and the name of
 * the API call some libraries print between the class and the message (`TimeoutError: page.click:
 * Timeout 30000ms exceeded.`), which is no part of the message a catalog records. Also the class and
 * message of a Python exception's `repr` ending a line (`pythonRepr`), and whether a pasted class says
 * the error is another than a record's (`classClash`).
 */
import { levenshtein } from '../util/edit-distance.ts';

export interface PastedMessage {
  /** The message as the program printed it, without log prefix or exception class. */
  text: string;
  /** The class or kind that prefixed it (`ValueError`, `java.lang.IllegalStateException`, `panic`), if any. */
  errorClass: string | null;
  /** The line with the class prefix kept: tried too, since `timeout: …` may be part of the message. */
  withPrefix: string;
}

// `ValueError: …`, `pkg.mod.HandshakeError: …`, `java.lang.IllegalStateException: …`, `std::runtime_error: …`,
// `Error [ERR_INVALID_ARG_TYPE]: …`, `Uncaught TypeError: …`, `panic: …`, `error[E0382]: …`.
const CLASS_PREFIX =
  /^(?:Uncaught (?:\(in promise\) )?)?((?:[A-Za-z_$][\w$]*(?:\.|::|\$))*[A-Za-z_$][\w$]*)(?: \[[A-Z][A-Z0-9_]*\]|\[E\d{4}\])?: (.+)$/s;
// Elixir and Erlang: `** (RuntimeError) …`, `** (Mix.Error) …`.
const PARENTHESISED_CLASS = /^\*\* \(([A-Za-z_][\w.]{0,120})\) (.+)$/s;
const KIND_WORDS = /^(?:panic|fatal error|fatal|error|Error|ERROR|warning|Warning|exception|Exception|thread panicked|E)$/;

/** A class's last name: `sqlalchemy.exc.ArgumentError`, `std::io::Error`, `Outer$Inner` give `ArgumentError`, `Error`, `Inner`. */
export const lastClassName = (name: string): string => name.split(/\.|::|\$/).pop() ?? name;

// Names that say only "an error": a record raising one may be printed as any error of its language,
// and a line prefixed by one names no particular error.
const BASE_NAMES = /^(?:error|exception|baseexception|throwable|standarderror|panic|fatal error|fatal|warning|thread panicked|e)$/i;
const NAME_CHAR = /[\p{L}\p{N}_$]/u;
/** Edits that make one class name another and still read as a typo. */
const MISTYPED = 2;

/** Whether `name` (lower case) is a whole word of `text` (lower case). */
function holdsName(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (!NAME_CHAR.test(text[at - 1] ?? ' ') && !NAME_CHAR.test(text[at + name.length] ?? ' ')) return true;
  }
  return false;
}

/**
 * Whether a paste names another error than the record raises for the line that fits its template:
 * both names say which error (not `Error`, `Exception`, `panic` or another base or kind), they differ,
 * and the record's is nowhere in the paste (a wrapper names the error it wraps, `StatementError:
 * (sqlalchemy.exc.InvalidRequestError) …`, and a traceback may show the `raise` line). The text fits,
 * but the error is another program's: `BadParameter: Invalid value for '--count': …` is click's, not
 * a record's `ArgumentError` of `Invalid value for '{name}': {arg}`. Names two edits apart are one
 * name mistyped (a paste retyped into an issue: `VlueError`), not two errors.
 */
export function classClash(recordClass: string | null, pastedClass: string | null, named: (name: string) => boolean): boolean {
  // A record's class as a scanner wrote it may be an expression (`self.error_class`, `fmt.Errorf`): no name to compare.
  if (!recordClass || !pastedClass || !looksLikeClassName(recordClass)) return false;
  const record = lastClassName(recordClass).toLowerCase();
  const pasted = lastClassName(pastedClass).toLowerCase();
  if (BASE_NAMES.test(record) || BASE_NAMES.test(pasted) || levenshtein(record, pasted) <= MISTYPED) return false;
  return !named(record);
}

/** Whether a paste's text holds a name (lower case) as a whole word: the text made and lowered once, when first asked (a paste may be a megabyte). */
export function nameFinder(text: () => string): (name: string) => boolean {
  let lower: string | undefined;
  return (name) => holdsName((lower ??= text().toLowerCase()), name);
}

function looksLikeClassName(name: string): boolean {
  const last = lastClassName(name);
  if (KIND_WORDS.test(name) || /^(?:std|boost)::\w+$/.test(name)) return true;
  if (/(?:Error|Exception|Warning|Fault|Failure|Panic|Interrupt|Exit|Timeout|Abort|Rejection|_error|_exception)$/.test(last)) return true;
  // Qualified CamelCase names: `pkg.module.HandshakeError`, `io.grpc.StatusRuntimeException`; and
  // unqualified ones of two humps or more, or ending in capitals (`StreamClosed`, `InvalidURL`,
  // `TooManyRedirects`): a message seldom starts with such a word and a colon, and the line is
  // tried with the prefix kept as well.
  return (/^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/.test(last) && name !== last) || /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+$|^[A-Z][a-z0-9]+[A-Z]{2,}$/.test(last);
}

// The kind of a runtime's fatal stop before its message, not a class: Go's `panic: …` and `fatal
// error: …`; Swift's traps, `Fatal error: …`, `Precondition failed: …`, `Assertion failed: …`. Read
// as the base name `fatal error` or `panic`, which clashes with no class a record names.
const RUNTIME_KIND = /^(fatal error|panic|Fatal error|Precondition failed|Assertion failed): (.+)$/s;

export function looksLikeClassPrefix(line: string): boolean {
  if (PARENTHESISED_CLASS.test(line) || RUNTIME_KIND.test(line)) return true;
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
  const parenthesised = PARENTHESISED_CLASS.exec(trimmed);
  if (parenthesised) return { text: parenthesised[2]!.trim(), errorClass: parenthesised[1]!, withPrefix: trimmed };
  const kind = RUNTIME_KIND.exec(trimmed);
  if (kind) return { text: kind[2]!.replace(/ \[recovered\]$/, '').trim(), errorClass: kind[1] === 'panic' || kind[1] === 'fatal error' ? 'panic' : 'fatal error', withPrefix: trimmed };
  return { text: trimmed, errorClass: null, withPrefix: trimmed };
}

// A Python exception as `repr` prints it, ending its line: `raised unexpected: ValueError('…')` (Celery),
// `exception=KeyError('…')>` (asyncio), `failed: %r`. The name is bounded, so the scan is linear.
const REPR_START = /([A-Za-z_][\w.]{0,200})\((['"])/g;
const REPR_END = /(['"]),?\)[>\].,;]*$/;

/**
 * The error a line prints as a Python exception's `repr`, at its end (`Task x raised unexpected:
 * InvalidRequestError('query() can only be used …')`), or null: its message is what a catalog holds.
 */
export function pythonRepr(line: string): PastedMessage | null {
  const trimmed = line.trim();
  const end = REPR_END.exec(trimmed);
  if (!end) return null;
  REPR_START.lastIndex = 0;
  for (let m = REPR_START.exec(trimmed); m !== null; m = REPR_START.exec(trimmed)) {
    const from = m.index + m[0].length;
    if (m[2] !== end[1] || from > end.index || !looksLikeClassName(m[1]!)) continue;
    const quote = m[2]!;
    const text = trimmed.slice(from, end.index).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)).trim();
    if (text === '' || text.includes(`${quote}, ${quote}`)) return null;
    return { text, errorClass: m[1]!, withPrefix: `${m[1]!}: ${text}` };
  }
  return null;
}

// A call named before the message: `page.click: …`, `fs.promises.readFile(): …`, `locator.fill: …`
// (dotted, so that a message's own `note: …` or `key: …` is not taken for one).
const API_CALL = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?: (?=\S)/;

/** The message with another text, part of its own: its class kept, and before the text in `withPrefix`. */
export const withText = (m: PastedMessage, text: string): PastedMessage => ({ text, errorClass: m.errorClass, withPrefix: m.errorClass ? `${m.errorClass}: ${text}` : text });

// An error that wraps another prints the inner one's class in parentheses before its message
// (SQLAlchemy: `OperationalError: (psycopg2.OperationalError) could not connect …`), and older
// versions the statement after it on the same line (` [SQL: '…'] [parameters: …]`).
const WRAPPED_CLASS = /^\(([A-Za-z_]\w{0,80}(?:\.[A-Za-z_]\w{0,80}){1,8})\) (?=\S)/;

/** The wrapped error's message, with its own class (`(sqlalchemy.exc.PendingRollbackError) Can't reconnect …`), or null. */
export function wrappedError(m: PastedMessage): PastedMessage | null {
  const wrapped = WRAPPED_CLASS.exec(m.text);
  if (!wrapped) return null;
  const name = wrapped[1]!.split('.').at(-1)!;
  if (!looksLikeClassName(name)) return null;
  const rest = m.text.slice(wrapped[0].length);
  const statement = rest.indexOf(' [SQL: ');
  const lineEnd = rest.indexOf('\n');
  const text = (statement !== -1 && (lineEnd === -1 || statement < lineEnd) ? rest.slice(0, statement) : rest).trimEnd();
  return text === '' ? null : { text, errorClass: name, withPrefix: `${name}: ${text}` };
}

/** The message without an API call's name before it (`page.click: Timeout …` gives `Timeout …`), or null. */
export function withoutApiCall(m: PastedMessage): PastedMessage | null {
  const call = API_CALL.exec(m.text);
  return call ? withText(m, m.text.slice(call[0].length)) : null;
}
