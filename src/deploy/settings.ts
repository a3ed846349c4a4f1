/**
 * The deploy command's settings from its arguments and the standard AWS variables, every problem
 * collected so that one run names them all. The environment is read once, by the command's entry
 * (scripts/deploy-s3.ts), and handed here as plain values; nothing below looks at process.env.
 */
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { StoreSettings } from './store.ts';

/** The variables read, as AWS's own tools name them. */
export const AWS_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_ENDPOINT_URL_S3',
  'AWS_ENDPOINT_URL',
] as const;
export type AwsEnv = Partial<Record<(typeof AWS_VARIABLES)[number], string>>;

/** The AWS variables of `env`, blank ones left out. */
export function awsEnvFrom(env: Readonly<Record<string, string | undefined>>): AwsEnv {
  const out: AwsEnv = {};
  for (const name of AWS_VARIABLES) {
    const value = env[name]?.trim();
    if (value) out[name] = value;
  }
  return out;
}

export const HELP = `npm run deploy:s3 -- <bucket> [--prefix p] [--endpoint URL] [--region r] [--dry-run]

Uploads a built site folder (ERRDEX_DIST, default dist/) to an S3-compatible bucket: only the files
whose content or headers changed, each with its Content-Type and the Cache-Control of the site's
_headers rules; then removes the objects the site no longer has.

  <bucket>            the bucket's name (or s3://bucket/prefix)
  --prefix <p>        put the site under this key prefix (default: the bucket's root)
  --endpoint <URL>    an S3-compatible endpoint (R2, MinIO, B2, …); default AWS_ENDPOINT_URL_S3,
                      AWS_ENDPOINT_URL, else AWS S3 itself
  --region <r>        default AWS_REGION, AWS_DEFAULT_REGION; us-east-1 with an endpoint of one's own
  --dry-run           list what would be uploaded and removed; write nothing
  --keep-old-assets <hours>
                      keep content-named files the site replaced this long, for pages loaded
                      before the deploy (default 24; 0 removes them at once)
  --concurrency <n>   uploads at a time (default 16)
  -h, --help          this text

Credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, for temporary ones, AWS_SESSION_TOKEN.
Exit codes: 0 deployed, 1 the store refused or failed, 2 usage or settings.`;

export interface DeploySettings {
  store: StoreSettings;
  prefix: string;
  site: string;
  dryRun: boolean;
  keepOldAssetsMs: number;
  concurrency: number;
}

// S3's bucket naming rules (R2, MinIO and B2 use the same or looser ones).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9][a-z0-9-]*$/;

/** '' or 'a/b/': no leading slash, one trailing slash. */
export function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

export type SettingsResult = { help: true } | { settings: DeploySettings } | { problems: string[] };

