/**
 * `npm run validate`: check the catalog (ERRDEX_DATA or data/) and list every problem.
 * Exit code 0 when the catalog is valid, 1 when it has problems.
 */
import { catalogReport, loadCatalog } from '../src/catalog/catalog.ts';
import { catalogPath, displayPath } from '../src/catalog/load.ts';

const root = catalogPath();
const started = performance.now();
const catalog = loadCatalog(root);
const seconds = ((performance.now() - started) / 1000).toFixed(2);
if (catalog.problems.length > 0) {
  console.error(catalogReport(catalog));
  process.exit(1);
}
console.log(`${displayPath(root)}: ${catalog.entries.length} records valid (${seconds} s).`);
