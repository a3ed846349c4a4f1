/**
 * Messages held in another file's constant: `from .messages import NOT_FOUND` (Python),
 * `import { NOT_FOUND } from './messages'` (JavaScript/TypeScript), `Messages.NOT_FOUND` or a static
 * import of it (Java, Kotlin, C#, and Ruby's and PHP's `Messages::NOT_FOUND`), a constant of another
 * file of the package (Go); then `raise KeyError(NOT_FOUND)`.
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
  // A class's constant may be declared in any file of the tree in its language (Java's packages,
  // C#'s namespaces, Ruby's autoloading and PHP's autoloaders do not follow one file layout).
  if (m.language === 'class') return [...paths].filter((p) => sameLanguage(p, from));
  if (m.language === 'rust') return rustModuleFiles(from, m.spec, paths);
  // Go: a package is the files of one folder.
  if (m.language === 'package') return [...paths].filter((p) => p !== from && dirname(p) === dirname(from) && p.endsWith('.go'));
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

/**
 * Rust: the file of a module path from `from`: `crate::a::b` below the crate's root (the folder of the
 * nearest `lib.rs` or `main.rs` above), `self::a` below this module, `super::a` beside it; each
 * module `x` is `x.rs` or `x/mod.rs`. Other paths name other crates, or modules declared inline.
 */
function rustModuleFiles(from: string, spec: string, paths: ReadonlySet<string>): string[] {
  const [head, ...rest] = spec.split('::');
  const dir = dirname(from);
  const file = from.slice(dir.length + 1);
  // The folder holding this module's own submodules.
  const own = /^(lib|main|mod)\.rs$/.test(file) ? dir : posix.join(dir, file.replace(/\.rs$/, ''));
  let base: string | null = null;
  if (head === 'self') base = own;
  else if (head === 'super') base = dirname(own);
  else if (head === 'crate') {
    for (let d = dir; ; d = dirname(d)) {
      const at = (name: string) => (d === '.' ? name : `${d}/${name}`);
      if (paths.has(at('lib.rs')) || paths.has(at('main.rs'))) {
        base = d;
        break;
      }
      if (d === '.' || d === '/' || d === '') break;
    }
  }
  if (base === null) return [];
  const mod = posix.join(base === '.' ? '' : base, ...rest);
  return rest.length === 0 ? [] : [`${mod}.rs`, `${mod}/mod.rs`].filter((p) => paths.has(p));
}

const extension = (p: string) => p.slice(p.lastIndexOf('.'));
const FAMILIES = [['.java', '.kt', '.kts'], ['.cs'], ['.rb', '.rake'], ['.php']];
/** Two files whose classes can name each other's constants: one language, or Java and Kotlin. */
function sameLanguage(a: string, b: string): boolean {
  const family = FAMILIES.find((f) => f.includes(extension(b)));
  return family ? family.includes(extension(a)) : extension(a) === extension(b);
}

type ConstantsOf = (path: string) => Record<string, MessagePart[]> | undefined;

/**
 * A class's constants in every file of a language (what `class` looks up, for each raise that names
 * one), by key: listed once per scan (per `constantsOf`) and language, not once per site.
 */
const classIndexes = new WeakMap<ConstantsOf, Map<string, Map<string, MessagePart[][]>>>();

function classIndex(from: string, paths: ReadonlySet<string>, constantsOf: ConstantsOf): Map<string, MessagePart[][]> {
  let byLanguage = classIndexes.get(constantsOf);
  if (!byLanguage) classIndexes.set(constantsOf, (byLanguage = new Map()));
  const language = FAMILIES.find((f) => f.includes(extension(from)))?.join() ?? extension(from);
  let index = byLanguage.get(language);
  if (!index) {
    index = new Map();
    for (const p of importedFiles(from, { name: '', spec: '', language: 'class' }, paths)) {
      for (const [key, value] of Object.entries(constantsOf(p) ?? {})) {
        const values = index.get(key);
        if (values) values.push(value);
        else index.set(key, [value]);
      }
    }
    byLanguage.set(language, index);
  }
  return index;
}

/** The imported constant's parts, when the files it can come from declare it with one value; else null. */
export function importedParts(from: string, m: ImportedMessage, paths: ReadonlySet<string>, constantsOf: ConstantsOf): MessagePart[] | null {
  const index = m.language === 'class' ? classIndex(from, paths, constantsOf) : null;
  const files = index ? [] : importedFiles(from, m, paths);
  // A class's constant: the first of the classes named (the class around the site, then its bases) that declares it.
  const keys = m.language === 'class' ? m.spec.split(' ').map((cls) => `${cls}.${m.name}`) : [m.name];
  for (const key of keys) {
    const values = index ? (index.get(key) ?? []) : files.map((p) => constantsOf(p)?.[key]).filter((v): v is MessagePart[] => v !== undefined);
    if (values.length === 0) continue;
    const first = JSON.stringify(values[0]);
    return values.every((v) => JSON.stringify(v) === first) ? values[0]! : null;
  }
  return null;
}
