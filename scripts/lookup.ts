/**
 * `npm run lookup -- --site <folder|url> [--json] [paste …]`: a pasted error (the arguments, or
 * standard input) looked up in a built errdex site, as its search page would answer it
 * (src/lookup/; `--help` for the options). Exit codes: 0 found, 1 no entry, 2 usage or fetch error.
 */
import { runLookup } from '../src/lookup/cli.ts';

process.exitCode = await runLookup(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
