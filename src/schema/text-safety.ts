/**
 * Which characters a catalog's text may hold. Two kinds of field:
 *  - text (messages, prose, code): any Unicode except control characters, carriage returns that do
 *    not end a line, and unpaired surrogates. These break HTML (parse errors, U+FFFD in place of the
 *    character) or shift an excerpt's lines against its gutter of line numbers.
 *  - labels (file path, error class, error code): one line, and additionally no bidirectional
 *    controls, invisible or other format characters (Unicode Default_Ignorable_Code_Point and Cf,
 *    as the regex properties say, not a hand list): a label is shown as an identifier, and an
 *    identifier that displays differently from what it is (`src/‮yp.exe`) misleads the reader.
 * Right-to-left text, emoji and combining marks are welcome in both. Bidirectional controls that
 * text may hold are shown where it is displayed (showBidiControls), never left to reorder the page.
 */

export type TextKind = 'text' | 'label';

/** Names of the format characters seen most, for a readable report; others are named by their class. */
const INVISIBLE_NAMES: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2062: 'INVISIBLE TIMES',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER',
  0xfe0f: 'VARIATION SELECTOR-16',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (byte-order mark)',
};

/** Bidirectional controls (Unicode Bidi_Control): they reorder the text that follows them (the "Trojan Source" trick). */
export const BIDI_CONTROLS = /\p{Bidi_Control}/gu;

/** What a label may not hold besides line breaks and controls: characters that do not display as themselves. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;

export const codePoint = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

export function characterName(cp: number): string | undefined {
  return INVISIBLE_NAMES[cp];
}

/** `U+202E RIGHT-TO-LEFT OVERRIDE`, or `U+E0041 (a format character)` for one without a name here. */
function described(cp: number): string {
  const name = INVISIBLE_NAMES[cp];
  if (name) return `${codePoint(cp)} ${name}`;
  return `${codePoint(cp)} (${/\p{Cf}/u.test(String.fromCodePoint(cp)) ? 'a format character' : 'a default-ignorable character'})`;
}

/**
 * Text with its bidirectional controls made visible, wherever a record's text is shown outside code:
 * `html` (headings, links) escapes the text and keeps each control, isolated in a labelled span
 * (`.bidi-control`, as code excerpts show it), so it reorders nothing and the reader sees it; `text`
 * (`<title>`, copied text), which has no markup, puts a textual marker `[U+202E]` in its place.
 */
export function showBidiControls(s: string, form: 'html' | 'text'): string {
  if (form === 'text') return s.replace(BIDI_CONTROLS, (c) => `[${codePoint(c.codePointAt(0)!)}]`);
  return escapeHtmlText(s).replace(BIDI_CONTROLS, (c) => {
    const cp = codePoint(c.codePointAt(0)!);
    return `<span class="bidi-control" title="${cp} ${INVISIBLE_NAMES[c.codePointAt(0)!] ?? ''}" data-cp="${cp}">${c}</span>`;
  });
}

/** As util/text.ts's escapeHtml (this layer is below it): safe in element content and double-quoted attributes. */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtmlText = (s: string): string => s.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]!);

/** `at character 12`, or `at line 3, column 7` for multi-line text. */
function where(s: string, index: number): string {
  if (!s.includes('\n')) return `at character ${index + 1}`;
  let line = 1;
  let lineStart = 0;
  for (let i = s.indexOf('\n'); i !== -1 && i < index; i = s.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `at line ${line}, column ${index - lineStart + 1}`;
}

/** The first character `s` may not hold as a field of this kind, described; null when all is well. */
export function textProblem(s: string, kind: TextKind): string | null {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x0a || c === 0x09) {
      if (kind === 'label') return `contains a ${c === 0x0a ? 'line break' : 'tab'} ${where(s, i)}; it must be one line`;
      continue;
    }
    if (c === 0x0d) {
      if (kind === 'label') return `contains a carriage return ${where(s, i)}; it must be one line`;
      if (s.charCodeAt(i + 1) !== 0x0a) return `contains a carriage return (\\r) not followed by a line feed ${where(s, i)}; end lines with \\n`;
      continue;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      return `contains the control character ${codePoint(c)} ${where(s, i)}; remove it, or write it as the text \\x${c.toString(16).padStart(2, '0')}`;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdfff) {
      const paired = c <= 0xdbff && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
      if (!paired) return `contains an unpaired surrogate ${codePoint(c)} ${where(s, i)}: not valid Unicode`;
      cp = s.codePointAt(i)!;
    }
    if (kind === 'label' && c >= 0xad && INVISIBLE.test(String.fromCodePoint(cp))) {
      return `contains the invisible character ${described(cp)} ${where(s, i)}; a label must display as what it is`;
    }
    if (cp > 0xffff) i++;
  }
  return null;
}
