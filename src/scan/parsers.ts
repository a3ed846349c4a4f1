/**
 * The tree-sitter grammars, compiled to WebAssembly and shipped in the `@vscode/tree-sitter-wasm`
 * package, loaded once per process into `web-tree-sitter`: no native code, the same on every platform.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import type { ScanLanguage } from './select.ts';

const require = createRequire(import.meta.url);
const WASM_DIR = join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');

const GRAMMAR: Record<ScanLanguage, string> = {
  python: 'python',
  typescript: 'typescript',
  tsx: 'tsx',
  javascript: 'javascript',
  rust: 'rust',
  go: 'go',
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
      parser.setLanguage(await Language.load(join(WASM_DIR, `tree-sitter-${GRAMMAR[language]}.wasm`)));
      return parser;
    });
    parsers.set(language, p);
  }
  return p;
}
