/**
 * The tree-sitter grammars, compiled to WebAssembly and shipped in the `@vscode/tree-sitter-wasm`
 * package (Kotlin, which it lacks, in `@tree-sitter-grammars/tree-sitter-kotlin`), loaded once per
 * process into `web-tree-sitter`: no native code, the same on every platform.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import type { ScanLanguage } from './select.ts';

const require = createRequire(import.meta.url);
const VSCODE_WASM = join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
const vscode = (name: string) => join(VSCODE_WASM, `tree-sitter-${name}.wasm`);

const GRAMMAR: Record<ScanLanguage, () => string> = {
  python: () => vscode('python'),
  typescript: () => vscode('typescript'),
  tsx: () => vscode('tsx'),
  javascript: () => vscode('javascript'),
  rust: () => vscode('rust'),
  go: () => vscode('go'),
  java: () => vscode('java'),
  csharp: () => vscode('c-sharp'),
  ruby: () => vscode('ruby'),
  php: () => vscode('php'),
  // The package's main entry is a native binding; only its WebAssembly build is read.
  kotlin: () => join(dirname(require.resolve('@tree-sitter-grammars/tree-sitter-kotlin/package.json')), 'tree-sitter-kotlin.wasm'),
};

let ready: Promise<void> | null = null;
const parsers = new Map<ScanLanguage, Promise<Parser>>();

/** A parser for a language, its grammar loaded on first use. */
export function parserFor(language: ScanLanguage): Promise<Parser> {
  let p = parsers.get(language);
  if (!p) {
    ready ??= Parser.init();
    p = ready.then(async () => {
      const parser = new Parser();
      parser.setLanguage(await Language.load(GRAMMAR[language]()));
      return parser;
    });
    parsers.set(language, p);
  }
  return p;
}
