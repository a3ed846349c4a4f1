/** One file's text -> its raise sites: parse with the language's grammar, then its reader. */
import type { Node } from 'web-tree-sitter';
import { csharpSites } from './csharp.ts';
import { goSites } from './go.ts';
import { javaSites } from './java.ts';
import { javascriptSites } from './javascript.ts';
import { kotlinSites } from './kotlin.ts';
import { parserFor } from './parsers.ts';
import { phpSites } from './php.ts';
import { pythonSites } from './python.ts';
import { rubySites } from './ruby.ts';
import { rustSites } from './rust.ts';
import type { ScanLanguage } from './select.ts';
import type { FileSites } from './site.ts';

const READERS: Record<ScanLanguage, (root: Node, source: string) => FileSites> = {
  python: (root) => pythonSites(root),
  typescript: (root) => javascriptSites(root),
  tsx: (root) => javascriptSites(root),
  javascript: (root) => javascriptSites(root),
  rust: (root, source) => rustSites(root, source),
  go: (root) => goSites(root),
  java: (root) => javaSites(root),
  kotlin: (root) => kotlinSites(root),
  csharp: (root) => csharpSites(root),
  ruby: (root) => rubySites(root),
  php: (root) => phpSites(root),
};

export interface FileRead extends FileSites {
  /** The syntax tree has errors (the rest of the file is still read). */
  parseError: boolean;
}

export async function readSourceFile(language: ScanLanguage, source: string): Promise<FileRead> {
  const tree = (await parserFor(language)).parse(source);
  if (!tree) return { sites: [], skipped: {}, skippedAt: [], parseError: true };
  try {
    return { ...READERS[language](tree.rootNode, source), parseError: tree.rootNode.hasError };
  } finally {
    tree.delete();
  }
}
