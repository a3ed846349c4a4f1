/**
 * The plain baseline of `npm run bench`: a throwaway minimal Astro 7 project, one page per record
 * with Shiki's `<Code>` for the source excerpt (default theme, as a plain site would have it), built
 * the ordinary way and indexed with the Pagefind CLI. errdex's times are reported as ratios of it.
 *
 * The records are handed over pre-read (one JSON line per page, no validation), so the baseline
 * does less work than errdex: its pages carry one highlighted block where errdex's carry up to five.
 */
import { mkdirSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CatalogEntry } from '../../src/catalog/catalog.ts';
import { languageForPath } from '../../src/highlight/languages.ts';

export const BASELINE_DATA = 'records.jsonl';

const CONFIG = `import { defineConfig } from 'astro/config';
export default defineConfig({ output: 'static', build: { format: 'directory' }, devToolbar: { enabled: false } });
`;

const page = (dataFile: string) => `---
import { readFileSync } from 'node:fs';
import { Code } from 'astro:components';

export function getStaticPaths() {
  const lines = readFileSync(${JSON.stringify(dataFile)}, 'utf8').split('\\n').filter(Boolean);
  return lines.map((line) => {
    const r = JSON.parse(line);
    return { params: { path: r.path }, props: { r } };
  });
}
const { r } = Astro.props;
---
<html lang="en">
  <head><meta charset="utf-8" /><title>{r.title}</title><meta name="description" content={r.documentation} /></head>
  <body>
    <main>
      <h1>{r.title}</h1>
      <p>{r.repo} · {r.severity}</p>
      <h2>What it means</h2><p>{r.documentation}</p>
      <h2>Source</h2><p>{r.filePath}:{r.lineNumber}</p>
      {r.code && <Code code={r.code} lang={r.lang} />}
      <h2>Solutions</h2><ol>{r.solutions.map((s) => <li>{s}</li>)}</ol>
      <h2>When it happens</h2><p>{r.triggerScenarios}</p><p>{r.commonSituations}</p>
      <ul>{r.tags.map((t) => <li>{t}</li>)}</ul>
    </main>
  </body>
</html>
`;

/** Writes the baseline project for these records into `dir` (emptied first). */
export async function writeBaselineProject(dir: string, entries: readonly CatalogEntry[]): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src/pages'), { recursive: true });
  writeFileSync(join(dir, 'astro.config.mjs'), CONFIG);
  writeFileSync(join(dir, 'src/pages/[...path].astro'), page(resolve(dir, BASELINE_DATA)));
  const out = createWriteStream(join(dir, BASELINE_DATA));
  for (const { record: r } of entries) {
    const line = JSON.stringify({
      path: `${r.repo}/${r.slug}`,
      title: r.errorMessage,
      repo: r.repo,
      severity: r.severity,
      documentation: r.documentation,
      filePath: r.filePath,
      lineNumber: r.lineNumber,
      code: r.sourceCode,
      lang: languageForPath(r.filePath) === 'text' ? 'plaintext' : languageForPath(r.filePath),
      solutions: r.solutions,
      triggerScenarios: r.triggerScenarios,
      commonSituations: r.commonSituations,
      tags: r.tags,
    });
    if (!out.write(`${line}\n`)) await new Promise<void>((done) => out.once('drain', () => done()));
  }
  await new Promise<void>((done) => out.end(done));
}
