/** The scan's summary as printed: files per language, sites found, what was left out and why. */
import { SKIP_REASONS, type SkipReason } from './select.ts';
import { SITE_SKIPS, type SiteSkip } from './site.ts';
import type { ScanSummary } from './scan.ts';

const total = (counts: Partial<Record<string, number>>): number => Object.values(counts).reduce((a: number, b) => a + (b ?? 0), 0);
const list = (counts: Partial<Record<string, number>>): string =>
  Object.entries(counts)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

export function summaryLines(s: ScanSummary): string[] {
  const lines = [
    `scan ${s.repo} @ ${s.sha.slice(0, 12)}: ${s.sites} records in ${s.seconds.toFixed(1)} s.`,
    `  files read      ${total(s.filesRead)} (${list(s.filesRead)})`,
    `  files skipped   ${total(s.filesSkipped)} (${list(s.filesSkipped)})`,
    `  sites           ${s.sites} (${list(s.sitesPerLanguage)})`,
    `  sites skipped   ${total(s.sitesSkipped)} (${list(s.sitesSkipped)})`,
    `  parse errors    ${s.parseErrors.length} file${s.parseErrors.length === 1 ? '' : 's'}${s.parseErrors.length ? ` (their other code is still read): ${s.parseErrors.slice(0, 5).join(', ')}${s.parseErrors.length > 5 ? ', …' : ''}` : ''}`,
  ];
  for (const problem of s.invalid.slice(0, 20)) lines.push(`  invalid record  ${problem}`);
  return lines;
}

/** What each skip reason means, for `--help` and the docs. */
export function reasonLegend(): string[] {
  return [
    ...Object.entries(SKIP_REASONS).map(([k, v]) => `  ${(k as SkipReason).padEnd(20)}${v}`),
    ...Object.entries(SITE_SKIPS).map(([k, v]) => `  ${(k as SiteSkip).padEnd(20)}${v}`),
    `  ${'invalid-record'.padEnd(20)}the schema rejected the record (listed; a scanner bug)`,
  ];
}
