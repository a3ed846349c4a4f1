/**
 * How a record's source excerpt is numbered on its page. When the excerpt has as many lines as its
 * span (sourceCodeStart..sourceCodeEnd), the numbering is verified and the thrown line is `lineNumber`.
 * When it has not (a warning, not an error: the code is still the record's), the page numbers it from
 * sourceCodeStart, says the numbering is unverified, and marks the thrown line only where the message's
 * literal text shows it, since `lineNumber` may no longer point at it.
 */
import { countLines } from './field-checks.ts';
import type { ErrorRecord } from './record.ts';

export interface ExcerptNumbering {
  start: number;
  /** The line to mark as thrown, numbered from `start`; null when it cannot be told. */
  markLine: number | null;
  verified: boolean;
  /** The excerpt's lines, and how many its span has. */
  lines: number;
  spanLines: number;
  /** For an unverified numbering: whether the marked line was found by the message's text. */
  foundByMessage: boolean;
}

/** Placeholders as catalogs write them: `{name}`, `%s`, `%(name)s`, `${expr}`. */
const PLACEHOLDER = /\$?\{[^}]*\}|%\([^)]*\)[a-z]|%[a-z]/gi;

/** The longest literal stretch of the message (at least 8 characters), which the raising line is likely to hold. */
function messageLiteral(message: string): string | null {
  const parts = message.split(PLACEHOLDER).map((s) => s.trim());
  const longest = parts.reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= 8 ? longest : null;
}

export function excerptNumbering(r: Pick<ErrorRecord, 'sourceCode' | 'sourceCodeStart' | 'sourceCodeEnd' | 'lineNumber' | 'errorMessage'>): ExcerptNumbering | null {
  if (r.sourceCode === null || r.sourceCodeStart === null || r.sourceCodeEnd === null) return null;
  const lines = countLines(r.sourceCode);
  const spanLines = r.sourceCodeEnd - r.sourceCodeStart + 1;
  if (lines === spanLines) return { start: r.sourceCodeStart, markLine: r.lineNumber, verified: true, lines, spanLines, foundByMessage: false };
  const literal = messageLiteral(r.errorMessage);
  const index = literal === null ? -1 : r.sourceCode.split('\n').findIndex((line) => line.includes(literal));
  return {
    start: r.sourceCodeStart,
    markLine: index === -1 ? null : r.sourceCodeStart + index,
    verified: false,
    lines,
    spanLines,
    foundByMessage: index !== -1,
  };
}
