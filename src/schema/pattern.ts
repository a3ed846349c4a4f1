/**
 * A record's `messagePattern`, compiled the one way errdex runs it: on RE2 (re2js), an automaton
 * whose matching time is linear in the input's length whatever the pattern. Validation judges a
 * pattern by this compile and the search matcher (src/search/matcher.ts) runs what it returns, so a
 * pattern the validator accepts is a pattern the site can run, in linear time.
 *
 * Patterns are written in JavaScript's RegExp syntax; `translateRegExp` rewrites the spellings RE2
 * writes differently. What RE2 cannot do at all (look-around, back-references) is named with its
 * position, so that the author knows what to rewrite.
 */
import { RE2JS } from 're2js';

export type CompiledPattern = RE2JS;

export type PatternCompile =
  | { ok: true; re: CompiledPattern }
  | {
      ok: false;
      /** The construct RE2 refused, as written in the pattern, e.g. `(?<=`, `\1`. */
      construct: string;
      /** Its 0-based index in the pattern, or -1 when it cannot be placed. */
      position: number;
      /** One sentence: what and where. */
      message: string;
    };

/** JavaScript constructs RE2 lacks by design (they need backtracking), found before RE2 reports them less clearly. */
const UNSUPPORTED: { re: RegExp; what: string }[] = [
  { re: /^\(\?<[=!]/, what: 'a look-behind' },
  { re: /^\(\?[=!]/, what: 'a look-ahead' },
  { re: /^\\k<[^>]*>/, what: 'a named back-reference' },
  { re: /^\\[1-9]\d*/, what: 'a back-reference' },
];

/** The first construct of UNSUPPORTED outside a character class, with its index. */
function unsupportedConstruct(source: string): { construct: string; position: number; what: string } | null {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      if (!inClass) {
        for (const u of UNSUPPORTED) {
          const m = u.re.exec(source.slice(i, i + 64));
          if (m) return { construct: m[0], position: i, what: u.what };
        }
      }
      i++;
    } else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '(' && !inClass) {
      for (const u of UNSUPPORTED) {
        const m = u.re.exec(source.slice(i, i + 4));
        if (m) return { construct: m[0], position: i, what: u.what };
      }
    }
  }
  return null;
}

const at = (position: number) => (position >= 0 ? ` at character ${position + 1}` : '');

/** Compiles a pattern on RE2 as the site runs it, or says what RE2 refused and where. */
export function compilePattern(source: string): PatternCompile {
  const unsupported = unsupportedConstruct(source);
  if (unsupported) {
    const { construct, position, what } = unsupported;
    return {
      ok: false,
      construct,
      position,
      message: `uses ${what} ${JSON.stringify(construct)}${at(position)}, which RE2 (the linear-time engine errdex matches with) does not support; rewrite the pattern without it`,
    };
  }
  try {
    return { ok: true, re: RE2JS.compile(RE2JS.translateRegExp(source)) };
  } catch (e) {
    const error = e as { error?: unknown; input?: unknown; message?: string };
    const construct = typeof error.input === 'string' ? error.input : '';
    const reason = typeof error.error === 'string' ? error.error : String(error.message ?? e);
    // RE2 names the whole pattern for some errors (an unclosed group): no position then.
    const position = construct === '' || construct === source ? -1 : source.indexOf(construct);
    return {
      ok: false,
      construct,
      position,
      message: `does not compile on RE2 (the linear-time engine errdex matches with): ${reason}${construct ? ` ${JSON.stringify(construct)}` : ''}${at(position)}`,
    };
  }
}

/** null when the pattern compiles on RE2, else the sentence that says why not (for the schema). */
export function patternProblem(source: string): string | null {
  const compiled = compilePattern(source);
  return compiled.ok ? null : compiled.message;
}
