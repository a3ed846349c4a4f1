/** Shared checks for scanned records: valid for the catalog, and a pattern that matches its template filled in. */
import { RE2JS } from 're2js';
import { expect } from 'vitest';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { parseTemplate } from '../../../src/schema/message-template.ts';
import { recordCheck, scan, type ScanResult } from '../../../src/scan/scan.ts';
import { fixtureRepo } from './fixture-repo.ts';

/** The template with each placeholder replaced by a sample value, as a program would print it. */
export function filled(template: string, values = ['42', "'alpha beta'", '/tmp/x.conf']): string {
  let i = 0;
  return parseTemplate(template)
    .map((p) => (p.kind === 'text' ? p.text : values[i++ % values.length]))
    .join('');
}

export function expectSound(records: ErrorRecord[]): void {
  for (const r of records) {
    expect(recordCheck(r), r.errorMessage).toEqual([]);
    const re = RE2JS.compile(RE2JS.translateRegExp(r.messagePattern));
    expect(re.matches(filled(r.errorMessage)), `${r.messagePattern} on ${filled(r.errorMessage)}`).toBe(true);
  }
}

export async function scanFixture(name: string): Promise<ScanResult & { byMessage: (m: string) => ErrorRecord }> {
  const result = await scan({ dir: fixtureRepo(name) });
  const byMessage = (m: string) => {
    const found = result.records.filter((r) => r.errorMessage === m);
    expect(found.map((r) => r.errorMessage), `one record for ${m}; have ${JSON.stringify(result.records.map((r) => r.errorMessage))}`).toEqual([m]);
    return found[0]!;
  };
  return { ...result, byMessage };
}
