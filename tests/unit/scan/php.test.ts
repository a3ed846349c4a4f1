import { describe, expect, it } from 'vitest';
import { expectSound, scanFixture } from './records.ts';

describe('scan: PHP', async () => {
  const r = await scanFixture('php');

  it('reads throw new X(...) with quoted strings, interpolation, sprintf, ., heredocs, a local and a class constant', () => {
    const empty = r.byMessage('The key must not be empty.');
    expect(empty.errorClass).toBe('InvalidArgumentException');
    expect(empty.triggerScenarios).toContain("`$key === ''` holds in `FileStore.get`");
    expect(empty.documentation).toContain('"Reads a key."');
    // \sprintf is sprintf; %% is a percent sign.
    expect(r.byMessage('The key "{key}" is longer than {250} characters ({ttl}% over).').triggerScenarios).toContain('`\\strlen($key) > 250` holds');
    expect(r.byMessage('No entry for {key} in {this->dir} (checked {path}).').errorClass).toBe('StoreException');
    expect(r.byMessage('Entry {key} expired {ttl} seconds ago.').triggerScenarios).toContain('matches `0`');
    // The closing marker's indentation is removed; a named constructor of the class names it.
    const heredoc = r.byMessage('Could not read {path}.');
    expect([heredoc.errorClass, heredoc.lineNumber]).toEqual(['StoreException', 40]);
    expect(heredoc.triggerScenarios).toContain('handling `\\ErrorException`');
    r.byMessage('the store is read-only');
    expectSound(r.records);
  });

  it('skips tests/, vendor/ and a rethrow', () => {
    expect(r.summary.filesSkipped).toEqual({ test: 1, vendored: 1 });
    expect(r.summary.skippedSites).toEqual(['src/Cache/FileStore.php:53 rethrow']);
    expect(r.records).toHaveLength(6);
  });
});
