/**
 * "Nothing ran, nothing was injected": a reusable check for any page that shows catalog text.
 *
 * The payloads in tests/fixtures/catalogs/hostile/ set `window.__pwned` or open a dialog when they
 * run. `watchPage` must be called before navigation; `inertnessProblems` then lists everything that
 * went wrong (empty when the page is inert), so a test can show every problem at once.
 */
import type { Page } from 'playwright-core';
import { THEME_PREPAINT_SCRIPT } from '../../src/util/csp.ts';

export interface PageWatch {
  dialogs: string[];
  errors: string[];
}

/** Records dialogs, page errors, console errors and CSP violations from the first byte on. */
export async function watchPage(page: Page): Promise<PageWatch> {
  const watch: PageWatch = { dialogs: [], errors: [] };
  page.on('dialog', (d) => {
    watch.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => watch.errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') watch.errors.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`);
    });
  });
  return watch;
}

/** Tags no catalog text may ever produce. (`script` is checked apart: the site has its own.) */
const FOREIGN_TAGS = ['img', 'svg', 'math', 'iframe', 'frame', 'object', 'embed', 'style', 'base', 'video', 'audio', 'template', 'textarea', 'select'];

/** Everything that shows the page is not inert; empty when it is. */
export async function inertnessProblems(page: Page, watch: PageWatch): Promise<string[]> {
  const inPage = await page.evaluate(
    ({ foreignTags, prepaint }) => {
      const problems: string[] = [];
      const w = window as unknown as { __pwned?: unknown; __cspViolations?: string[] };
      if (w.__pwned !== undefined) problems.push(`a payload ran: window.__pwned = ${String(w.__pwned)}`);
      for (const v of w.__cspViolations ?? []) problems.push(`CSP violation: ${v}`);
      // The site's own search forms: role=search, submitting to its /search/ page.
      const ownSearch = (f: Element) => f.getAttribute('role') === 'search' && /\/search\/$/.test(new URL(f.getAttribute('action') ?? '', location.href).pathname);
      // The search page's own controls: the paste box in its form, the filter selects beside it.
      const ownControl = (el: Element) =>
        (el.tagName === 'TEXTAREA' && el.closest('form') !== null && ownSearch(el.closest('form')!)) ||
        (el.tagName === 'SELECT' && el.parentElement?.closest('[data-search] > [data-search-filters]') != null);
      for (const el of Array.from(document.querySelectorAll('*'))) {
        const tag = el.tagName.toLowerCase();
        if (foreignTags.includes(tag) && !ownControl(el)) problems.push(`injected element <${tag}> ${el.outerHTML.slice(0, 80)}`);
        // A refresh is the site's own only on a redirect page: in <head>, to a page of this site.
        if (tag === 'meta' && el.getAttribute('http-equiv')?.toLowerCase() === 'refresh') {
          const target = /url=(.*)$/i.exec(el.getAttribute('content') ?? '')?.[1];
          const sameSite = target !== undefined && new URL(target, location.href).origin === location.origin;
          if (el.parentElement !== document.head || !sameSite) problems.push(`injected <meta http-equiv=refresh> ${el.outerHTML.slice(0, 80)}`);
        }
        if (tag === 'script') {
          const src = el.getAttribute('src');
          // The site's own: same-origin files, the hashed theme pre-paint, and JSON-LD data blocks that
          // parse as JSON and hold no '<' (so no catalog text could have closed the script early).
          const text = el.textContent ?? '';
          const jsonLd = el.getAttribute('type') === 'application/ld+json' && !text.includes('<') && (() => {
            try {
              JSON.parse(text);
              return true;
            } catch {
              return false;
            }
          })();
          const own = src ? new URL(src, location.href).origin === location.origin : text === prepaint || jsonLd;
          if (!own) problems.push(`foreign script ${el.outerHTML.slice(0, 80)}`);
        }
        if (tag === 'form' && !ownSearch(el)) problems.push(`injected form ${el.outerHTML.slice(0, 80)}`);
        for (const attr of Array.from(el.attributes)) {
          const name = attr.name.toLowerCase();
          if (name.startsWith('on')) problems.push(`event handler attribute ${name} on <${tag}>`);
          if (['href', 'src', 'action', 'formaction', 'srcdoc', 'xlink:href'].includes(name) && /^\s*(javascript|data|vbscript):/i.test(attr.value)) {
            problems.push(`${name}="${attr.value.slice(0, 60)}" on <${tag}>`);
          }
          if (name === 'autofocus' || name === 'srcdoc') problems.push(`attribute ${name} on <${tag}>`);
        }
      }
      return problems;
    },
    { foreignTags: FOREIGN_TAGS, prepaint: THEME_PREPAINT_SCRIPT },
  );
  return [...inPage, ...watch.dialogs.map((d) => `dialog opened: ${d}`), ...watch.errors];
}

/** Hover and focus everything, so that injected mouseover/focus handlers would fire. */
export async function provokeHandlers(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      for (const type of ['mouseover', 'mouseenter', 'focus', 'click']) {
        if (type === 'click' && el.closest('a, button, form')) continue; // do not navigate away
        el.dispatchEvent(new Event(type, { bubbles: true }));
      }
    }
  });
}
