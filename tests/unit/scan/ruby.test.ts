import { describe, expect, it } from 'vitest';
import { expectSound, scanFixture } from './records.ts';

describe('scan: Ruby', async () => {
  const r = await scanFixture('ruby');

  it('reads raise/fail with a class and message, X.new(...), #{} interpolation, format, % and a constant', () => {
    const domain = r.byMessage('recipient {to.inspect} has no domain');
    expect(domain.errorClass).toBe('ArgumentError');
    expect(domain.triggerScenarios).toContain('`!(to.include?("@"))` holds in `Acme.Mailer.deliver`');
    expect(domain.documentation).toContain('"Delivers a message to a recipient."');
    expect(r.byMessage('body of {body.size} bytes is over the limit').errorClass).toBe('DeliveryError');
    expect(r.byMessage('relay refused the message').errorClass).toBe('RuntimeError');
    // `raise CONSTANT` holding a string raises a RuntimeError with it.
    expect(r.byMessage('mailer is not configured, set a relay first').errorClass).toBe('RuntimeError');
    expect(r.byMessage('relay {@relay} is down since {since}').triggerScenarios).toContain('`@relay.down?` holds');
    expect(r.byMessage('example.org addresses are reserved for documentation').lineNumber).toBe(22);
    r.byMessage('could not reach {@relay.host}');
    expect(r.byMessage('relay timed out after {@timeout} seconds').triggerScenarios).toContain('handling `Timeout::Error`');
    // A squiggly heredoc loses its common indentation and final line break; a colour method keeps the text.
    const heredoc = r.byMessage('Relay {relay.inspect} is not a host name.\n  Set one in config/mail.yml.');
    expect([heredoc.lineNumber, heredoc.errorClass, heredoc.documentation.includes('`Acme.Settings.self.check!`')]).toEqual([41, 'ArgumentError', true]);
    r.byMessage('relay {relay} is blocked');
    expectSound(r.records);
  });

  it('skips spec/, vendor/ and a re-raise', () => {
    expect(r.summary.filesSkipped).toEqual({ test: 1, vendored: 1 });
    expect(r.summary.skippedSites).toEqual(['lib/acme/mailer.rb:32 rethrow']);
    expect(r.records).toHaveLength(10);
  });
});
