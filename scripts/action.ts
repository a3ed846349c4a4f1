/**
 * The GitHub Action's entry (action.yml runs it): reads the runner's environment and the webhook
 * payload once, checks them (every problem named, exit 2), and runs src/action/run.ts with the real
 * lookup against the site and the GitHub REST API. Exit 0 when done (posted, edited or silent), 1 when
 * a call failed.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { finder } from '../src/action/find.ts';
import { gitHub } from '../src/action/github.ts';
import { payloadSchema, runAction } from '../src/action/run.ts';
import { isUrl, openSite } from '../src/lookup/site.ts';

const envSchema = z.object({
  GITHUB_EVENT_NAME: z.string({ error: 'is not set: the action runs in a workflow on issues or issue_comment events' }),
  GITHUB_EVENT_PATH: z.string({ error: 'is not set: the runner names the webhook payload file there' }),
  GITHUB_API_URL: z.url({ message: 'must be the REST API URL, such as https://api.github.com' }).default('https://api.github.com'),
  ERRDEX_ACTION_SITE: z
    .string({ error: "is not set: the deployed site's http(s) URL with its base path (the action's `site` input)" })
    .refine(isUrl, "must be the deployed site's http(s) URL with its base path (the action's `site` input)"),
  ERRDEX_ACTION_TOKEN: z.string({ error: 'is not set: give the action a token that can write issue comments (the `github-token` input)' }),
  ERRDEX_ACTION_SITE_NAME: z.string().trim().min(1).max(100).default('the error catalog'),
});

function fail(problems: string[]): never {
  console.error(`errdex action: ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(2);
}

const env = envSchema.safeParse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')));
if (!env.success) fail(env.error.issues.map((i) => `${i.path.join('.')} ${i.message}`));
const settings = env.data;

let raw: unknown;
try {
  raw = JSON.parse(readFileSync(settings.GITHUB_EVENT_PATH, 'utf8'));
} catch (e) {
  fail([`GITHUB_EVENT_PATH (${settings.GITHUB_EVENT_PATH}): ${e instanceof Error ? e.message : String(e)}`]);
}
const payload = payloadSchema.safeParse(raw);
if (!payload.success) fail(payload.error.issues.map((i) => `${settings.GITHUB_EVENT_PATH}: ${i.path.join('.') || '(payload)'} ${i.message}`));

try {
  const site = await openSite(settings.ERRDEX_ACTION_SITE);
  const outcome = await runAction({
    event: settings.GITHUB_EVENT_NAME,
    payload: payload.data,
    github: gitHub({ api: settings.GITHUB_API_URL, token: settings.ERRDEX_ACTION_TOKEN }),
    find: finder(site),
    siteName: settings.ERRDEX_ACTION_SITE_NAME,
  });
  console.log(
    outcome.kind === 'skipped'
      ? `errdex action: skipped (${outcome.reason})`
      : `errdex action: ${outcome.kind}: ${outcome.pastes} error text(s) looked up, ${outcome.pages} page(s) linked${outcome.commentId ? `, comment ${outcome.commentId}` : ''}; ${site.reads.length} files, ${site.reads.reduce((s, r) => s + r.bytes, 0)} bytes read from the site`,
  );
} catch (e) {
  console.error(`errdex action: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
