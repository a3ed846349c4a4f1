/**
 * `npm run lookup -- --site <folder|url> [--json] [paste …]`: a pasted error (the arguments, or
 * standard input) looked up in a built errdex site, as its search page would answer it
 * (src/lookup/; `--help` for the options). Exit codes: 0 found, 1 no entry, 2 usage or fetch error.
 */
import { enableCompileCache } from 'node:module';
import { join, resolve } from 'node:path';

// Stripping the types of the matcher's modules and compiling them is most of a lookup's time (about
// half a second here): kept in the build cache's compile cache (as scripts/build.ts does), a later
// lookup starts without that work. Before the modules load, so they are imported below, not above.
enableCompileCache(join(resolve(process.env.ERRDEX_CACHE_DIR?.trim() || '.errdex/cache'), 'node'));
const { runLookup } = await import('../src/lookup/cli.ts');

process.exitCode = await runLookup(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
