import { describe, expect, it } from 'vitest';
import { expectSound, scanFixture } from './records.ts';

describe('scan: Java', async () => {
  const r = await scanFixture('java');

  it('reads throw new X(...) with +, String.format, formatted(), MessageFormat, text blocks, a local and a constant', () => {
    const limit = r.byMessage('limit must be positive, got {limit}');
    expect(limit.errorClass).toBe('IllegalArgumentException');
    expect(limit.triggerScenarios).toContain('`limit <= 0` holds in `Ledger.Ledger`');
    expect(limit.documentation).toContain('"Creates a ledger."');
    // The Locale argument is not the format; %% is a percent sign and %n a line break.
    expect(r.byMessage('amount {amount} over the limit of {limit} for {account} (100% used)\n').errorClass).toBe('LedgerException');
    expect(r.byMessage('zero amount for account {account}').errorClass).toBe('LedgerException');
    expect(r.byMessage('account {account} is frozen').lineNumber).toBe(34);
    expect(r.byMessage('void accounts take no postings;\nopen a real one first\n').triggerScenarios).toContain('matches `"void"`');
    expect(r.byMessage('ledger is closed for writing').errorClass).toBe('IllegalStateException');
    expect(r.byMessage('interrupted while checking {value}').triggerScenarios).toContain('handling `InterruptedException`');
    // A StringBuilder's appends before the throw; one made in a branch is a placeholder.
    expect(r.byMessage('audit found {accounts.size()} unbalanced accounts: {String.join(", ", accounts)}{report}').errorClass).toBe('LedgerException');
    // Literals in a concatenation print as written.
    r.byMessage('account == null, limit 10000');
    expectSound(r.records);
  });

  it('skips src/test, third_party, a computed message and a rethrow', () => {
    expect(r.summary.filesSkipped).toEqual({ test: 1, vendored: 1 });
    // Sorted: a raise whose class may be another file's is skipped once every file is read, after the file's others.
    expect([...r.summary.skippedSites].sort()).toEqual(['src/main/java/acme/ledger/Ledger.java:54 not-literal', 'src/main/java/acme/ledger/Ledger.java:58 rethrow']);
    expect(r.records).toHaveLength(9);
  });
});
