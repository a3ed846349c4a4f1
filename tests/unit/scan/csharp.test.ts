import { describe, expect, it } from 'vitest';
import { expectSound, scanFixture } from './records.ts';

describe('scan: C#', async () => {
  const r = await scanFixture('csharp');

  it('reads throw statements and expressions with interpolated, verbatim and composite-format messages', () => {
    // nameof(quantity) and the value are not the message; {{ is a literal brace; the format clause is dropped.
    const range = r.byMessage('quantity must be positive, got {quantity} for {{sku}} {sku}');
    expect(range.errorClass).toBe('ArgumentOutOfRangeException');
    expect(range.triggerScenarios).toContain('`quantity <= 0` holds in `Invoice.AddLine`');
    expect(range.documentation).toContain('"Adds a line of quantity items."');
    expect(r.byMessage('quantity {quantity} is over the limit of {1000}').errorClass).toBe('ArgumentException');
    expect(r.byMessage('no total: call "Compute" first').errorClass).toBe('InvalidOperationException');
    expect(r.byMessage('sku {sku} is discontinued').triggerScenarios).toContain('matches `"old"`');
    // A factory on the exception class names it.
    expect(r.byMessage('line rejected by the tax rules').errorClass).toBe('BillingException');
    expect(r.byMessage('delivery timed out').triggerScenarios).toContain('handling `TimeoutException`');
    r.byMessage('invoice is locked after sending');
    // FormatWith's first argument is the provider, whatever the value after it is called; nameof(x) prints `x`.
    r.byMessage("Cannot read entries from '{provider}'.");
    r.byMessage('pageSize must be positive, got {pageSize}.');
    expectSound(r.records);
  });

  it('skips test projects, designer files and exceptions without a message (nameof alone)', () => {
    expect(r.summary.filesSkipped).toEqual({ test: 1, generated: 1 });
    expect(r.summary.skippedSites).toEqual(['src/Acme.Billing/Invoice.cs:16 no-message', 'src/Acme.Billing/Invoice.cs:50 no-message']);
    expect(r.records).toHaveLength(9);
  });
});
