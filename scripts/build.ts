/**
 * `npm run build [-- options]`: validate, derive, highlight, render and index the catalog, then
 * publish the site; with `--shard i/n`, build one shard for `npm run merge`. The build itself is
 * src/build/build.ts: a plan (src/build/plan.ts) run as a pipeline of stages (src/build/stages/).
 * This file reads the command line (src/build/command-line.ts).
 */
import { BuildFailure, runBuild } from '../src/build/build.ts';
import { readCommandLine, useCompileCache } from '../src/build/command-line.ts';
import { BUILD_HELP as HELP } from '../src/build/help.ts';

let command;
try {
  command = readCommandLine(process.argv.slice(2), process.env, process.stdout, 'build');
} catch (e) {
  console.error(`${(e as Error).message}\n\nNothing was built. See npm run build -- --help.`);
  process.exit(2);
}
if (command.help) {
  console.log(HELP);
  process.exit(0);
}
const compiled = useCompileCache(command.settings.cacheDir);
if (compiled) process.env.NODE_COMPILE_CACHE = compiled;

try {
  await runBuild(command.settings);
} catch (e) {
  if (!(e instanceof BuildFailure)) throw e;
  console.error(e.message);
  process.exit(1);
}
