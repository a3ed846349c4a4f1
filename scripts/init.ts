/**
 * `errdex init <folder> [--force]`: a new project that builds an errdex site: package.json depending
 * on errdex, errdex.config.mjs, a sample catalog (the three records of errdex's own data/), a place for
 * overrides (src/), the GitHub Pages workflow and a README. Exit code 0 when written, 2 for a wrong
 * command line or a folder that is not empty (without --force), 1 when a file cannot be written.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectFiles } from '../src/build/starter.ts';
import { scriptOptions } from '../src/util/script-options.ts';

const HELP = `Usage: errdex init <folder> [--force]

Writes a new errdex project into <folder> (made when missing): package.json depending on errdex,
errdex.config.mjs, a sample catalog in catalog/, src/custom.css, the GitHub Pages workflow
(.github/workflows/pages.yml) and a README. Then: cd <folder> && npm install && npm run build.

Options:
  --force   write into a folder that is not empty (files of the same name are replaced)
  --help    this text

Exit code 0 when written, 2 for a wrong command line or a folder that is not empty, 1 when a file
cannot be written.`;

const { values, positionals } = scriptOptions({ force: { type: 'boolean', default: false } }, HELP, { positionals: true });
if (positionals.length !== 1) {
  console.error(`errdex init needs one folder${positionals.length > 1 ? `, not ${positionals.length}` : ''}.\n\n${HELP}`);
  process.exit(2);
}
const folder = resolve(positionals[0]!);
if (existsSync(folder)) {
  if (!statSync(folder).isDirectory()) {
    console.error(`errdex init: ${folder} is a file, not a folder.`);
    process.exit(2);
  }
  if (readdirSync(folder).length > 0 && !values.force) {
    console.error(`errdex init: ${folder} is not empty. Choose an empty or new folder, or pass --force to write into it.`);
    process.exit(2);
  }
}

const pkgRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const version = (JSON.parse(readFileSync(join(pkgRoot, 'package.json'), 'utf8')) as { version: string }).version;
try {
  const files = projectFiles({ name: basename(folder), version });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  // The sample catalog: errdex's own three records, their failure classes and the notice of where their code comes from.
  mkdirSync(join(folder, 'catalog'), { recursive: true });
  for (const f of ['vllm-project-vllm.jsonl', 'classes.json', 'README.md']) copyFileSync(join(pkgRoot, 'data', f), join(folder, 'catalog', f));
} catch (e) {
  console.error(`errdex init: ${(e as Error).message}`);
  process.exit(1);
}
console.log(`Wrote an errdex project in ${folder}. Next:\n\n  cd ${positionals[0]}\n  npm install\n  npm run build     # the site, in dist/\n  npm run preview   # served on http://127.0.0.1:4321/`);
