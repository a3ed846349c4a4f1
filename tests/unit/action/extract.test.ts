import { describe, expect, it } from 'vitest';
import { errorTexts, MAX_PASTES } from '../../../src/action/extract.ts';

describe('action: error text in an issue', () => {
  it('takes fenced blocks that print an error, not those of source or config, nor HTML comments', () => {
    const body = [
      '<!-- ValueError: the template says to paste here -->',
      'It fails:',
      '```python-traceback',
      'Traceback (most recent call last):',
      '  File "app.py", line 3, in <module>',
      'ValueError: Unknown numeric column type: 1700',
      '```',
      '~~~toml',
      '[tool.app]',
      'strict = true',
      '~~~',
    ].join('\n');
    expect(errorTexts(body)).toEqual(['Traceback (most recent call last):\n  File "app.py", line 3, in <module>\nValueError: Unknown numeric column type: 1700']);
  });

  it('finds tracebacks and logged error lines in plain text, quoted or not, after the code blocks', () => {
    const body = [
      'First this:',
      '',
      '> 2026-12-01 10:04:11 ERROR worker: RuntimeError: Worker pool is exhausted',
      '',
      'Then, running it again:',
      '',
      '```',
      'panic: runtime error: index out of range [3] with length 3',
      '```',
      '',
      'Exception in thread "main" java.lang.IllegalStateException: Pool closed',
      '\tat com.acme.Pool.take(Pool.java:41)',
    ].join('\n');
    expect(errorTexts(body)).toEqual([
      'panic: runtime error: index out of range [3] with length 3',
      '2026-12-01 10:04:11 ERROR worker: RuntimeError: Worker pool is exhausted',
      'Exception in thread "main" java.lang.IllegalStateException: Pool closed\n\tat com.acme.Pool.take(Pool.java:41)',
    ]);
  });

  it('reads an unclosed fence to the end, and a fence with backticks in its info string as text', () => {
    expect(errorTexts('```\nTypeError: x is not a function')).toEqual(['TypeError: x is not a function']);
    expect(errorTexts('``` `inline` TypeError: y ```')).toEqual(['``` `inline` TypeError: y ```']);
  });

  it('says nothing for an issue without an error, or without a body', () => {
    expect(errorTexts('The README says `widgest`.\n\n```sh\npip install widgets\n```')).toEqual([]);
    expect(errorTexts(null)).toEqual([]);
  });

  it('looks each paste up once and at most a few per text', () => {
    const blocks = Array.from({ length: MAX_PASTES + 4 }, (_, i) => `\`\`\`\nKeyError: 'k${i}'\n\`\`\``).join('\n\n');
    expect(errorTexts(blocks)).toHaveLength(MAX_PASTES);
    expect(errorTexts('```\nKeyError: a\n```\n\n```\nKeyError: a\n```')).toEqual(['KeyError: a']);
  });

  it('stays fast on hostile text (a 64 KB line built to make the class pattern backtrack)', () => {
    const started = performance.now();
    errorTexts(`${'a:'.repeat(32_000)}\n`.repeat(2));
    // Generous: a backtracking scan of the whole line would take minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
