/**
 * `errdex <command> [options]`: one command for what the npm scripts do (bin/errdex.mjs starts it on
 * a Node that strips types, or its compiled .js once installed). Each subcommand is the script that
 * `npm run <command>` runs, with the same options, output and exit codes; `errdex <command> --help`
 * is that script's help.
 *
 * The working folder is the user's project: its errdex.config.mjs and the environment are read here,
 * once, checked (src/build/project.ts), and handed to the subcommand's process as variables.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProject, ProjectError } from '../src/build/project.ts';
import { siblingUrl } from '../src/util/sibling.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = (name: string) => fileURLToPath(siblingUrl(`./${name}.ts`, import.meta.url));
const astro = () => join(dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'bin', 'astro.mjs');

interface Command {
  about: string;
  argv: (env: NodeJS.ProcessEnv) => string[];
  env?: Record<string, string>;
  /** Reads the project's errdex.config.mjs first. */
  project?: boolean;
}

/** The subcommands: what each does, and the script (or program) it runs. */
const COMMANDS: Record<string, Command> = {
  init: { about: 'write a new project: config, sample catalog, GitHub Pages workflow', argv: () => [script('init')] },
  scan: { about: 'write a catalog from a git repository’s source (one record per raise site)', argv: () => [script('scan')] },
  validate: { about: 'check a catalog and list every problem; build nothing', argv: () => [script('validate')], project: true },
  build: { about: 'validate the catalog and build the site (or one shard of it: --shard i/n)', argv: () => [script('build')], project: true },
  merge: { about: 'build the site from the shards of a sharded build', argv: () => [script('merge')], project: true },
  preview: {
    about: 'serve the built site on http://127.0.0.1:4321/',
    // Astro's own server, as `npm run preview` runs it, on errdex's Astro project and the project's output folder.
    argv: (env) => [astro(), 'preview', '--root', root, '--outDir', resolve(env.ERRDEX_DIST?.trim() || 'dist'), '--host', '127.0.0.1', '--port', '4321'],
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    project: true,
  },
  lookup: { about: 'look a pasted error up in a built site (a folder or its URL)', argv: () => [script('lookup')] },
  'deploy:s3': { about: 'upload a built site to an S3-compatible bucket, only what changed', argv: () => [script('deploy-s3')], project: true },
};

const HELP = `Usage: errdex <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(11)} ${c.about}`)
  .join('\n')}

errdex <command> --help shows a command's options. Settings come from errdex.config.mjs in the working
folder, each overridden by its environment variable (ERRDEX_DATA, ERRDEX_DIST, ERRDEX_SITE_URL, …: README).`;

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
const help = rest.includes('--help') || rest.includes('-h');
if (name === 'preview' && help) {
  console.log('Usage: errdex preview\n\nServes the built site (dist/, or outDir in errdex.config.mjs) on http://127.0.0.1:4321/ with Astro’s preview server.');
  process.exit(0);
}
let env: NodeJS.ProcessEnv = { ...process.env, ...command.env };
if (command.project && !help) {
  try {
    env = { ...env, ...(await loadProject(process.cwd(), process.env)).env };
  } catch (e) {
    if (!(e instanceof ProjectError)) throw e;
    console.error(`${e.message}\n\nNothing was done. The settings: README, "Site settings".`);
    process.exit(2);
  }
}
const run = spawnSync(process.execPath, [...command.argv(env), ...rest], { stdio: 'inherit', env });
process.exit(run.status ?? 1);
