/**
 * messagePattern is judged by the engine that runs it: what RE2 compiles is accepted (however many
 * placeholders), what it cannot run is refused with the construct and its position, and every
 * accepted pattern runs in linear time in the shipped matcher's compiled form.
 */
import { describe, expect, it } from 'vitest';
import { compilePattern, patternProblem } from '../../../src/schema/pattern.ts';

const TWELVE = `^Model: (.+?) with config (.+?) ${Array.from({ length: 10 }, () => '(.+?)').join(' ')}$`;
/** The patterns that hang a backtracking engine (issue 25), and the twelve-placeholder one a real catalog holds. */
const HOSTILE = ['.*.*.*=', 'a*a*a*a*a*a*a*b', TWELVE];

describe('compilePattern', () => {
  it('accepts the patterns RE2 compiles, whatever their number of wildcards', () => {
    expect((TWELVE.match(/\(\.\+\?\)/g) ?? []).length).toBe(12);
    for (const p of [...HOSTILE, '^(a+)+$', '(?<name>\\w+) failed', '^widget (\\S+) not found$', 'x{2,5}']) expect(patternProblem(p)).toBeNull();
    const c = compilePattern(TWELVE);
    expect(c.ok && c.re.matches(`Model: m with config ${Array.from({ length: 11 }, (_, i) => `v${i}`).join(' ')}`)).toBe(true);
  });

  it.each([
    ['(?<=widget )\\S+', '(?<=', 0, 'look-behind'],
    ['(?<!x)y', '(?<!', 0, 'look-behind'],
    ['^(\\w+) is \\1$', '\\1', 10, 'back-reference'],
    ['^(?<w>\\w+) and \\k<w>$', '\\k<w>', 15, 'named back-reference'],
    ['a(?=b)', '(?=', 1, 'look-ahead'],
  ])('refuses %s, naming %s at its position', (source, construct, position, what) => {
    const c = compilePattern(source);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c).toMatchObject({ construct, position });
    expect(c.message).toContain(`${what} ${JSON.stringify(construct)} at character ${position + 1}`);
  });

  it('a back-reference-looking escape inside a class is RE2 business, not a back-reference', () => {
    const c = compilePattern('[\\1]');
    expect(c.ok ? '' : c.message).not.toContain('back-reference');
  });

  it('names what RE2 refuses beyond look-around, with its position', () => {
    const c = compilePattern('widget a{2,1}');
    expect(c).toMatchObject({ ok: false, construct: '{2,1}', position: 8 });
  });
});

describe('linear time in the shipped matcher', () => {
  /** Text that almost matches: the worst case of a backtracking engine. */
  const inputOf = (source: string, n: number): string => (source === TWELVE ? `Model: ${'x '.repeat(n / 2)}` : 'a'.repeat(n));

  /** Time of a full match and a search over `input`, five times (a few ms each: a single run is mostly noise). */
  const time = (source: string, input: string): number => {
    const c = compilePattern(source);
    if (!c.ok) throw new Error(c.message);
    const started = performance.now();
    for (let i = 0; i < 5; i++) {
      c.re.matches(input);
      c.re.exec(input);
    }
    return performance.now() - started;
  };

  it.each(HOSTILE)('%s completes on 1 MB, and 1 MB takes about four times 0.25 MB', (source) => {
    const quarter = inputOf(source, 250_000);
    const full = inputOf(source, 1_000_000);
    time(source, quarter); // warm-up: the first run builds the automaton's states
    // The fastest of several runs: the least disturbed by garbage collection and the other processes.
    const best = (input: string) => Math.min(...Array.from({ length: 5 }, () => time(source, input)));
    // A busy machine can slow one measurement: up to three tries. A superlinear engine fails all three.
    let ratio = Infinity;
    for (let attempt = 0; attempt < 3 && !(ratio < 9); attempt++) ratio = best(full) / best(quarter);
    // Linear: four times the input, about four times the time; quadratic would be sixteen. The bound
    // leaves room for a busy machine and for the smaller input fitting the processor's caches better.
    expect(ratio).toBeLessThan(9);
  }, 120_000);
});
