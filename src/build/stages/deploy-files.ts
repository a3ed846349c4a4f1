/**
 * What a host needs of the site besides its pages, done on the staging folder just before it is
 * published (src/build/stages/publish.ts): `_headers` written (src/build/headers.ts), `_redirects`
 * cut to the host's rule limit when --trim-redirects asks, the site measured on two cores (files,
 * bytes, largest file: every build's summary) and checked against the --host budget (src/build/hosts.ts). A site
 * over budget fails the stage, so the published site stays as it was. The early check runs once
 * validation has counted the records: a catalog that cannot fit fails in seconds, not after the render.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteConfig } from '../../../errdex.config.mjs';
import { headersFile } from '../headers.ts';
import { type BuildFacts, earlyOverruns, type HostBudget, overrunReport, siteOverruns } from '../hosts.ts';
import type { BuildSettings } from '../state.ts';
import { measureInWorker } from '../measure-worker.ts';
import { describeSite, formatCount, measureSiteBeside, redirectRules, type SiteFigures } from '../summary.ts';

/** A site (or a catalog) over the host's budget: the report says by how much and what to change. */
export class OverBudget extends Error {}

const facts = (settings: BuildSettings, records: number): BuildFacts => ({ records, maxFragments: settings.maxFragments, maxIndexFiles: settings.maxIndexFiles });

/** Throws OverBudget when the records alone pass a limit of the --host budget. */
export function checkRecordCount(settings: BuildSettings, records: number): void {
  const budget = settings.host;
  if (!budget) return;
  const overruns = earlyOverruns(budget, facts(settings, records));
  if (overruns.length > 0) throw new OverBudget(overrunReport(budget, overruns, null));
}

/** Keeps the first `max` rules of `_redirects` (comments stay); returns how many were left out. */
export function trimRedirects(file: string, max: number): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  let rules = 0;
  const kept = lines.filter((line) => redirectRules(line).length === 0 || ++rules <= max);
  if (rules <= max) return 0;
  writeFileSync(file, kept.join('\n'));
  return rules - max;
}

export interface DeployFiles {
  figures: SiteFigures;
  /** The summary: figures, and what --trim-redirects left out. */
  summary: string;
  notes: string[];
}

/** `_headers`, trimmed `_redirects`, the figures, and the budget check (OverBudget) of the staging folder. */
export async function prepareSite(
  staging: string,
  settings: BuildSettings,
  records: number,
  budget: HostBudget | null = settings.host,
  known?: Parameters<typeof measureSiteBeside>[2],
): Promise<DeployFiles> {
  writeFileSync(join(staging, '_headers'), headersFile(staging, siteConfig.basePath));
  const notes: string[] = [];
  if (budget?.trimRedirects && budget.limits.redirects !== undefined) {
    const dropped = trimRedirects(join(staging, '_redirects'), budget.limits.redirects);
    if (dropped > 0) {
      notes.push(`_redirects: the first ${formatCount(budget.limits.redirects)} rules kept (--trim-redirects); ${formatCount(dropped)} others redirect through their HTML redirect pages only.`);
    }
  }
  const figures = await measureSiteBeside(staging, (dirs) => measureInWorker(staging, dirs), known);
  if (budget) {
    const overruns = siteOverruns(budget, facts(settings, records), figures);
    if (overruns.length > 0) throw new OverBudget(overrunReport(budget, overruns, figures));
    notes.push(`Fits ${budget.overridden.length > 0 ? `${budget.host.title.replace(/ \(.*\)$/, '')} with --host-limit` : budget.host.title} (--host=${budget.host.name}): ${limitsText(budget, figures)}.`);
  }
  return { figures, summary: describeSite(figures), notes };
}

/** "20,000 files: 4,613 used; 25 MiB a file: largest 1.2 MB" for each limit checked. */
function limitsText(budget: HostBudget, f: SiteFigures): string {
  const { limits } = budget;
  const parts: string[] = [];
  if (limits.files !== undefined) parts.push(`${formatCount(f.files)} of ${formatCount(limits.files)} files`);
  if (limits.bytes !== undefined) parts.push(`${formatCount(f.bytes)} of ${formatCount(limits.bytes)} bytes`);
  if (limits['file-bytes'] !== undefined) parts.push(`largest file ${formatCount(f.largest.bytes)} of ${formatCount(limits['file-bytes'])} bytes`);
  if (limits['folder-files'] !== undefined) parts.push(`fullest folder ${formatCount(f.fullest.files)} of ${formatCount(limits['folder-files'])} files`);
  if (limits.redirects !== undefined && budget.host.readsRedirects) parts.push(`${formatCount(f.redirectRules)} of ${formatCount(limits.redirects)} _redirects rules`);
  return parts.length > 0 ? parts.join(', ') : 'no limits to check';
}
