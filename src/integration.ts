/**
 * errdex's Astro integration (registered in astro.config.mjs): what Astro must know of the build.
 *  - Plain `astro build` stops at once and says to run `npm run build`: the site needs the stages
 *    around the render (validation, highlighting, the search indexes, the record files, `_redirects`),
 *    which only the build runs (src/build/).
 *  - In a render process of the build (a render context: src/context.ts) it shapes Astro's
 *    prerendering: routes to skip (the site-wide pages without parameters are rendered by the first
 *    partition only), the gates of a process started before its input exists (src/build/render-gate.ts),
 *    and progress: every hundred error pages, and the pages in all at the end, told to the build
 *    (src/build/protocol.ts).
 *  - `astro dev` renders from the catalog folder, through the same context module.
 *  - A project's overrides (errdex.config.mjs: logo, customCss, components) reach the pages through
 *    two virtual modules and a resolver: files of the user's project, bundled by Vite like errdex's own.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroPrerenderer } from 'astro';
import { siteConfig, type SiteConfig } from '../errdex.config.mjs';
import { buildContext, type RenderContext } from './context.ts';
import { firstPartitionRendersFixedPages } from './build/partition-prerenderer.ts';
import { tellBuild } from './build/protocol.ts';
import { gatedPrerenderer, readGates } from './build/render-gate.ts';
import { pageFileOf, RenderedLog, renderedLogOf } from './build/rendered-pages.ts';

export const PLAIN_BUILD_MESSAGE =
  'errdex: plain `astro build` makes only part of the site (no search indexes, no JSON twins, no redirects). Run `npm run build` instead.';

/** The route of the error pages, whose renders the progress counts. */
const ERROR_PAGE_ROUTE = '/[owner]/[repo]/[slug]';
/** Error pages between two progress messages. */
const EVERY = 100;

/**
 * Counts each rendered error page, every EVERY of them telling the build, and notes what the build
 * needs of each page from the bytes Astro writes as they are (a page, not a redirect response): the
 * head and the SHA-256 of every HTML page and error page (src/build/rendered-pages.ts), so that
 * nothing is read back from the site.
 */
function notingPrerenderer(inner: AstroPrerenderer, log: RenderedLog): AstroPrerenderer {
  let rendered = 0;
  return {
    ...inner,
    render: async (request, options) => {
      const result = await inner.render(request, options);
      const errorPage = options.routeData.route === ERROR_PAGE_ROUTE;
      if (errorPage && ++rendered % EVERY === 0) void tellBuild({ type: 'update', stage: 'render', done: rendered });
      const response = result instanceof Response ? result : result.response;
      const html = response.headers.get('content-type')?.startsWith('text/html') ?? false;
      if (!response.ok || !response.body || (!html && !errorPage)) return result;
      const body = new Uint8Array(await response.arrayBuffer());
      const path = decodeURI(new URL(request.url).pathname).slice(siteConfig.basePath.length);
      // A proof of every page the build may reuse: the error pages and the listings' pages, all HTML.
      log.note(pageFileOf(path), body, { html, proof: errorPage || html });
      const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      return result instanceof Response ? copy : { ...result, response: copy };
    },
  };
}

/** Astro's prerenderer as a render process of the build runs it. */
export function renderPrerenderer(inner: AstroPrerenderer, ctx: RenderContext): AstroPrerenderer {
  const gates = ctx.gated ? readGates(process, () => process.exit(1)) : null;
  return notingPrerenderer(firstPartitionRendersFixedPages(gates ? gatedPrerenderer(inner, gates) : inner, ctx.partition, ctx.shard !== null), renderedLog(ctx));
}

let log: RenderedLog | undefined;
const renderedLog = (ctx: RenderContext): RenderedLog => (log ??= new RenderedLog(renderedLogOf(ctx.pageLog)));

/** The virtual modules the layouts import: the project's logo (or null) and its stylesheets. */
const LOGO = 'virtual:errdex/logo';
const CUSTOM_CSS = 'virtual:errdex/custom-css';
const COMPONENTS = fileURLToPath(new URL('./components/', import.meta.url));
const LOGO_CSS = fileURLToPath(new URL('./styles/logo.css', import.meta.url));

/** Vite's plugin for the overrides: the virtual modules, and each replaced component resolved to the project's file. */
export function overridesPlugin(site: Pick<SiteConfig, 'logo' | 'customCss' | 'components'>) {
  const replaced = new Map(Object.entries(site.components ?? {}).map(([name, file]) => [join(COMPONENTS, name), file.path]));
  return {
    name: 'errdex:overrides',
    enforce: 'pre' as const,
    async resolveId(this: { resolve: (id: string, importer?: string, options?: { skipSelf?: boolean }) => Promise<{ id: string } | null> }, id: string, importer?: string) {
      if (id === LOGO || id === CUSTOM_CSS) return `\0${id}`;
      if (replaced.size === 0 || !importer || !id.endsWith('.astro')) return null;
      const resolved = await this.resolve(id, importer, { skipSelf: true });
      return (resolved && replaced.get(resolved.id)) ?? null;
    },
    load(id: string) {
      if (id === `\0${LOGO}`) return site.logo ? `import ${JSON.stringify(LOGO_CSS)};\nexport { default as logo } from ${JSON.stringify(site.logo.path)};` : 'export const logo = null;';
      if (id === `\0${CUSTOM_CSS}`) return (site.customCss ?? []).map((f) => `import ${JSON.stringify(f.path)};`).join('\n');
      return null;
    },
  };
}

export function errdex(): AstroIntegration {
  return {
    name: 'errdex',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        if (command === 'build' && !buildContext()) throw new Error(PLAIN_BUILD_MESSAGE);
        updateConfig({ vite: { plugins: [overridesPlugin(siteConfig)] } });
      },
      'astro:build:start': ({ setPrerenderer }) => {
        const ctx = buildContext();
        if (ctx) setPrerenderer((inner) => renderPrerenderer(inner, ctx));
      },
      'astro:build:done': async ({ pages }) => {
        const ctx = buildContext();
        if (!ctx) return;
        renderedLog(ctx).flush();
        await tellBuild({ type: 'result', value: { pages: pages.length } });
      },
    },
  };
}
