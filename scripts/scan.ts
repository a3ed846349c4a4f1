/**
 * `npm run scan -- <path>`: an errdex catalog from a git repository's committed source, one record
 * per raise site (src/scan/). Then `ERRDEX_DATA=<out> npm run build`.
 */
import { writeFileSync } from 'node:fs';
import { scriptOptions } from '../src/util/script-options.ts';
import { history, historyLines, type HistoryResult } from '../src/scan/history.ts';
import { reasonLegend } from '../src/scan/report.ts';
import { runHistory, runScan } from '../src/scan/run.ts';

const HELP = `Usage: npm run scan -- <path> [options]

Writes one errdex record per raise site found in the committed tree of the git repository at <path>
(a work tree or a bare clone): Python, TypeScript/JavaScript, Rust, Go, Java, Kotlin, C#, Ruby and PHP.

Options:
  --repo owner/name   the GitHub repository (default: from the "origin" remote)
  --rev <commit>      the commit to read (default: HEAD)
  --out <path>        a folder (the file is {owner}-{name}.jsonl inside) or a .jsonl file (default: catalog/)
  --merge <catalog>   an earlier catalog (file or folder): keep its ids, person-written prose and URL ledger
  --skipped <file>    write every skipped raise site (path:line reason) to a file, to check by hand
  --history <range>   when each site was introduced, had its message changed, moved or was removed,
                      over a range (A..B: A and each first-parent commit after it) or the tags HEAD
                      contains, oldest first (--history --tags). With --out: the catalog of the last
                      revision plus the removed sites, each record with its history (--merge as for
                      a scan); without: only the report, to --history-out
  --history-out <f>   the history as JSON (default without --out: {owner}-{name}.history.json here)
  --quiet             no progress line
  --help              this text

Then: ERRDEX_DATA=<out> npm run build

Skip reasons in the summary:
${reasonLegend().join('\n')}
`;

// `--history --tags` reads as the history of every tag.
const argv = process.argv.slice(2).flatMap((a, i, all) => (a === '--tags' && all[i - 1] === '--history' ? [] : a === '--history' && all[i + 1] === '--tags' ? ['--history=tags'] : [a]));

const args = scriptOptions(
  {
    history: { type: 'string' },
    'history-out': { type: 'string' },
    repo: { type: 'string' },
    rev: { type: 'string' },
    out: { type: 'string' },
    merge: { type: 'string' },
    skipped: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
  HELP,
  { args: argv, positionals: true, label: 'scan: ' },
);
if (args.positionals.length !== 1) {
  console.error(`scan: give exactly one repository path (got ${args.positionals.length}).\n\n${HELP}`);
  process.exit(2);
}

const showProgress = !args.values.quiet && process.stderr.isTTY;
let lastShown = 0;
const writeHistory = (h: HistoryResult, file: string) => {
  // The records are the catalog's business, not the report's.
  const { records: _, ...report } = h;
  writeFileSync(file, `${JSON.stringify(report, null, 1)}\n`);
  console.log(`wrote the history of ${h.sites.length} sites to ${file}`);
};
if (args.values.history && args.values.merge && !args.values.out) {
  console.error('scan: --merge with --history needs --out: the catalog it writes (without --out, --history writes only its report).');
  process.exit(2);
}
if (args.values.history) {
  try {
    const spec = args.values.history;
    const onRevision = args.values.quiet ? undefined : (r: { name: string }, i: number, n: number) => console.error(`history: ${i + 1}/${n} ${r.name}`);
    if (args.values.out) {
      const { history: h } = await runHistory({ dir: args.positionals[0]!, spec, repo: args.values.repo, out: args.values.out, merge: args.values.merge, onRevision, log: (line) => console.log(line) });
      if (args.values['history-out']) writeHistory(h, args.values['history-out']);
    } else {
      const h = await history({ dir: args.positionals[0]!, spec, repo: args.values.repo, onRevision });
      for (const line of historyLines(h)) console.log(line);
      writeHistory(h, args.values['history-out'] ?? `${h.repo.replace('/', '-')}.history.json`);
    }
    process.exit(0);
  } catch (e) {
    console.error(`scan: ${(e as Error).message}`);
    process.exit(1);
  }
}
try {
  const result = await runScan({
    dir: args.positionals[0]!,
    repo: args.values.repo,
    rev: args.values.rev,
    out: args.values.out ?? 'catalog',
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
