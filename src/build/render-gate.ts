/**
 * A render process started before its input exists (src/build/render-processes.ts): Astro bundles the
 * site while the catalog is still being validated, on the core validation leaves idle, then waits at
 * two gates, each opened by the build's message (src/build/protocol.ts, `{ type: 'open', gate }`):
 *  - `catalog`: the catalog's snapshot and related errors are written; Astro may list the pages;
 *  - `pages`: every code block is in the highlight cache; Astro may render the pages.
 */
import type { AstroPrerenderer } from 'astro';
import type { BuildMessage } from './protocol.ts';

export type RenderGate = 'catalog' | 'pages';

/** Where the build's messages come from: the process's IPC channel, or a test's emitter. */
export interface MessageSource {
  on(event: 'message', listener: (m: BuildMessage) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
}

/**
 * Resolves each gate's promise when the build opens it. When the channel closes with a gate still
 * shut, the build has gone: `onOrphaned` (the process ends; it would otherwise wait for ever).
 */
export function readGates(source: MessageSource, onOrphaned: () => void): Record<RenderGate, Promise<void>> {
  const opened = {} as Record<RenderGate, () => void>;
  const gates: Record<RenderGate, Promise<void>> = {
    catalog: new Promise((resolve) => (opened.catalog = resolve)),
    pages: new Promise((resolve) => (opened.pages = resolve)),
  };
  const open = new Set<RenderGate>();
  source.on('message', (m) => {
    if (m.type !== 'open' || (m.gate !== 'catalog' && m.gate !== 'pages')) return;
    open.add(m.gate);
    opened[m.gate]();
  });
  source.on('disconnect', () => {
    if (open.size < 2) onOrphaned();
  });
  return gates;
}

/** Astro's prerenderer, made to wait: its page list for the `catalog` gate, each page for the `pages` gate. */
export function gatedPrerenderer(inner: AstroPrerenderer, gates: Record<RenderGate, Promise<void>>): AstroPrerenderer {
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
