/**
 * The command as run: scripts/deploy-s3.ts in a process of its own, with only the variables given
 * here, against the local S3 server: settings problems named at once (exit 2), the report, a second
 * run sending nothing, --dry-run, and the store's refusals (exit 1).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { deployedKeys, RECORD_TWIN, writeSite } from '../../support/deploy-site.ts';
import { type LocalS3, S3RVER_KEY, startLocalS3 } from '../../support/s3-server.ts';

let s3: LocalS3 | null = null;
let unavailable = '';
const site = mkdtempSync(join(tmpdir(), 'errdex-deploy-cli-'));
writeSite(site);

beforeAll(async () => {
  try {
    s3 = await startLocalS3(['cli-site']);
  } catch (e) {
    unavailable = `the local S3 server (s3rver) did not start: ${e instanceof Error ? e.message : String(e)}`;
    console.warn(`deploy command tests against the server skipped: ${unavailable}`);
  }
});
afterAll(async () => {
  await s3?.close();
  rmSync(site, { recursive: true, force: true });
});

function need(ctx: TestContext): LocalS3 {
  if (!s3) ctx.skip(unavailable);
  return s3!;
}

/**
 * Runs the command with `env` and nothing else of this process's environment but PATH and HOME; not
 * spawnSync, which would stop the server that runs in this process.
 */
function deployS3(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/deploy-s3.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ERRDEX_DIST: site, ...env },
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => child.on('error', reject).on('close', (status) => resolve({ status, stdout, stderr })));
}

describe('npm run deploy:s3', () => {
  it('names every missing setting at once and exits 2 before any request', async () => {
    const run = await deployS3([], { ERRDEX_DIST: join(site, 'nope') });
    expect(run.status).toBe(2);
    for (const problem of [
      'the bucket is missing',
      'the region is missing: set AWS_REGION',
      'AWS_ACCESS_KEY_ID is not set',
      'AWS_SECRET_ACCESS_KEY is not set',
      `the site folder ${join(site, 'nope')} does not exist`,
    ]) {
      expect(run.stderr).toContain(problem);
    }
    expect(run.stderr).toMatch(/^errdex deploy:s3: 5 problems:/);
  });

  it('deploys, reports counts and bytes, sends nothing the second time, and plans a change with --dry-run', async (ctx) => {
    const server = need(ctx);
    const env = { ...S3RVER_KEY, AWS_ENDPOINT_URL: server.endpoint };
    const first = await deployS3(['cli-site', '--prefix', 'www'], env);
    expect(first.stderr).not.toMatch(/errdex deploy:s3:/);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`s3://cli-site/www/ at ${server.endpoint} (us-east-1)`);
    expect(first.stdout).toMatch(new RegExp(`uploaded +${deployedKeys().length} files, [\\d,]+ bytes`));
    expect(first.stdout).toContain('Headers of _headers an object cannot carry, for the CDN to send: Content-Security-Policy');

    const puts = server.requests.filter((r) => r.method === 'PUT').length;
    const second = await deployS3(['cli-site', '--prefix', 'www'], env);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/uploaded +0 files, 0 bytes/);
    expect(second.stdout).toMatch(new RegExp(`unchanged +${deployedKeys().length} files`));

    writeFileSync(join(site, RECORD_TWIN), '{"id":"3333000000000001","changed":true}');
    const dry = await deployS3(['s3://cli-site/www', '--dry-run'], env);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run, nothing written: /);
    expect(dry.stdout).toMatch(/would upload +1 file, /);
    expect(dry.stdout).toContain(`would upload:\n  ${RECORD_TWIN}\n`);
    expect(server.requests.filter((r) => r.method === 'PUT').length).toBe(puts);
  });

  it('exits 1 naming what the store said: a key it does not know, a bucket it does not have', async (ctx) => {
    const server = need(ctx);
    const badKey = await deployS3(['cli-site'], { AWS_ACCESS_KEY_ID: 'NOT-A-KEY', AWS_SECRET_ACCESS_KEY: 'x', AWS_ENDPOINT_URL: server.endpoint });
    expect(badKey.status).toBe(1);
    expect(badKey.stderr).toMatch(/InvalidAccessKeyId \(HTTP 403\)/);
    const noBucket = await deployS3(['no-such-bucket'], { ...S3RVER_KEY, AWS_ENDPOINT_URL: server.endpoint });
    expect(noBucket.status).toBe(1);
    expect(noBucket.stderr).toMatch(/NoSuchBucket \(HTTP 404\)/);
  });
});
