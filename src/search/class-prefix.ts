/**
 * The exception class or kind a pasted error line starts with (`ValueError: …`, `panic: …`,
 * `java.lang.IllegalStateException: …`, Elixir's `** (RuntimeError) …`), split from the message and kept as a hint; and the name of
 * the API call some libraries print between the class and the message (`TimeoutError: page.click:
 * Timeout 30000ms exceeded.`), which is no part of the message a catalog records.
 */

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

export function looksLikeClassPrefix(line: string): boolean {
  if (PARENTHESISED_CLASS.test(line)) return true;
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
  const panic = /^(?:fatal error|panic): (.+)$/s.exec(trimmed);
  if (panic) return { text: panic[1]!.replace(/ \[recovered\]$/, '').trim(), errorClass: 'panic', withPrefix: trimmed };
  return { text: trimmed, errorClass: null, withPrefix: trimmed };
}

// A call named before the message: `page.click: …`, `fs.promises.readFile(): …`, `locator.fill: …`
// (dotted, so that a message's own `note: …` or `key: …` is not taken for one).
const API_CALL = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?: (?=\S)/;

/** The message without an API call's name before it (`page.click: Timeout …` gives `Timeout …`), or null. */
export function withoutApiCall(m: PastedMessage): PastedMessage | null {
  const call = API_CALL.exec(m.text);
  if (!call) return null;
  const text = m.text.slice(call[0].length);
  return { text, errorClass: m.errorClass, withPrefix: m.errorClass ? `${m.errorClass}: ${text}` : text };
}