/** `site`: the folder to deploy (ERRDEX_DIST or dist/), as the entry read it. */
export function deploySettings(argv: readonly string[], aws: AwsEnv, site: string): SettingsResult {
  const problems: string[] = [];
  const args = parse(argv, problems);
  if (args.values.help) return { help: true };

  let bucket = args.positionals[0] ?? '';
  let prefix = args.values.prefix ?? '';
  if (args.positionals.length > 1) problems.push(`one bucket, got ${args.positionals.length}: ${args.positionals.join(' ')}`);
  const url = /^s3:\/\/([^/]*)\/?(.*)$/.exec(bucket);
  if (url) {
    bucket = url[1]!;
    if (url[2] && args.values.prefix !== undefined) problems.push(`the prefix is given twice: in ${args.positionals[0]} and by --prefix`);
    else if (url[2]) prefix = url[2];
  }
  if (!bucket) problems.push('the bucket is missing: npm run deploy:s3 -- <bucket>');
  else if (!BUCKET.test(bucket)) problems.push(`bucket ${JSON.stringify(bucket)} is not a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)`);
  if (/(^|\/)\.\.?(\/|$)/.test(prefix)) problems.push(`--prefix ${JSON.stringify(prefix)} has a "." or ".." segment`);

  const endpointFrom =
    args.values.endpoint !== undefined ? '--endpoint' : aws.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : aws.AWS_ENDPOINT_URL ? 'AWS_ENDPOINT_URL' : null;
  const endpoint = args.values.endpoint ?? aws.AWS_ENDPOINT_URL_S3 ?? aws.AWS_ENDPOINT_URL ?? null;
  if (endpoint !== null) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(endpoint).protocol);
    } catch {}
    if (!ok) problems.push(`${endpointFrom} ${JSON.stringify(endpoint)} is not an http(s) URL`);
  }

  const regionFrom = args.values.region !== undefined ? '--region' : aws.AWS_REGION ? 'AWS_REGION' : aws.AWS_DEFAULT_REGION ? 'AWS_DEFAULT_REGION' : null;
  const region = args.values.region ?? aws.AWS_REGION ?? aws.AWS_DEFAULT_REGION ?? (endpoint !== null ? 'us-east-1' : null);
  if (region === null) problems.push('the region is missing: set AWS_REGION (or AWS_DEFAULT_REGION), or pass --region');
  else if (!REGION.test(region)) problems.push(`${regionFrom} ${JSON.stringify(region)} is not a region name (such as eu-west-1, or auto for R2)`);

  const keyId = aws.AWS_ACCESS_KEY_ID;
  const secret = aws.AWS_SECRET_ACCESS_KEY;
  if (!keyId) problems.push('AWS_ACCESS_KEY_ID is not set');
  if (!secret) problems.push('AWS_SECRET_ACCESS_KEY is not set');
  for (const [name, value] of [
    ['AWS_ACCESS_KEY_ID', keyId],
    ['AWS_SECRET_ACCESS_KEY', secret],
    ['AWS_SESSION_TOKEN', aws.AWS_SESSION_TOKEN],
  ] as const) {
    if (value && /\s/.test(value)) problems.push(`${name} has white space inside it: a pasted value cut or joined wrongly?`);
  }

  const concurrency = Number(args.values.concurrency ?? '16');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
    problems.push(`--concurrency ${JSON.stringify(args.values.concurrency)} is not a whole number from 1 to 256`);

  const keepHours = Number(args.values['keep-old-assets'] ?? '24');
  if (!/^\d+(\.\d+)?$/.test(args.values['keep-old-assets'] ?? '24') || keepHours > 8760)
    problems.push(`--keep-old-assets ${JSON.stringify(args.values['keep-old-assets'])} is not a number of hours from 0 to 8760`);

  if (!existsSync(site)) problems.push(`the site folder ${site} does not exist: build the site first (npm run build), or set ERRDEX_DIST`);
  else if (!statSync(site).isDirectory()) problems.push(`the site folder ${site} is not a folder`);

  if (problems.length > 0) return { problems };
  return {
    settings: {
      store: {
        bucket,
        region: region!,
        endpoint,
        credentials: { accessKeyId: keyId!, secretAccessKey: secret!, ...(aws.AWS_SESSION_TOKEN ? { sessionToken: aws.AWS_SESSION_TOKEN } : {}) },
      },
      prefix: normalisePrefix(prefix),
      site,
      dryRun: args.values['dry-run'] === true,
      keepOldAssetsMs: keepHours * 3_600_000,
      concurrency,
    },
  };
}

const OPTIONS = {
  prefix: { type: 'string' },
  endpoint: { type: 'string' },
  region: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'keep-old-assets': { type: 'string' },
  concurrency: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Args {
  values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };
  positionals: string[];
}

/** The arguments, read leniently so that a wrong option is one problem among the others, not the only one. */
function parse(argv: readonly string[], problems: string[]): Args {
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: OPTIONS });
  const out: Record<string, string | boolean> = {};
  for (const [name, value] of Object.entries(values)) {
    const spec = (OPTIONS as Record<string, { type: string }>)[name];
    const flag = name.length === 1 ? `-${name}` : `--${name}`;
    if (!spec) problems.push(`unknown option ${flag}`);
    else if (spec.type === 'string' && typeof value !== 'string') problems.push(`${flag} needs a value`);
    else if (spec.type === 'boolean' && typeof value !== 'boolean') problems.push(`${flag} takes no value`);
    else if (value !== undefined) out[name] = value as string | boolean;
  }
  return { values: out as Args['values'], positionals };
}
