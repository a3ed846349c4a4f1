/**
 * `errdex <command> [options]`: one command for what the npm scripts do (bin/errdex.mjs starts it on
 * a Node that strips types). Each subcommand is the script that `npm run <command>` runs, with the
 * same options, output and exit codes; `errdex <command> --help` is that script's help.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The subcommands: what each does, and the script (or program) it runs. */
const COMMANDS: Record<string, { about: string; argv: () => string[]; env?: Record<string, string> }> = {
  scan: { about: 'write a catalog from a git repository’s source (one record per raise site)', argv: () => [join(root, 'scripts/scan.ts')] },
  validate: { about: 'check a catalog and list every problem; build nothing', argv: () => [join(root, 'scripts/validate.ts')] },
  build: { about: 'validate the catalog and build the site (or one shard of it: --shard i/n)', argv: () => [join(root, 'scripts/build.ts')] },
  merge: { about: 'build the site from the shards of a sharded build', argv: () => [join(root, 'scripts/merge.ts')] },
  preview: {
    about: 'serve the built site on http://127.0.0.1:4321/',
    // Astro's own server, as `npm run preview` runs it.
    argv: () => [join(dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'bin', 'astro.mjs'), 'preview', '--host', '127.0.0.1', '--port', '4321'],
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
  },
  lookup: { about: 'look a pasted error up in a built site (a folder or its URL)', argv: () => [join(root, 'scripts/lookup.ts')] },
  'deploy:s3': { about: 'upload a built site to an S3-compatible bucket, only what changed', argv: () => [join(root, 'scripts/deploy-s3.ts')] },
};

const HELP = `Usage: errdex <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(11)} ${c.about}`)
  .join('\n')}

errdex <command> --help shows a command's options. Settings come from the environment (ERRDEX_DATA,
ERRDEX_DIST, …: README) and errdex.config.mjs.`;

const [name, ...rest] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
  console.log(HELP);
  process.exit(name === undefined ? 2 : 0);
}
const command = COMMANDS[name];
if (!command) {
  console.error(`errdex: no command "${name}".\n\n${HELP}`);
  process.exit(2);
}
if (name === 'preview' && (rest.includes('--help') || rest.includes('-h'))) {
  console.log('Usage: errdex preview\n\nServes the built site (dist/) on http://127.0.0.1:4321/ with Astro’s preview server.');
  process.exit(0);
}
const run = spawnSync(process.execPath, [...command.argv(), ...rest], { stdio: 'inherit', env: { ...process.env, ...command.env } });
process.exit(run.status ?? 1);
