/**
 * `npm run build [-- options]`: validate, derive, highlight, render and index the catalog, then
 * publish the site. The build itself is src/build/build.ts: a plan (src/build/plan.ts) run as a
 * pipeline of stages (src/build/stages/). This file reads the command line.
 */
import { parseArgs } from 'node:util';
import { BuildFailure, runBuild } from '../src/build/build.ts';
import { parseHostBudget, parseMaxIndexFiles } from '../src/build/hosts.ts';
import { parseMaxFragments } from '../src/build/pagefind-bundle.ts';
import { buildSettings } from '../src/build/settings.ts';

const HELP = `Usage: npm run build [-- options]

Options:
  --skip-invalid[=FILE]   build the valid records; list every skipped one and why in FILE
                          (default skipped-records.json)
  --strict                warnings (records built with an uncertainty shown) fail the build too
  --no-cache              highlight and render everything, ignoring the build cache (and refreshing it)
  --report=FILE           write each stage's time, memory and output as JSON (npm run bench reads it)
  --no-ledger-update      read the URL ledger but do not write it (preview builds, tests)
  --max-fragments=N       at most N Pagefind fragment files (Pagefind bundles them)
  --max-index-files=N     at most N message index files (larger files: more bytes per paste)
  --host=NAME             check the site against a host's limits before publishing: github-pages,
                          cloudflare-pages (the Free plan), netlify, static (no limits but those given)
  --host-limit NAME=N     set one of the host's limits (repeatable): files, bytes, file-bytes,
                          folder-files, redirects (e.g. --host-limit files=100000 for a paid plan)
  --trim-redirects        keep only the rules of _redirects the host applies (its HTML redirect pages
                          redirect the others)
  --wait-for-lock         while another build writes to the output folder, wait (default: fail at once)
  --allow-mass-removal    publish even when more than half the published error pages would go
  --help                  this text

Environment: ERRDEX_DATA (catalog folder, default data/), ERRDEX_DIST (output folder, default dist/),
ERRDEX_CACHE_DIR (build cache, default .errdex/cache), ERRDEX_WORKERS (render processes and highlight
threads at a time; default one per core), ERRDEX_PARTITION_RECORDS (records per render process above one
partition, default 50,000), ERRDEX_EARLY_HIGHLIGHT_BYTES (catalog files above this size are highlighted
from the build's start, default 128 MiB). Site settings: errdex.config.mjs.`;

function fail(message: string): never {
  console.error(`${message}\n\nNothing was built. See npm run build -- --help.`);
  process.exit(2);
}

// `--skip-invalid` may stand alone: parseArgs wants a value for a string option.
const argv = process.argv.slice(2).map((a) => (a === '--skip-invalid' ? '--skip-invalid=skipped-records.json' : a));
let values;
try {
  ({ values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'skip-invalid': { type: 'string' },
      strict: { type: 'boolean', default: false },
      'no-cache': { type: 'boolean', default: false },
      report: { type: 'string' },
      'no-ledger-update': { type: 'boolean', default: false },
      'max-fragments': { type: 'string' },
      'max-index-files': { type: 'string' },
      host: { type: 'string' },
      'host-limit': { type: 'string', multiple: true },
      'trim-redirects': { type: 'boolean', default: false },
      'wait-for-lock': { type: 'boolean', default: false },
      'allow-mass-removal': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (e) {
  // "Option '--x <value>' argument missing" (last) or "… is ambiguous" (an option follows): said as the others are.
  const missing = /^Option '(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec((e as Error).message);
  fail(missing ? `${missing[1]} needs a value` : (e as Error).message);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

let settings;
try {
  const maxFragments = parseMaxFragments(values['max-fragments'] ?? undefined);
  const maxIndexFiles = parseMaxIndexFiles(values['max-index-files']);
  const host = parseHostBudget(values.host, values['host-limit'] ?? [], values['trim-redirects']);
  const flags = { skipReport: values['skip-invalid'] ?? null, strict: values.strict, noCache: values['no-cache'], noLedgerUpdate: values['no-ledger-update'], report: values.report ?? null, maxFragments, maxIndexFiles, host };
  settings = { ...buildSettings(flags), waitForLock: values['wait-for-lock'], allowMassRemoval: values['allow-mass-removal'] };
} catch (e) {
  fail((e as Error).message);
}

try {
  await runBuild(settings);
} catch (e) {
  if (!(e instanceof BuildFailure)) throw e;
  console.error(e.message);
  process.exit(1);
}
