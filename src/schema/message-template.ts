/**
 * Message templates: the literal text and the placeholders of an `errorMessage` such as
 * `expected 1 frame, got {frame_count}` or `invalid value %r for %s`.
 *
 * Used to mark placeholders in headings, to cut titles without splitting one, to pick the literal
 * words the paste matcher indexes, and to show which values a pasted message put in them.
 */

/** `text` is what the program prints; `raw` is how the template writes it (`{{` for `{`). */
export type TemplatePart = { kind: 'text'; text: string; raw: string } | { kind: 'hole'; raw: string; name: string | null };

// Tried in order at each '{', '$', '#', '%' position.
const HOLE_PATTERNS: { re: RegExp; name: (m: RegExpExecArray) => string | null }[] = [
  // ${expr} (JavaScript, shell) and #{expr} (Ruby)
  { re: /[$#]\{([^{}\n]{1,80})\}/y, name: (m) => cleanName(m[1]!) },
  // {name}, {0}, {}, {name:?}, {x!r:>10}, {type(self).__name__}, {value = } (Python, Rust, C#, SLF4J)
  { re: /\{([^{}\n]{0,80})\}/y, name: (m) => cleanName(m[1]!) },
  // %(name)s (Python)
  { re: /%\(([A-Za-z_][\w.]*)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]/y, name: (m) => m[1]! },
  // printf family: %s %d %5.2f %-10s %lu %zu %1$s, Go's %v %+v %#v %T %q %w
  // (no space flag: "100% sure" is prose, not `% s`)
  { re: /%(?:\d+\$)?[-#0+']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspvTqwr]/y, name: () => null },
];

function cleanName(inner: string): string | null {
  // `{value = }` (f-string debug), `{name:fmt}`, `{name!r}`: keep the expression.
  const expr = inner.replace(/\s*=\s*$/, '').replace(/![rsa](?::.*)?$/, '').replace(/:[^:()[\]]*$/, '').trim();
  return expr === '' || /^\d+$/.test(expr) ? (expr === '' ? null : expr) : expr;
}

// The matcher parses the same candidate templates several times per query; parts are never mutated.
const parsed = new Map<string, TemplatePart[]>();

/** Splits a template into text and placeholders. `{{`, `}}` and `%%` are literal braces and percent. */
export function parseTemplate(template: string): TemplatePart[] {
  let parts = parsed.get(template);
  if (!parts) {
    if (parsed.size >= 20_000) parsed.clear();
    parts = parseUncached(template);
    parsed.set(template, parts);
  }
  return parts;
}

/** The characters a placeholder or an escape starts with (`}` for `}}`). */
const SPECIAL = /[{}$#%]/g;

function parseUncached(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  let raw = '';
  let i = 0;
  const flush = () => {
    if (text) parts.push({ kind: 'text', text, raw });
    text = '';
    raw = '';
  };
  outer: while (i < template.length) {
    // Plain text up to the next character that can start a placeholder or an escape, in one slice.
    SPECIAL.lastIndex = i;
    const next = SPECIAL.exec(template)?.index ?? template.length;
    if (next > i) {
      const run = template.slice(i, next);
      text += run;
      raw += run;
      i = next;
      continue;
    }
    const c = template[i]!;
    if ((c === '{' && template[i + 1] === '{') || (c === '}' && template[i + 1] === '}')) {
      text += c;
      raw += c + c;
      i += 2;
      continue;
    }
    if (c === '%' && template[i + 1] === '%') {
      text += '%';
      raw += '%%';
      i += 2;
      continue;
    }
    if (c === '{' || c === '$' || c === '#' || c === '%') {
      for (const { re, name } of HOLE_PATTERNS) {
        re.lastIndex = i;
        const m = re.exec(template);
        if (m) {
          flush();
          parts.push({ kind: 'hole', raw: m[0], name: name(m) });
          i += m[0].length;
          continue outer;
        }
      }
    }
    text += c;
    raw += c;
    i++;
  }
  flush();
  return parts;
}

/**
 * Shortens `text` to at most `max` characters on a word boundary, adding an ellipsis. Placeholders
 * count as one word: a cut never lands inside `{frame_count}`.
 */
export function shortenOnWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const parts = parseTemplate(text);
  // Positions where a cut is allowed: after a space in literal text, or right before/after a placeholder.
  const cuts: number[] = [];
  let pos = 0;
  for (const p of parts) {
    if (p.kind === 'hole') {
      cuts.push(pos);
      pos += p.raw.length;
      cuts.push(pos);
    } else {
      for (let j = 0; j < p.raw.length; j++) if (p.raw[j] === ' ') cuts.push(pos + j);
      pos += p.raw.length;
    }
  }
  const limit = max - 1; // room for the ellipsis
  let best = 0;
  for (const c of cuts) if (c <= limit && c > best) best = c;
  if (best < limit * 0.5) best = limit; // one very long word: cut it rather than leave almost nothing
  return `${text.slice(0, best).replace(/[\s,;:.(\-–—]+$/, '')}…`;
}

/** A placeholder of a template and the text a concrete message put in it. */
export interface FilledHole {
  /** The placeholder as the template writes it: `{frame_count}`, `%s`. */
  raw: string;
  /** Its name when the template gives one (`frame_count`), else null (`%s`, `{}`). */
  name: string | null;
  value: string;
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ');

/**
 * Lines a concrete message up with a template: returns the value each placeholder took, or null
 * when the message does not have the template's literal text in order. Each placeholder takes at
 * least one character and the shortest text that lets the rest match (like a lazy `(.+?)`), found
 * with `indexOf`, so the cost is linear in the message and never backtracks. White space runs
 * compare as one space, since terminals and logs re-flow it.
 */
/** Python's `{expr = }` prints `expr = value`: the placeholder's value is what follows that prefix. */
function printedValue(raw: string, printed: string): string {
  const debug = /^\{(.*?\s*=\s*)\}$/.exec(raw);
  return debug && printed.startsWith(debug[1]!) ? printed.slice(debug[1]!.length) : printed;
}

export function fillTemplate(template: string, message: string): FilledHole[] | null {
  const parts = parseTemplate(template).map((p) => (p.kind === 'text' ? { ...p, text: collapse(p.text) } : p));
  const msg = collapse(message.trim());
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!first || !last) return msg === '' ? [] : null;
  let pos = 0;
  let end = msg.length;
  let from = 0;
  let to = parts.length;
  if (first.kind === 'text') {
    const lead = first.text.trimStart();
    if (!msg.startsWith(lead)) return null;
    pos = lead.length;
    from = 1;
  }
  if (last.kind === 'text' && to > from) {
    const tail = last.text.trimEnd();
    if (!msg.endsWith(tail) || msg.length - tail.length < pos) return null;
    end = msg.length - tail.length;
    to -= 1;
  }
  if (from === parts.length) return pos === msg.length ? [] : null;
  const filled: FilledHole[] = [];
  let hole: { raw: string; name: string | null } | null = null;
  for (let i = from; i < to; i++) {
    const p = parts[i]!;
    if (p.kind === 'hole') {
      if (hole) {
        // Two placeholders side by side: the first takes one character, the next the rest.
        if (pos + 1 > end) return null;
        filled.push({ ...hole, value: printedValue(hole.raw, msg.slice(pos, pos + 1)) });
        pos += 1;
      }
      hole = { raw: p.raw, name: p.name };
      continue;
    }
    const at = msg.indexOf(p.text, hole ? pos + 1 : pos);
    if (at === -1 || at + p.text.length > end || (!hole && at !== pos)) return null;
    if (hole) filled.push({ ...hole, value: printedValue(hole.raw, msg.slice(pos, at)) });
    hole = null;
    pos = at + p.text.length;
  }
  if (hole) {
    if (end - pos < 1) return null;
    filled.push({ ...hole, value: printedValue(hole.raw, msg.slice(pos, end)) });
  } else if (pos !== end) return null;
  return filled;
}

/** Characters of literal text in a template: how specific it is. */
export function literalLength(template: string): number {
  let n = 0;
  for (const p of parseTemplate(template)) if (p.kind === 'text') n += p.text.replace(/\s+/g, ' ').length;
  return n;
}

/**
 * For a message cut short (a truncated paste): how many characters of the template's literal text
 * it shows, if the message reads as the start of that template; -1 if it does not. Linear, like
 * `fillTemplate`: each literal part is found with `indexOf` after the placeholder before it.
 */
export function prefixLiteralMatch(template: string, message: string): number {
  const parts = parseTemplate(template).map((p) => (p.kind === 'text' ? { ...p, text: collapse(p.text) } : p));
  const msg = collapse(message.trim());
  let pos = 0;
  let matched = 0;
  let afterHole = false;
  for (const p of parts) {
    if (p.kind === 'hole') {
      if (afterHole) pos += 1;
      afterHole = true;
      if (pos >= msg.length) return matched;
      continue;
    }
    const text = pos === 0 && !afterHole ? p.text.trimStart() : p.text;
    if (afterHole) {
      const at = msg.indexOf(text, pos + 1);
      if (at === -1) return matched + cutOverlap(msg, text, pos + 1); // cut inside the value or this text
      pos = at + text.length;
    } else {
      const rest = msg.slice(pos);
      if (rest.startsWith(text)) pos += text.length;
      else return text.startsWith(rest) ? matched + rest.length : -1;
    }
    matched += text.length;
    afterHole = false;
    if (pos >= msg.length) return matched;
  }
  return pos >= msg.length ? matched : -1;
}

/** Length of the longest start of `text` that ends `msg` (after `from`): a cut inside literal text. */
function cutOverlap(msg: string, text: string, from: number): number {
  for (let n = Math.min(text.length - 1, msg.length - from); n > 0; n--) if (msg.endsWith(text.slice(0, n))) return n;
  return 0;
}
