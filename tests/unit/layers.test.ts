/**
 * Layers point down: each folder of src/ imports only from its own layer or those below it (the
 * README's architecture section), and no module imports, through any chain of imports (type imports
 * included), a module that imports it back. Walks the source as it is, so a loop or an upward import
 * added later fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(path) : /\.(ts|astro|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** The src/ files a file imports (static, re-exported or dynamic; relative specifiers only). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s)).filter((p) => p.startsWith(`${SRC}/`));
}

/** Strongly connected components of more than one module, or a module importing itself (Tarjan). */
function importLoops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) loops.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return loops;
}

/** The layers, lowest first: a module may import from its own layer and those before it. */
const LAYERS: string[][] = [
  ['schema'],
  ['util'],
  ['catalog', 'highlight'],
  ['views', 'search', 'context.ts', 'context-env.ts'],
  ['components', 'layouts', 'pages', 'client', 'styles'],
  ['build', 'integration.ts', 'scan', 'lookup', 'action', 'deploy'],
];
/** The layer of a file below src/: that of its first path segment (a folder, or a file at src/'s top). */
function layerOf(file: string): number {
  const top = relative(SRC, file).split('/')[0]!;
  const layer = LAYERS.findIndex((l) => l.includes(top));
  if (layer === -1) throw new Error(`src/${top} is in no layer: add it to LAYERS and to the README's architecture section`);
  return layer;
}

describe('imports under src/', () => {
  it('finds a loop when there is one', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']], ['e', ['e']]]);
    expect(importLoops(g)).toEqual(expect.arrayContaining([['a', 'b', 'c'], ['e']]));
    expect(importLoops(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('point down the layers', () => {
    const upward: string[] = [];
    const files = sourceFiles(SRC);
    // The walk sees the imports (pages import components, the build imports the catalog…).
    expect(files.flatMap(importsOf).length).toBeGreaterThan(300);
    for (const file of files) {
      for (const target of importsOf(file)) if (layerOf(target) > layerOf(file)) upward.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
    expect(upward).toEqual([]);
  });

  it('form no loops', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    const loops = importLoops(graph).map((scc) => scc.map((f) => relative(SRC, f)));
    expect(loops).toEqual([]);
  });
});

describe('the environment under src/', () => {
  it('is read by no module but src/context.ts, the Astro side’s entry: the entries read it once and hand settings down', () => {
    const readers = sourceFiles(SRC).filter((f) => /\bprocess\.env\b/.test(readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    expect(readers.map((f) => relative(SRC, f))).toEqual(['context.ts']);
  });
});
