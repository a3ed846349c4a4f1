/**
 * Messages held in another file's constant: `from .messages import NOT_FOUND` (Python) or
 * `import { NOT_FOUND } from './messages'` (JavaScript/TypeScript), then `raise KeyError(NOT_FOUND)`.
 * A reader sees the import but not the other file; the scan has read every file, so it resolves
 * the site here: the files the import can name (by the language's own rules, among the files of the
 * tree), and the constant's value there. Only a value every candidate file agrees on is taken.
 */
import { dirname, posix } from 'node:path';
import type { MessagePart } from './message.ts';
import type { ImportedMessage } from './site.ts';

const JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** The tree's files an import in `from` (a path in the tree) can name. */
export function importedFiles(from: string, m: ImportedMessage, paths: ReadonlySet<string>): string[] {
  const exists = (p: string) => paths.has(p);
  if (m.language === 'javascript') {
    // Only paths: a bare specifier names a package, not a file of this tree.
    if (!m.spec.startsWith('./') && !m.spec.startsWith('../')) return [];
    const base = posix.normalize(posix.join(dirname(from), m.spec));
    // TypeScript's ESM imports name the emitted `.js` of a `.ts` source.
    const stem = base.replace(/\.(?:m|c)?js$/, '');
    const tries = [base, ...JS_EXTENSIONS.map((e) => `${stem}${e}`), ...JS_EXTENSIONS.map((e) => `${base}/index${e}`)];
    return [...new Set(tries)].filter(exists).slice(0, 1);
  }
  // Python: `.mod` is relative to the importing file's package, each further dot one package up;
  // `pkg.mod` is absolute, found wherever the tree holds `pkg/mod.py` (a src/ layout, several roots).
  const dots = /^\.*/.exec(m.spec)![0].length;
  const rest = m.spec.slice(dots).split('.').filter(Boolean);
  if (dots > 0) {
    let dir = dirname(from);
    for (let i = 1; i < dots; i++) dir = dirname(dir);
    const mod = posix.join(dir === '.' ? '' : dir, ...rest);
    return [`${mod}.py`, `${mod}/__init__.py`].filter(exists);
  }
  if (rest.length === 0) return [];
  const tail = rest.join('/');
  return [...paths].filter((p) => p === `${tail}.py` || p.endsWith(`/${tail}.py`) || p === `${tail}/__init__.py` || p.endsWith(`/${tail}/__init__.py`));
}

/** The imported constant's parts, when the files it can come from declare it with one value; else null. */
export function importedParts(from: string, m: ImportedMessage, paths: ReadonlySet<string>, constantsOf: (path: string) => Record<string, MessagePart[]> | undefined): MessagePart[] | null {
  const values = importedFiles(from, m, paths)
    .map((p) => constantsOf(p)?.[m.name])
    .filter((v): v is MessagePart[] => v !== undefined);
  if (values.length === 0) return null;
  const key = JSON.stringify(values[0]);
  return values.every((v) => JSON.stringify(v) === key) ? values[0]! : null;
}
