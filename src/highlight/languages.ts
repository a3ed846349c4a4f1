/** Which Shiki grammar reads a file, by its extension or name. Unknown files are plain text. */

const BY_EXTENSION: Record<string, string> = {
  py: 'python', pyi: 'python', pyx: 'python',
  rs: 'rust',
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx',
  go: 'go',
  java: 'java', kt: 'kotlin', kts: 'kotlin', scala: 'scala', groovy: 'groovy', gradle: 'groovy',
  rb: 'ruby', php: 'php', pl: 'perl', pm: 'perl', lua: 'lua', r: 'r', jl: 'julia', dart: 'dart',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', cu: 'cuda', cuh: 'cuda',
  m: 'objective-c', mm: 'objective-cpp', cs: 'csharp', fs: 'fsharp', vb: 'vb', swift: 'swift',
  ex: 'elixir', exs: 'elixir', erl: 'erlang', hrl: 'erlang', hs: 'haskell', ml: 'ocaml', mli: 'ocaml',
  clj: 'clojure', cljs: 'clojure', zig: 'zig', nim: 'nim', cr: 'crystal', d: 'd', v: 'v', gleam: 'gleam',
  sol: 'solidity', sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', ps1: 'powershell', bat: 'bat',
  sql: 'sql', yaml: 'yaml', yml: 'yaml', toml: 'toml', json: 'json', jsonc: 'jsonc', xml: 'xml',
  html: 'html', css: 'css', scss: 'scss', vue: 'vue', svelte: 'svelte', graphql: 'graphql', proto: 'proto',
  tf: 'terraform', hcl: 'hcl', nix: 'nix', f90: 'fortran-free-form', cmake: 'cmake', md: 'markdown',
};

const BY_NAME: Record<string, string> = {
  dockerfile: 'dockerfile',
  makefile: 'make',
  'cmakelists.txt': 'cmake',
};

export const PLAIN_TEXT = 'text';

/** The Shiki language id for a repository path, or `text`. */
export function languageForPath(filePath: string): string {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1).toLowerCase();
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return PLAIN_TEXT;
  return BY_EXTENSION[name.slice(dot + 1)] ?? PLAIN_TEXT;
}

/** A short human label for a language id, for filters and headers. */
export function languageLabel(lang: string): string {
  const labels: Record<string, string> = {
    python: 'Python', rust: 'Rust', typescript: 'TypeScript', tsx: 'TypeScript', javascript: 'JavaScript', jsx: 'JavaScript',
    go: 'Go', java: 'Java', kotlin: 'Kotlin', ruby: 'Ruby', php: 'PHP', c: 'C', cpp: 'C++', csharp: 'C#', swift: 'Swift',
    shellscript: 'Shell', text: 'Plain text',
  };
  return labels[lang] ?? lang.charAt(0).toUpperCase() + lang.slice(1);
}
