/**
 * A message as the code builds it (literal text and placeholders) turned into the catalog's
 * template (`{name}` placeholders, literal braces doubled) and its `messagePattern` (literal text
 * escaped, each placeholder a lazy group). The template is read back with the same parser the site
 * uses (`parseTemplate`), so what the scanner writes is what search and pages understand.
 */
import { patternProblem } from '../schema/pattern.ts';
import { parseTemplate } from '../schema/message-template.ts';

export type MessagePart = { kind: 'text'; text: string } | { kind: 'hole'; name: string };

export const text = (t: string): MessagePart => ({ kind: 'text', text: t });
export const hole = (name: string): MessagePart => ({ kind: 'hole', name });

/** A placeholder name the template parser reads as one name: one line, no braces, short. */
export function holeName(expression: string): string {
  const name = expression.replace(/\s+/g, ' ').trim();
  if (name === '' || /[{}]/.test(name) || name.length > 60 || /![rsa]$|=$|:/.test(name)) {
    // Keep the last identifier of a long or awkward expression: `self._config["x"].name` -> `name`.
    const ids = name.match(/[A-Za-z_][A-Za-z0-9_]*/g);
    return ids?.at(-1) ?? 'value';
  }
  return name;
}

/**
 * `left + right`: both sides' parts, a side that cannot be read standing as one hole named by its code;
 * null when neither side can be read (then nothing of the message is literal).
 */
export function concatParts<N extends { text: string }>(left: N, right: N, read: (side: N) => MessagePart[] | null): MessagePart[] | null {
  const l = read(left);
  const r = read(right);
  return l || r ? [...(l ?? [hole(left.text)]), ...(r ?? [hole(right.text)])] : null;
}

/** Applies a transformation of the whole text to parts, each placeholder standing as one private-use character meanwhile. */
export function linesTransformed(parts: MessagePart[], transform: (s: string) => string): MessagePart[] {
  const holes = parts.filter((p) => p.kind === 'hole');
  if (holes.length > 6000 || parts.some((p) => p.kind === 'text' && /[\uE000-\uF7FF]/.test(p.text))) return parts;
  let i = 0;
  const joined = parts.map((p) => (p.kind === 'text' ? p.text : String.fromCharCode(0xe000 + i++))).join('');
  const out: MessagePart[] = [];
  for (const piece of transform(joined).split(/([\uE000-\uF7FF])/)) {
    if (piece.length === 1 && piece.charCodeAt(0) >= 0xe000 && piece.charCodeAt(0) <= 0xf7ff) out.push(holes[piece.charCodeAt(0) - 0xe000]!);
    else out.push(text(piece));
  }
  return out;
}

/** Joins adjacent text parts and drops empty ones. */
export function normaliseParts(parts: MessagePart[]): MessagePart[] {
  const out: MessagePart[] = [];
  for (const p of parts) {
    if (p.kind === 'text') {
      if (p.text === '') continue;
      const last = out.at(-1);
      if (last?.kind === 'text') last.text += p.text;
      else out.push({ kind: 'text', text: p.text });
    } else out.push({ kind: 'hole', name: holeName(p.name) });
  }
  return out;
}

/** True when the literal text reads as prose: two words with a space between (for a factory's argument, which may be a name). */
export function hasLiteralPhrase(parts: MessagePart[]): boolean {
  return parts.some((p) => p.kind === 'text' && /\p{L}{2}[^\s]*\s+\S*\p{L}/u.test(p.text)) || parts.filter((p) => p.kind === 'text' && /\p{L}{2}/u.test(p.text)).length > 1;
}

/** How many words (two letters in a row or more) the literal text has. */
export function literalWordCount(parts: MessagePart[]): number {
  return parts.reduce((n, p) => n + (p.kind === 'text' ? (p.text.match(/\p{L}{2,}/gu)?.length ?? 0) : 0), 0);
}

/**
 * Of the message a class's constructor builds and the literal a raise passes it, the one that shows
 * more of what is printed: the constructor's (`No route for {id}` for `new NotFoundError('the index
 * page')`) unless the literal has more words (`{baseMessage}, dialect: {name}.` for a whole sentence).
 */
export const constructorShowsMore = (built: MessagePart[], literal: MessagePart[]): boolean => literalWordCount(built) >= literalWordCount(literal);

