/**
 * Text every match of a regex must contain: the runs of literal characters at the top level of the
 * pattern, outside groups, classes and quantified atoms. The matcher reads a line for them before
 * compiling the pattern on RE2 (most of a cold query's time): a line without them cannot match.
 *
 * Conservative: whatever it does not understand ends a run, and a pattern with a top-level `|` or
 * inline flags (`(?i)`) gives no runs at all, so a line is never wrongly ruled out.
 */

/** Shortest run worth checking. */
const MIN_RUN = 3;

const cache = new Map<string, string[]>();

export function requiredLiterals(pattern: string): string[] {
  let out = cache.get(pattern);
  if (out) return out;
  out = scan(pattern);
  if (cache.size >= 20_000) cache.clear();
  cache.set(pattern, out);
  return out;
}

function scan(pattern: string): string[] {
  if (/\(\?[a-zA-Z]*[imsxU]/.test(pattern)) return []; // inline flags change what a literal matches
  const runs: string[] = [];
  let run = '';
  let depth = 0;
  const end = () => {
    if (run.length >= MIN_RUN) runs.push(run);
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      i++;
      if (next === undefined) return [];
      // `\x41`, `\u0041`, `\p{L}`, `\k<name>`, `\cJ` carry a payload this scan does not read: it
      // would take it for literal text and rule out lines that match, so such a pattern requires nothing.
      if (/[xupPkc]/.test(next)) return [];
      // `\.` is a dot; `\d`, `\b`, `\1`, `\n` are classes, anchors, references or escapes: no literal.
      if (depth === 0 && /[^\p{L}\p{N}_]/u.test(next)) run += next;
      else if (depth === 0) end();
      continue;
    }
    if (c === '[') {
      // A class: skip to its closing bracket (a `]` first, or escaped, is part of it).
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      if (depth === 0) end();
      continue;
    }
    if (c === '(') {
      if (depth === 0) end();
      depth++;
      continue;
    }
    if (c === ')') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth > 0) continue;
    if (c === '|') return [];
    const counted = c === '{' ? /^\{\d+(?:,\d*)?\}/.exec(pattern.slice(i, i + 24)) : null;
    if (c === '*' || c === '+' || c === '?' || counted) {
      // The atom before is optional or repeated: it leaves the run.
      run = run.slice(0, -1);
      end();
      if (counted) i += counted[0].length - 1;
      continue;
    }
    if (c === '.' || c === '^' || c === '$') {
      end();
      continue;
    }
    run += c;
  }
  end();
  return runs;
}

/** Whether the line holds every required run of the pattern: else neither it nor any part of it can match. */
export function holdsLiterals(pattern: string, line: string): boolean {
  const runs = requiredLiterals(pattern);
  return runs.every((r) => line.includes(r));
}

/** Whether some line holds every required run of the pattern. */
export function mayMatch(pattern: string, lines: readonly string[]): boolean {
  return requiredLiterals(pattern).length === 0 || lines.some((line) => holdsLiterals(pattern, line));
}
