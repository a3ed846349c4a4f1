/** settings: the AWS variables picked, every problem named at once, the bucket, prefix, endpoint and region. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { awsEnvFrom, type DeploySettings, deploySettings, normalisePrefix } from '../../../src/deploy/settings.ts';

const site = mkdtempSync(join(tmpdir(), 'errdex-deploy-settings-'));
afterAll(() => rmSync(site, { recursive: true, force: true }));
const KEYS = { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' };

function ok(argv: string[], aws: Record<string, string> = { ...KEYS, AWS_REGION: 'eu-west-1' }): DeploySettings {
  const r = deploySettings(argv, aws, site);
  if (!('settings' in r)) throw new Error(JSON.stringify(r));
  return r.settings;
}
function problems(argv: string[], aws: Record<string, string>, folder = site): string[] {
  const r = deploySettings(argv, aws, folder);
  return 'problems' in r ? r.problems : [];
}

describe('awsEnvFrom', () => {
  it('takes the standard variables only, blank ones left out', () => {
    expect(awsEnvFrom({ AWS_ACCESS_KEY_ID: ' k ', AWS_REGION: '', AWS_PROFILE: 'p', HOME: '/root', AWS_ENDPOINT_URL: 'http://x' })).toEqual({
      AWS_ACCESS_KEY_ID: 'k',
      AWS_ENDPOINT_URL: 'http://x',
    });
  });
});

describe('deploySettings', () => {
  it('names every problem at once', () => {
    expect(problems(['Not_A_Bucket', '--concurrency', '0', '--endpoint', 'ftp://x'], { AWS_SECRET_ACCESS_KEY: 'a b' }, join(site, 'missing'))).toEqual([
      'bucket "Not_A_Bucket" is not a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)',
      '--endpoint "ftp://x" is not an http(s) URL',
      'AWS_ACCESS_KEY_ID is not set',
      'AWS_SECRET_ACCESS_KEY has white space inside it: a pasted value cut or joined wrongly?',
      '--concurrency "0" is not a whole number from 1 to 256',
      `the site folder ${join(site, 'missing')} does not exist: build the site first (npm run build), or set ERRDEX_DIST`,
    ]);
    expect(problems([], {})).toEqual([
      'the bucket is missing: npm run deploy:s3 -- <bucket>',
      'the region is missing: set AWS_REGION (or AWS_DEFAULT_REGION), or pass --region',
      'AWS_ACCESS_KEY_ID is not set',
      'AWS_SECRET_ACCESS_KEY is not set',
    ]);
  });

  it('refuses unknown options, two buckets, a prefix given twice, a dot segment, a file as the site', () => {
    expect(problems(['b1b', '--force', '-x', '--dry-run=yes', '--prefix'], KEYS)).toEqual([
      'unknown option --force',
      'unknown option -x',
      '--dry-run takes no value',
      '--prefix needs a value',
      'the region is missing: set AWS_REGION (or AWS_DEFAULT_REGION), or pass --region',
    ]);
    expect(problems(['b1b', '--keep-old-assets', ''], { ...KEYS, AWS_REGION: 'x' })).toEqual(['--keep-old-assets "" is not a number of hours from 0 to 8760']);
    expect(problems(['b1b', 'b2b'], { ...KEYS, AWS_REGION: 'x' })).toEqual(['one bucket, got 2: b1b b2b']);
    expect(problems(['s3://b1b/p', '--prefix', 'q'], { ...KEYS, AWS_REGION: 'x' })).toEqual(['the prefix is given twice: in s3://b1b/p and by --prefix']);
    expect(problems(['b1b', '--prefix', 'a/../b'], { ...KEYS, AWS_REGION: 'x' })).toEqual(['--prefix "a/../b" has a "." or ".." segment']);
    const file = join(site, 'file');
    writeFileSync(file, '');
    expect(problems(['b1b'], { ...KEYS, AWS_REGION: 'x' }, file)).toEqual([`the site folder ${file} is not a folder`]);
    expect(problems(['b1b', '--keep-old-assets', 'a day'], { ...KEYS, AWS_REGION: 'x' })).toEqual([
      '--keep-old-assets "a day" is not a number of hours from 0 to 8760',
    ]);
    expect(ok(['b1b', '--keep-old-assets', '0.5']).keepOldAssetsMs).toBe(1_800_000);
    expect(problems(['b1b', '--region', 'EU West'], KEYS)).toEqual(['--region "EU West" is not a region name (such as eu-west-1, or auto for R2)']);
  });

  it('reads the bucket, prefix, credentials and flags', () => {
    expect(ok(['s3://errdex-site/preview/', '--dry-run'])).toEqual({
      store: { bucket: 'errdex-site', region: 'eu-west-1', endpoint: null, credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' } },
      prefix: 'preview/',
      site,
      dryRun: true,
      keepOldAssetsMs: 86_400_000,
      concurrency: 16,
    });
    expect(
      ok(['errdex-site', '--prefix', '/a/b/', '--concurrency', '4'], { ...KEYS, AWS_DEFAULT_REGION: 'us-west-2', AWS_SESSION_TOKEN: 'tok' }),
    ).toMatchObject({
      store: { region: 'us-west-2', credentials: { sessionToken: 'tok' } },
      prefix: 'a/b/',
      concurrency: 4,
      dryRun: false,
    });
    expect(deploySettings(['--help'], {}, site)).toEqual({ help: true });
  });

  it('takes the endpoint from --endpoint, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, with us-east-1 as its region unless one is given', () => {
    const env = { ...KEYS, AWS_ENDPOINT_URL: 'http://general:9000', AWS_ENDPOINT_URL_S3: 'http://s3only:9000' };
    expect(ok(['b1b'], env).store).toMatchObject({ endpoint: 'http://s3only:9000', region: 'us-east-1' });
    expect(ok(['b1b', '--endpoint', 'https://acct.r2.cloudflarestorage.com', '--region', 'auto'], env).store).toMatchObject({
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      region: 'auto',
    });
    expect(ok(['b1b'], { ...KEYS, AWS_ENDPOINT_URL: 'http://general:9000', AWS_REGION: 'eu-central-1' }).store).toMatchObject({
      endpoint: 'http://general:9000',
      region: 'eu-central-1',
    });
  });
});

describe('normalisePrefix', () => {
  it('has no leading slash and one trailing slash, or is empty', () => {
    expect(normalisePrefix('')).toBe('');
    expect(normalisePrefix('/')).toBe('');
    expect(normalisePrefix('//a/b//')).toBe('a/b/');
  });
});
