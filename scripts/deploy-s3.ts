/**
 * `npm run deploy:s3 -- <bucket> [--prefix p] [--endpoint URL] [--region r] [--dry-run]`: the built
 * site uploaded to an S3-compatible bucket, only what changed (src/deploy/; `--help` for the options).
 * The environment is read here, once: the AWS variables, ERRDEX_DIST, and the base path through the
 * site settings. Exit codes: 0 deployed, 1 the store refused or failed, 2 usage or settings.
 */
import { resolve } from 'node:path';
import { siteConfig } from '../errdex.config.mjs';
import { runDeploy } from '../src/deploy/cli.ts';
import { awsEnvFrom } from '../src/deploy/settings.ts';

process.exitCode = await runDeploy(
  process.argv.slice(2),
  { aws: awsEnvFrom(process.env), site: resolve(process.env.ERRDEX_DIST?.trim() || 'dist'), basePath: siteConfig.basePath },
  { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
);
