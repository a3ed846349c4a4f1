/**
 * `npm run scan -- <path>`: an errdex catalog from a git repository's committed source, one record
 * per raise site (src/scan/). Then `ERRDEX_DATA=<out> npm run build`.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { reasonLegend } from '../src/scan/report.ts';
import { runScan } from '../src/scan/run.ts';

const HELP = `Usage: npm run scan -- <path> [options]

Writes one errdex record per raise site found in the committed tree of the git repository at <path>
(a work tree or a bare clone): Python, TypeScript/JavaScript, Rust and Go.

Options:
  --repo owner/name   the GitHub repository (default: from the "origin" remote)
  --rev <commit>      the commit to read (default: HEAD)
  --out <path>        a folder (the file is {owner}-{name}.jsonl inside) or a .jsonl file (default: catalog/)
  --merge <catalog>   an earlier catalog (file or folder): keep its ids, person-written prose and URL ledger
  --skipped <file>    write every skipped raise site (path:line reason) to a file, to check by hand
  --quiet             no progress line
  --help              this text

Then: ERRDEX_DATA=<out> npm run build

Skip reasons in the summary:
${reasonLegend().join('\n')}
`;

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    strict: true,
    options: {
      repo: { type: 'string' },
      rev: { type: 'string' },
      out: { type: 'string', default: 'catalog' },
      merge: { type: 'string' },
      skipped: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
} catch (e) {
  console.error(`scan: ${(e as Error).message}\n\n${HELP}`);
  process.exit(2);
}
if (args.values.help) {
  console.log(HELP);
  process.exit(0);
}
if (args.positionals.length !== 1) {
  console.error(`scan: give exactly one repository path (got ${args.positionals.length}).\n\n${HELP}`);
  process.exit(2);
}

const showProgress = !args.values.quiet && process.stderr.isTTY;
let lastShown = 0;
try {
  const result = await runScan({
    dir: args.positionals[0]!,
    repo: args.values.repo,
    rev: args.values.rev,
    out: args.values.out,
    merge: args.values.merge,
    log: (line) => console.log(line),
    progress: args.values.quiet
      ? undefined
      : (done, total) => {
          const now = performance.now();
          if (done !== total && now - lastShown < 1000) return;
          lastShown = now;
          const line = `scan: ${done}/${total} files`;
          if (showProgress) process.stderr.write(`\r${line}${done === total ? '\n' : ''}`);
          else if (done === total || done % 500 === 0) console.error(line);
        },
  });
  if (args.values.skipped) {
    writeFileSync(args.values.skipped, result.summary.skippedSites.map((l) => `${l}\n`).join(''));
    console.log(`wrote ${result.summary.skippedSites.length} skipped sites to ${args.values.skipped}`);
  }
} catch (e) {
  console.error(`scan: ${(e as Error).message}`);
  process.exit(1);
}
