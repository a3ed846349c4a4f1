/**
 * The text a string literal's source stands for: escape sequences decoded as the language does.
 * An escape that stands for a control character other than a line break or tab is kept as written
 * (`\x1b`): a catalog's text may not hold control characters, and a pasted message rarely does.
 */

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', "'": "'", '"': '"', '`': '`', '0': '\0', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', $: '$', '{': '{' };

function fromCodePoint(cp: number, written: string): string {
  if (!Number.isFinite(cp) || cp > 0x10ffff) return written;
  if ((cp < 0x20 && cp !== 0x0a && cp !== 0x09) || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff)) return written;
  return String.fromCodePoint(cp);
}

export type EscapeStyle = 'python' | 'javascript' | 'rust' | 'go' | 'java' | 'kotlin' | 'csharp' | 'ruby' | 'php';

const OCTAL = new Set<EscapeStyle>(['python', 'go', 'java', 'ruby', 'php']);

/** Decodes backslash escapes; `style` picks the forms each language knows. */
export function decodeEscapes(raw: string, style: EscapeStyle): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\' || i + 1 >= raw.length) {
      out += c;
      continue;
    }
    const n = raw[i + 1]!;
    // A backslash before a line break continues the literal on the next line.
    if (n === '\n') {
      i += 1;
      if (style === 'rust') while (i + 1 < raw.length && /\s/.test(raw[i + 1]!)) i++;
      continue;
    }
    let m: RegExpExecArray | null;
    const rest = raw.slice(i);
    if ((m = /^\\x([0-9a-fA-F]{2})/.exec(rest))) {
      out += fromCodePoint(parseInt(m[1]!, 16), m[0]);
      i += m[0].length - 1;
    } else if ((m = /^\\u\{([0-9a-fA-F_]{1,8})\}/.exec(rest)) && (style === 'rust' || style === 'javascript' || style === 'ruby' || style === 'php')) {
      out += fromCodePoint(parseInt(m[1]!.replace(/_/g, ''), 16), m[0]);
      i += m[0].length - 1;
    } else if ((m = /^\\u([0-9a-fA-F]{4})/.exec(rest)) && style !== 'rust' && style !== 'php') {
      out += fromCodePoint(parseInt(m[1]!, 16), m[0]);
      i += m[0].length - 1;
    } else if ((m = /^\\U([0-9a-fA-F]{8})/.exec(rest)) && (style === 'python' || style === 'go' || style === 'csharp')) {
      out += fromCodePoint(parseInt(m[1]!, 16), m[0]);
      i += m[0].length - 1;
    } else if ((m = /^\\([0-7]{1,3})/.exec(rest)) && OCTAL.has(style) && m[1] !== '0') {
      out += fromCodePoint(parseInt(m[1]!, 8), m[0]);
      i += m[0].length - 1;
    } else if ((m = /^\\N\{([^}]+)\}/.exec(rest)) && style === 'python') {
      out += m[0];
      i += m[0].length - 1;
    } else if (n === 's' && (style === 'java' || style === 'ruby')) {
      out += ' ';
      i += 1;
    } else if (n in SIMPLE) {
      const v = SIMPLE[n]!;
      out += v === '\n' || v === '\t' || v.charCodeAt(0) >= 0x20 ? v : `\\${n}`;
      i += 1;
    } else {
      // Unknown escapes: most languages keep the character; Python and PHP keep the backslash too.
      out += style === 'python' || style === 'php' ? `\\${n}` : n;
      i += 1;
    }
  }
  return out;
}
