/**
 * A render process started before its input exists (scripts/lib/astro-render.ts, startEarly): Astro
 * bundles the site while the catalog is still being validated, on the core validation leaves idle,
 * then waits at two gates, each opened by a line the build script writes to its stdin:
 *  - `catalog`: the catalog's snapshot is written; Astro may list the pages (getStaticPaths reads it);
 *  - `pages`: every code block is in the highlight cache; Astro may render the pages.
 *
 * Run inside the render process by Node itself (scripts/lib/astro-build.ts): erasable TypeScript only.
 */
import type { AstroPrerenderer } from 'astro';

/** The environment variable that tells a render process to wait at the gates. */
export const GATE_ENV = 'ERRDEX_RENDER_GATED';

export type Gate = 'catalog' | 'pages';

/** The line that opens a gate. */
export const gateLine = (gate: Gate): string => `${JSON.stringify({ open: gate })}\n`;

/**
 * Resolves each gate's promise when its line arrives on `input`. When the input ends with a gate
 * still shut, the build script has gone: the process ends (it would otherwise wait for ever).
 */
export function readGates(input: NodeJS.ReadableStream, onOrphaned: () => void): Record<Gate, Promise<void>> {
  const opened = {} as Record<Gate, () => void>;
  const gates: Record<Gate, Promise<void>> = {
    catalog: new Promise((resolve) => (opened.catalog = resolve)),
    pages: new Promise((resolve) => (opened.pages = resolve)),
  };
  const open = new Set<Gate>();
  let rest = '';
  input.setEncoding('utf8');
  input.on('data', (text: string) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const gate = (JSON.parse(line) as { open: Gate }).open;
      open.add(gate);
      opened[gate]();
    }
  });
  input.on('end', () => {
    if (open.size < 2) onOrphaned();
  });
  return gates;
}

/** Astro's prerenderer, made to wait: its page list for the `catalog` gate, each page for the `pages` gate. */
export function gatedPrerenderer(inner: AstroPrerenderer, gates: Record<Gate, Promise<void>>): AstroPrerenderer {
  return {
    ...inner,
    name: 'errdex:gated',
    getStaticPaths: async () => {
      await gates.catalog;
      return inner.getStaticPaths();
    },
    render: async (request, options) => {
      await gates.pages;
      return inner.render(request, options);
    },
  };
}
