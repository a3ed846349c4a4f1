import fc from 'fast-check';
import { createOnigurumaEngine } from 'shiki';
import { describe, expect, it } from 'vitest';
import { ONIGURUMA_LANGS } from '../../../src/highlight/highlighter.ts';
import { wordTrie, wordTries } from '../../../src/highlight/word-tries.ts';

// Words over a few letters share beginnings often, and some are prefixes of others: the cases where order decides.
const word = fc.string({ unit: fc.constantFrom('a', 'b', '_'), minLength: 1, maxLength: 4 });
const subject = fc.string({ unit: fc.constantFrom('a', 'b', '_', 'c', ' '), maxLength: 8 });

/** What `pattern` matches at the start of `s`, with its groups; JavaScript's RegExp picks alternatives in order, as Oniguruma does. */
const matchAt = (pattern: string, s: string) => new RegExp(`^(?:${pattern})`).exec(s)?.slice() ?? null;

describe('wordTrie', () => {
  it('matches what the words in their order match, backtracking included', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 12 }), subject, fc.constantFrom('', 'b', '\\b', 'a|b', '_c'), (words, s, after) => {
        const alone = words.join('|');
        const trie = wordTrie(words);
        expect(matchAt(`(?:${trie})${after}`, s)).toEqual(matchAt(`(?:${alone})${after}`, s));
        expect(matchAt(`(?!(?:${trie})\\b)`, s)).toEqual(matchAt(`(?!(?:${alone})\\b)`, s));
      }),
      { numRuns: 2000 },
    );
  });

  it('tries a shorter word where it stood among the longer ones', () => {
    expect(wordTrie(['and', 'and_eq', 'asm', 'alignas', 'alignof'])).toBe('a(?:nd(?:|_eq)|sm|lign(?:as|of))');
    expect(wordTrie(['and_eq', 'and'])).toBe('and(?:_eq|)');
    expect(wordTrie(['if', 'int', 'if', 'for'])).toBe('i(?:f|nt)|for');
  });
});

describe('wordTries', () => {
  it('writes each group of five or more plain words as a trie, and nothing else', () => {
    expect(wordTries('(?!\\b(?:alignas|alignof|and|and_eq|asm)\\b)\\w+')).toBe('(?!\\b(?:a(?:lign(?:as|of)|nd(?:|_eq)|sm))\\b)\\w+');
    // A capturing group keeps its place, so \1 and every later group keep their numbers.
    expect(wordTries('(short|signed|sizeof|float|for)\\s+(\\w+)\\1')).toBe('(s(?:hort|i(?:gned|zeof))|f(?:loat|or))\\s+(\\w+)\\1');
    expect(wordTries('(?=class|struct|union|enum|explicit)')).toBe('(?=class|struct|union|e(?:num|xplicit))');
  });

  it('leaves escaped parentheses, character classes, comments and short lists alone', () => {
    for (const pattern of [
      '\\(sa|sb|sc|sd|se)',
      '[(sa|sb|sc|sd|se)]',
      '[^](sa|sb|sc|sd|se)]',
      '[a[b]](?#(sa|sb|sc|sd|se))x',
      '(?:sa|sb|sc|sd)',
      '(?:sa|sb|sc|sd|s.)',
      '(?>sa|sb|sc|sd|se)',
    ]) {
      expect(wordTries(pattern)).toBe(pattern);
    }
    // Outside the class, the group is rewritten.
    expect(wordTries('[(][)](sa|sb|sc|sd|se)')).toBe('[(][)](s(?:a|b|c|d|e))');
  });

  it('leaves a pattern with a flag group or a quoted span as it is', () => {
    for (const pattern of ['(?i)(?:sa|sb|sc|sd|se)', '(?i:(?:sa|sb|sc|sd|se))', '(?x) (?:sa|sb|sc|sd|se) # words', '\\Q(\\E(?:sa|sb|sc|sd|se)']) {
      expect(wordTries(pattern)).toBe(pattern);
    }
  });

  it('gives Oniguruma a pattern it compiles for every pattern that compiles, in every grammar it is used on', async () => {
    const engine = await createOnigurumaEngine(import('shiki/wasm'));
    const compiles = (pattern: string) => {
      try {
        engine.createScanner([pattern]);
        return true;
      } catch {
        return false;
      }
    };
    const rewritten: Record<string, number> = {};
    // The languages the highlighter gives Oniguruma, with the grammars they embed.
    for (const lang of ONIGURUMA_LANGS) {
      const grammars = (await import(`@shikijs/langs/${lang}`)).default as object[];
      const patterns = new Set<string>();
      const walk = (v: unknown, key = ''): void => {
        if (typeof v === 'string' && ['match', 'begin', 'end', 'while'].includes(key)) patterns.add(v);
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
      };
      walk(grammars);
      rewritten[lang] = 0;
      for (const pattern of patterns) {
        const trie = wordTries(pattern);
        if (trie === pattern) continue;
        rewritten[lang]++;
        expect(compiles(trie), trie).toBe(compiles(pattern));
      }
    }
    // C++ names its keywords in lists of tens of words: the patterns this is for.
    expect(rewritten.cpp).toBeGreaterThan(50);
  });
});