/** True when the literal text has at least one word (two letters in a row). */
export function hasLiteralWords(parts: MessagePart[]): boolean {
  return parts.some((p) => p.kind === 'text' && /\p{L}{2}/u.test(p.text));
}

function escapeLiteral(t: string): string {
  let out = '';
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '{' || c === '}') out += c + c;
    else if (c === '%' && parseTemplate(t.slice(i, i + 40))[0]?.kind === 'hole') out += '%%';
    else out += c;
  }
  return out;
}

const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/g;

export function escapeRegex(t: string): string {
  return t.replace(REGEX_SPECIAL, '\\$&').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

export interface Template {
  errorMessage: string;
  messagePattern: string;
}

export type TemplateProblem = 'pattern-unsafe' | 'template-unreadable';

// The style tags of Symfony Console (PHP) and of Python's cleo (Poetry): `<error>…</>`, `<info>…</info>`,
// `<fg=yellow>…</>`. The terminal shows the message without them.
const STYLE_TAG = /<\/?(?:info|comment|question|error|warning|debug|success|b|c1|c2|(?:fg|bg|options)=[\w,;=-]{1,60})?>/g;
const STYLE_OPEN = /<(?:info|comment|question|error|warning|debug|success|b|c1|c2|(?:fg|bg|options)=[\w,;=-]{1,60})>/;
const STYLE_CLOSE = /<\/(?:info|comment|question|error|warning|debug|success|b|c1|c2)?>/;

/** The parts without console style tags, when the text opens and closes one (JSX's `<>…</>` or a lone `<b>` of prose stays). */
function withoutStyleTags(parts: MessagePart[]): MessagePart[] {
  const text = parts.map((p) => (p.kind === 'text' ? p.text : '\u0000')).join('');
  if (!STYLE_OPEN.test(text) || !STYLE_CLOSE.test(text)) return parts;
  return parts.map((p) => (p.kind === 'text' ? { kind: 'text', text: p.text.replace(STYLE_TAG, '') } : p));
}

/**
 * The template and pattern of a message, or why none can be written: the parser does not read the
 * template back as the same parts, or the validator rejects the pattern (src/schema/pattern.ts).
 * `styleTags`: the language's console libraries style messages with tags (PHP, Python).
 */
export function buildTemplate(parts: MessagePart[], options: { styleTags?: boolean } = {}): Template | TemplateProblem {
  const norm = normaliseParts(options.styleTags ? withoutStyleTags(parts) : parts);
  const errorMessage = norm.map((p) => (p.kind === 'text' ? escapeLiteral(p.text) : `{${p.name}}`)).join('');
  const read = parseTemplate(errorMessage);
  // The template syntax reads `#{x}` and `${x}` as one placeholder: a literal `#` or `$` right before a
  // placeholder (`line #%d`) joins it, and the pattern still matches what the program prints.
  const expected = norm
    .map((p, i) => (p.kind === 'text' && norm[i + 1]?.kind === 'hole' && /[#$]$/.test(p.text) ? { ...p, text: p.text.slice(0, -1) } : p))
    .filter((p) => p.kind === 'hole' || p.text !== '');
  const same =
    read.length === expected.length &&
    read.every((r, i) => {
      const p = expected[i]!;
      return r.kind === p.kind && (r.kind === 'hole' || (p.kind === 'text' && r.text === p.text));
    });
  if (!same) return 'template-unreadable';
  const messagePattern = read.map((p) => (p.kind === 'text' ? escapeRegex(p.text) : '(.+?)')).join('');
  if (patternProblem(messagePattern) !== null) return 'pattern-unsafe';
  return { errorMessage, messagePattern };
}

export type PrintfStyle = 'python' | 'go' | 'java' | 'php' | 'ruby';

/** What each printf dialect accepts between `%` and the conversion, and its conversions. */
const PRINTF: Record<PrintfStyle, { flags: string; conv: string; index: boolean }> = {
  python: { flags: '[-+# 0]', conv: '[diouxXeEfFgGcrsa]', index: false },
  go: { flags: '[-+# 0]', conv: '[vTtbcdoOqxXUeEfFgGspw]', index: false },
  // java.util.Formatter: `%1$s`, `%,d`, `%n` (a line break), `%tY` (dates).
  java: { flags: '[-#+ 0,(<]', conv: '[bBhHsScCdoxXeEfgGaAn]|[tT][A-Za-z]', index: true },
  // PHP's sprintf: `%1$s`, `%'*10s` (a padding character).
  php: { flags: "(?:[-+ 0]|'.)", conv: '[bcdeEfFgGhHosuxX]', index: true },
  // Ruby's format: `%1$s`, `%<name>s`, `%{name}` (below).
  ruby: { flags: '[-+# 0]', conv: '[bBdiouxXeEfgGaAcps]', index: true },
};

const printfRe = new Map<PrintfStyle, RegExp>();

/**
 * printf-style conversions (Python `%`, Go's fmt, Java's `String.format`, PHP's `sprintf`, Ruby's
 * `format`): each becomes a placeholder named after the argument it takes. `%%` is a percent sign;
 * `%(name)s`, `%<name>s` and `%{name}` take their name, `%2$s` the second argument.
 */
export function printfParts(format: string, args: string[], language: PrintfStyle): MessagePart[] {
  const style = PRINTF[language];
  let re = printfRe.get(language);
  if (!re) {
    const named = language === 'python' ? '\\(([^)]*)\\)' : language === 'ruby' ? '<([A-Za-z_]\\w*)>' : '(?!)()';
    re = new RegExp(`%(?:${named}|(\\d+)\\$)?(${style.flags}*)(\\*|\\d+)?(?:\\.(\\*|\\d+))?(?:hh|h|ll|l|L|q|j|z|t)?(${style.conv}|%)`, 'y');
    printfRe.set(language, re);
  }
  const parts: MessagePart[] = [];
  let literal = '';
  let next = 0;
  for (let i = 0; i < format.length; ) {
    if (format[i] !== '%') {
      literal += format[i++];
      continue;
    }
    const braced = language === 'ruby' ? /^%\{([A-Za-z_]\w*)\}/.exec(format.slice(i)) : null;
    if (braced) {
      parts.push(text(literal), hole(braced[1]!));
      literal = '';
      i += braced[0].length;
      continue;
    }
    re.lastIndex = i;
    const m = re.exec(format);
    if (!m || (m[2] !== undefined && !style.index)) {
      literal += format[i++];
      continue;
    }
    i += m[0].length;
    const conv = m[6]!;
    if (conv === '%') {
      literal += '%';
      continue;
    }
    if (conv === 'n' && language === 'java') {
      literal += '\n';
      continue;
    }
    parts.push(text(literal));
    literal = '';
    if (m[4] === '*') next++;
    if (m[5] === '*') next++;
    const indexed = m[2] !== undefined ? args[Number(m[2]) - 1] : undefined;
    parts.push(hole(m[1] ?? indexed ?? args[next++] ?? 'value'));
  }
  parts.push(text(literal));
  return parts;
}

/**
 * Brace-style fields (Python `str.format`, Rust's format macros): `{}` takes the next argument,
 * `{0}` the first, `{name}` a named one; conversions and format specs (`!r`, `:>10`, `:?`) are
 * dropped (`specStart`: where a field's name ends; C#'s `{0,10}` adds a comma). `{{` and `}}` are braces.
 */
export function braceParts(format: string, positional: string[], named: ReadonlyMap<string, string> = new Map(), specStart: RegExp = /[!:]/): MessagePart[] {
  const parts: MessagePart[] = [];
  let literal = '';
  let next = 0;
  for (let i = 0; i < format.length; ) {
    const c = format[i]!;
    if ((c === '{' || c === '}') && format[i + 1] === c) {
      literal += c;
      i += 2;
      continue;
    }
    if (c !== '{') {
      literal += c;
      i++;
      continue;
    }
    const close = format.indexOf('}', i);
    if (close === -1) {
      literal += format.slice(i);
      break;
    }
    const field = format.slice(i + 1, close).split(specStart)[0]!.trim();
    i = close + 1;
    parts.push(text(literal));
    literal = '';
    let name: string;
    if (field === '') name = positional[next++] ?? 'value';
    else if (/^\d+$/.test(field)) name = positional[Number(field)] ?? field;
    else name = named.has(field) ? field : field;
    parts.push(hole(name));
  }
  parts.push(text(literal));
  return parts;
}
