/**
 * The deploy:s3 command apart from the process: settings (settings.ts), the deploy (deploy.ts) and its
 * report as lines a person reads. scripts/deploy-s3.ts calls it with the arguments and the variables it
 * read; tests call it with their own. Exit codes: 0 deployed (or planned, with --dry-run), 1 the store
 * refused or failed, 2 usage or settings (every problem named).
 */
import { type Counts, DeployError, type DeployReport, deploy } from './deploy.ts';
import { type AwsEnv, deploySettings, HELP } from './settings.ts';
import { describeStoreError, type ObjectStore, type StoreSettings, s3Store } from './store.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface DeployIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface DeployInputs {
  aws: AwsEnv;
  /** The site folder: ERRDEX_DIST, or dist/. */
  site: string;
  /** The site's base path, which its `_headers` patterns carry. */
  basePath: string;
}

const n = (x: number): string => x.toLocaleString('en-US');
const SHOWN = 50;

/** The report: counts and bytes, with --dry-run the keys (the first 50 of each kind). */
export function formatReport(r: DeployReport, target: string): string {
  const lines: string[] = [];
  const verb = r.dryRun ? ['would upload', 'unchanged', 'would delete'] : ['uploaded', 'unchanged', 'deleted'];
  lines.push(`${r.dryRun ? 'Dry run, nothing written: ' : ''}${target}`);
  const row = (label: string, c: Counts, after = '') =>
    lines.push(`  ${label.padEnd(13)}${n(c.files)} file${c.files === 1 ? '' : 's'}, ${n(c.bytes)} bytes${after}`);
  row(verb[0]!, r.uploaded);
  row(verb[1]!, r.unchanged);
  row(verb[2]!, r.deleted);
  if (r.kept.files > 0) row('kept', r.kept, ' (content-named files the site replaced: --keep-old-assets)');
  if (r.dryRun) {
    const list = (what: string, keys: string[]) => {
      if (keys.length === 0) return;
      lines.push(`${what}:`, ...keys.slice(0, SHOWN).map((k) => `  ${k}`));
      if (keys.length > SHOWN) lines.push(`  … and ${n(keys.length - SHOWN)} more`);
    };
    list(
      'would upload',
      [...r.plan.uploadFirst, ...r.plan.uploadThen].map((f) => f.key),
    );
    list(
      'would delete',
      r.plan.remove.map((o) => o.key),
    );
  }
  if (r.notStored.length > 0) lines.push(`Headers of _headers an object cannot carry, for the CDN to send: ${r.notStored.join(', ')}.`);
  for (const note of r.notes) lines.push(`Note: ${note}`);
  if (r.failed.length > 0) {
    lines.push(`${n(r.failed.length)} failed:`, ...r.failed.slice(0, SHOWN).map((f) => `  ${f.key}: ${f.reason}`));
    if (r.failed.length > SHOWN) lines.push(`  … and ${n(r.failed.length - SHOWN)} more`);
  }
  return `${lines.join('\n')}\n`;
}

export async function runDeploy(
  argv: readonly string[],
  inputs: DeployInputs,
  io: DeployIo,
  openStore: (s: StoreSettings) => ObjectStore = s3Store,
): Promise<number> {
  const result = deploySettings(argv, inputs.aws, inputs.site);
  if ('help' in result) {
    io.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  if ('problems' in result) {
    io.stderr(
      `errdex deploy:s3: ${result.problems.length === 1 ? 'a problem' : `${result.problems.length} problems`}:\n${result.problems.map((p) => `  ${p}\n`).join('')}\n${HELP}\n`,
    );
    return EXIT.usage;
  }
  const { settings } = result;
  const target = `s3://${settings.store.bucket}/${settings.prefix}${settings.store.endpoint ? ` at ${settings.store.endpoint}` : ''} (${settings.store.region}) from ${settings.site}`;
  const store = openStore(settings.store);
  try {
    const report = await deploy(store, {
      site: settings.site,
      prefix: settings.prefix,
      basePath: inputs.basePath,
      dryRun: settings.dryRun,
      keepOldAssetsMs: settings.keepOldAssetsMs,
      now: Date.now(),
      concurrency: settings.concurrency,
      log: (line) => io.stderr(`${line}\n`),
    });
    io.stdout(formatReport(report, target));
    return report.failed.length > 0 ? EXIT.failed : EXIT.ok;
  } catch (e) {
    if (e instanceof DeployError) {
      io.stderr(`errdex deploy:s3: ${e.message}\n`);
      return EXIT.usage;
    }
    io.stderr(`errdex deploy:s3: ${target}: ${describeStoreError(e)}\n`);
    return EXIT.failed;
  } finally {
    store.close();
  }
}
