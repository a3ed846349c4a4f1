/**
 * `npm run validate`: check the catalog (ERRDEX_DATA or data/) and list every problem, errors and
 * warnings (among them, patterns a backtracking engine may take long on: src/catalog/redos.ts).
 * Exit code 0 when no record has an error (with --strict: nor a warning), 1 otherwise.
 *
 *   --strict           warnings fail too
 *   --format=github    GitHub Actions annotations (::error / ::warning lines) instead of the text report
 *   --report=FILE      also write the machine-readable report (JSON) to FILE
 *   --redos            analyse every pattern for backtracking engines and write the catalog's redos.json,
 *                      which the build reads (without it, the verdicts come from that file as it is)
 */
import { catalogReport, loadCatalog } from '../src/catalog/catalog.ts';
import { catalogPath, displayPath } from '../src/catalog/load.ts';
import { addBacktrackingWarnings, analysePatterns, readVerdicts, redosCacheFile, redosFile, writeVerdicts } from '../src/catalog/redos.ts';
import { buildDatasetVersion } from '../src/catalog/validate.ts';
import { buildCacheDir } from '../src/highlight/cache.ts';
import { githubAnnotations, reportFileText, summaryLine } from '../src/catalog/report.ts';
import { writeFileAtomic } from '../src/util/files.ts';
import { scriptOptions } from '../src/util/script-options.ts';

const HELP = `Usage: npm run validate [-- options]

Checks the catalog (ERRDEX_DATA, default data/) and lists every problem: file, line, field, what is
wrong. Builds nothing. Exit code 0 when no record has an error (with --strict: nor a warning), 1
otherwise, 2 for a wrong option.

Options:
  --strict           warnings fail too
  --format=github    GitHub Actions annotations (::error / ::warning lines) instead of the text report
  --report=FILE      also write the machine-readable report (JSON) to FILE
  --redos            analyse every pattern for backtracking engines and write the catalog's redos.json
  --help             this text`;

const { values } = scriptOptions(
  { strict: { type: 'boolean', default: false }, redos: { type: 'boolean', default: false }, format: { type: 'string', default: 'text' }, report: { type: 'string' } },
  HELP,
);
if (values.format !== 'text' && values.format !== 'github') {
  console.error(`Unknown --format=${values.format}: use text or github.`);
  process.exit(2);
}

// The environment is read here, once: the catalog folder, the build cache, SOURCE_DATE_EPOCH.
const env = process.env;
const root = catalogPath(env);
const started = performance.now();
const catalog = loadCatalog(root, { datasetVersion: buildDatasetVersion(env) });
let verdicts = readVerdicts(redosFile(root));
if (values.redos) {
  const patterns = catalog.entries.map((e) => e.record.messagePattern);
  const progress = (done: number, todo: number) => {
    if (done % 25 === 0 || done === todo) process.stderr.write(`ReDoS analysis: ${done}/${todo} new patterns\n`);
  };
  ({ verdicts } = await analysePatterns(patterns, { cacheFile: redosCacheFile(buildCacheDir(env)), onVerdict: progress }));
  writeVerdicts(redosFile(root), verdicts);
}
const redos = addBacktrackingWarnings(catalog, verdicts);
const seconds = ((performance.now() - started) / 1000).toFixed(2);
if (values.report) writeFileAtomic(values.report, reportFileText(catalog, displayPath(root)));
const failed = catalog.problems.length > 0 || (values.strict && catalog.warnings.length > 0);
if (values.format === 'github') {
  const annotations = githubAnnotations([...catalog.problems, ...catalog.warnings]);
  if (annotations) console.log(annotations);
} else if (catalog.problems.length + catalog.warnings.length > 0) {
  (failed ? console.error : console.log)(catalogReport(catalog));
}
const verdict = failed ? (catalog.problems.length > 0 ? 'errors' : 'warnings, which --strict makes fail') : 'valid';
const unchecked = redos.unchecked > 0 ? ` ${redos.unchecked} patterns have no ReDoS verdict in ${displayPath(redosFile(root))}: npm run validate -- --redos.` : '';
(failed ? console.error : console.log)(`${displayPath(root)}: ${summaryLine(catalog)}; ${verdict} (${seconds} s).${unchecked}`);
process.exit(failed ? 1 : 0);
