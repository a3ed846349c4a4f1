/**
 * `npm run merge -- <shard folders…> [options]`: the site built from the shards that
 * `npm run build -- --shard i/n` wrote (src/build/build.ts, runMerge). This file reads the command line.
 */
import { resolve } from 'node:path';
import { BuildFailure, runMerge } from '../src/build/build.ts';
import { readCommandLine, useCompileCache } from '../src/build/command-line.ts';
import { MERGE_HELP } from '../src/build/help.ts';

let command;
try {
  command = readCommandLine(process.argv.slice(2), process.env, process.stdout, 'merge');
} catch (e) {
  console.error(`${(e as Error).message}\n\nNothing was built. See npm run merge -- --help.`);
  process.exit(2);
}
if (command.help) {
  console.log(MERGE_HELP);
  process.exit(0);
}
const compiled = useCompileCache(command.settings.cacheDir);
if (compiled) process.env.NODE_COMPILE_CACHE = compiled;

try {
  await runMerge(command.settings, command.positionals.map((dir) => resolve(dir)));
} catch (e) {
  if (!(e instanceof BuildFailure)) throw e;
  console.error(e.message);
  process.exit(1);
}
