import { describe, expect, it } from 'vitest';
import { scanFixture, expectSound } from './records.ts';

describe('scan: Rust', async () => {
  const r = await scanFixture('rust');

  it('reads #[error] on enum variants and structs, and panic!, bail!, anyhow!, assert!, unreachable!', () => {
    const tooLong = r.byMessage('frame of {0} bytes exceeds the limit of {1}');
    expect(tooLong.errorClass).toBe('CodecError::TooLong');
    expect(tooLong.errorType).toBe('exception');
    expect(tooLong.documentation).toContain('"The frame is longer than the codec allows."');
    expect(r.byMessage('unknown frame kind {kind} (expected one of {{data, ping}})').errorClass).toBe('CodecError::UnknownKind');
    expect(r.byMessage('handshake timed out after {.0} ms').errorClass).toBe('HandshakeTimeout');
    expect(r.byMessage('pool is empty, cannot take connection {id}').triggerScenarios).toContain('`self.size == 0` holds in `Pool::take`');
    r.byMessage('connection id {id} is reserved');
    const panic = r.byMessage('connection {n} out of range (size {self.size})');
    expect([panic.errorType, panic.errorClass, panic.severity]).toEqual(['panic', 'panic', 'critical']);
    expect(panic.triggerScenarios).toContain('matches `n if n > self.size`');
    r.byMessage('pool size {self.size} is over the limit');
    expect(r.byMessage('pool has no "first" connection').triggerScenarios).toContain('`let Some(first) = self.first()` does not hold');
    expectSound(r.records);
  });

  it('reads message macros written inside another macro (a macro_rules! body), which the grammar leaves as tokens', () => {
    const rec = r.byMessage('pool {$pool.name} is closed');
    expect([rec.errorType, rec.lineNumber]).toEqual(['panic', 40]);
  });

  it('reads .expect("...") as a panic with its message as written (braces are not a format), and a const string argument as its text', () => {
    const expectRecord = r.byMessage('settings must be loaded before {{use}}');
    expect([expectRecord.errorType, expectRecord.errorClass, expectRecord.severity]).toEqual(['panic', 'panic', 'critical']);
    expect(expectRecord.documentation).toContain('`.expect()`');
    // A call chained on the next line is anchored at the `.expect` line.
    expect(r.byMessage('port is not a number').githubUrl).toMatch(/#L54$/);
    expect(r.byMessage('the pool was dropped: {text}').triggerScenarios).toContain('`text.is_empty()` holds in `settings`');
    // Written inside a macro's tokens, where the grammar leaves `.expect(...)` as plain tokens.
    expect(r.byMessage('the IO driver is disabled; enable it on the builder').lineNumber).toBe(64);
  });

  it('skips #[error(transparent)], placeholder-only panics and #[cfg(test)] code', () => {
    expect(r.summary.sitesSkipped).toEqual({ 'no-message': 1, 'no-words': 1, 'in-test': 2 });
  });
});
