import { describe, expect, it } from 'vitest';
import { fitFirstScreen, MIN_LINES, NARROW_SCREEN, wrappedLines } from '../../../src/views/first-screen.ts';

const face = { size: 10, lineHeight: 14, letter: 0.56, mono: 1 };
const words = (n: number, word = 'word') => Array.from({ length: n }, () => word).join(' ');
const input = (over: Partial<Parameters<typeof fitFirstScreen>[0]> = {}) => ({
  message: 'Session {session} is closed',
  longMessage: false,
  facts: ['acme/orm', 'error', 'ConfigError'],
  where: [{ text: 'Raised in ' }, { text: 'acme/orm/session.py:310', mono: true, box: 8 }],
  explanation: 'A `ConfigError` raised when a closed session is used again.',
  firstSolution: 'Open a new session',
  ...over,
});

describe('wrappedLines', () => {
  it('wraps at spaces, and breaks a word longer than the line anywhere', () => {
    // A letter is 5.6 px: "word " is 28 px, 12 of them 336 px.
    expect(wrappedLines([{ text: words(12) }], face, 336)).toBe(1);
    expect(wrappedLines([{ text: words(13) }], face, 336)).toBe(2);
    expect(wrappedLines([{ text: 'x'.repeat(150) }], face, 336)).toBe(3);
    // Mono letters are wider.
    expect(wrappedLines([{ text: words(12), mono: true }], face, 336)).toBe(2);
  });
});

describe('fitFirstScreen', () => {
  it('leaves a page whose answer fits whole', () => {
    const fit = fitFirstScreen(input());
    expect(fit.message).toBeNull();
    expect(fit.explanation).toBeNull();
    expect(fit.bottom).toBeLessThan(NARROW_SCREEN.height);
  });

  it('clamps a long explanation to what the screen holds above the first solution', () => {
    const fit = fitFirstScreen(input({ explanation: words(300), firstSolution: words(40) }));
    expect(fit.message).toBeNull();
    expect(fit.explanation).toBeGreaterThanOrEqual(MIN_LINES.explanation);
    expect(fit.bottom).toBeLessThanOrEqual(NARROW_SCREEN.height);
    // A longer first solution leaves the explanation fewer lines.
    const tighter = fitFirstScreen(input({ explanation: words(300), firstSolution: words(80) }));
    expect(tighter.explanation).toBeLessThan(fit.explanation!);
  });

  it('clamps the message too, once the explanation is down to its start', () => {
    const fit = fitFirstScreen(input({ message: `${words(120)} {name}`, longMessage: true, explanation: words(300), firstSolution: words(40) }));
    expect(fit.explanation).toBe(MIN_LINES.explanation);
    expect(fit.message).toBeGreaterThanOrEqual(MIN_LINES.message);
    expect(fit.bottom).toBeLessThanOrEqual(NARROW_SCREEN.height);
  });

  it('counts every paragraph of the explanation', () => {
    const one = fitFirstScreen(input({ explanation: words(150) }));
    const two = fitFirstScreen(input({ explanation: `${words(75)}\n\n${words(75)}` }));
    expect(two.bottom).toBeGreaterThanOrEqual(one.bottom);
  });
});
