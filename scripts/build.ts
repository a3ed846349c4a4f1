/**
 * `npm run build [-- options]`: validate, derive, highlight, render and index the catalog, then
 * publish the site. The build itself is src/build/build.ts: a plan (src/build/plan.ts) run as a
 * pipeline of stages (src/build/stages/). This file reads the command line.
 */
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BuildFailure, runBuild } from '../src/build/build.ts';
import { parseHostBudget, parseMaxIndexFiles } from '../src/build/hosts.ts';
import { parseMaxFragments } from '../src/build/pagefind-bundle.ts';
import { BUILD_HELP as HELP } from '../src/build/help.ts';
import { buildSettings } from '../src/build/settings.ts';

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
  // The environment is read here, once, and handed down (settings.ts).
  settings = { ...buildSettings(flags, process.env, process.stdout), waitForLock: values['wait-for-lock'], allowMassRemoval: values['allow-mass-removal'] };
} catch (e) {
  fail((e as Error).message);
}

// Each of the build's processes strips the types of the same modules and compiles them: kept in the
// build cache (Node's compile cache, by content), a child process after the first build starts without
// that work, a second or so of CPU each. Children find it by the variable, as Node documents.
const compiled = enableCompileCache(join(settings.cacheDir, 'node'));
if (compiled.directory) process.env.NODE_COMPILE_CACHE = compiled.directory;

try {
  await runBuild(settings);
} catch (e) {
  if (!(e instanceof BuildFailure)) throw e;
  console.error(e.message);
  process.exit(1);
}
