/**
 * Short-link pages (`/e/{id}/`) from one template.
 *
 * Every short link is the same redirect page around four values: the record's id, its page's path,
 * its title and its description (a shared short link unfurls as the error's page does). Rendering 10,000 of them through Astro cost more than a third of a cold build's
 * render (mostly Astro writing files), so the build has Astro render the page once, with markers in
 * place of the values (src/pages/e/[id].astro), and stamps the record's values into a copy per record
 * (src/build/stages/record-files.ts). The page stays Astro's, layout and assets; the values are escaped here.
 */
import type { ErrorRecord } from '../schema/record.ts';
import { errorPath } from '../util/urls.ts';
import { escapeHtml, escapeRegExp } from '../util/text.ts';
import { pageDescription, pageTitle, type TitleParts } from './error-view.ts';

/** The id of the template page; never a record id (those are 16 hex digits). */
export const SHORT_LINK_TEMPLATE_ID = 'errdex-short-link-template';

/**
 * The markers the template is rendered with: plain lowercase words, which Astro's escaping and the
 * URL helpers leave as they are, so each comes out of the render unchanged wherever it is used.
 */
export const SHORT_LINK_MARKERS = {
  id: SHORT_LINK_TEMPLATE_ID,
  to: '/errdexslotpagepath/',
  title: 'errdexslotpagetitle',
  description: 'errdexslotpagedescription',
} as const;

/** A type, not an interface: Astro's page props need an index signature, which an interface lacks. */
export type ShortLinkValues = {
  id: string;
  /** The error page's root-relative path (src/util/urls.ts, errorPath). */
  to: string;
  title: string;
  description: string;
};

/**
 * What a record's short link needs of it besides its title parts, which take the whole catalog to work
 * out: the record files stage holds this much of every record meanwhile, not its prose.
 */
export type ShortLinkRecord = Pick<ErrorRecord, 'id' | 'repo' | 'slug' | 'errorClass' | 'errorMessage'> & { description: string };

/** `described`: false leaves the description out ('': the record files stage reads it again only if it makes the link). */
export function shortLinkRecord(r: ErrorRecord, described = true): ShortLinkRecord {
  return { id: r.id, repo: r.repo, slug: r.slug, errorClass: r.errorClass, errorMessage: r.errorMessage, description: described ? pageDescription(r) : '' };
}

/** A record's short-link values: its page's path, title (as its page's: the same title parts) and description. */
export function shortLinkValues(r: ShortLinkRecord, title: TitleParts): ShortLinkValues {
  return { id: r.id, to: errorPath(r), title: pageTitle(r, title), description: r.description };
}

/** What a value may hold where a marker of a path or id stands: the schema's ids, owners, repositories and slugs. */
const PATH_SAFE = /^[A-Za-z0-9._~/-]+$/;

/** The markers a template must hold: the id need not appear (the page shows its target, not its own address). */
const REQUIRED_MARKERS = ['to', 'title', 'description'] as const;
const ANY_MARKER = new RegExp(Object.values(SHORT_LINK_MARKERS).map(escapeRegExp).join('|'), 'g');

/**
 * Checks that a rendered template can be stamped: the page path and title markers are there, and no
 * marker stands inside a script or style element, where HTML escaping would not be the right escaping.
 */
export function checkShortLinkTemplate(html: string): void {
  for (const name of REQUIRED_MARKERS) {
    const marker = SHORT_LINK_MARKERS[name];
    if (!html.includes(marker)) throw new Error(`The short-link template has no ${name} marker (${marker}): src/pages/e/[id].astro must render it.`);
  }
  for (const m of html.matchAll(/<(script|style)\b[^>]*>([\s\S]*?)<\/\1>/gi)) {
    const inside = m[2]!.match(ANY_MARKER);
    if (inside) throw new Error(`The short-link template uses ${inside[0]} inside a <${m[1]}> element, where it cannot be stamped safely.`);
  }
}

/**
 * The short-link page of one record: the template with the record's values in place of the markers,
 * in one pass (a title that happens to hold a marker's text stays as it is). The title and description
 * are escaped for HTML text and double-quoted attributes alike, the only places a marker may stand
 * (checkShortLinkTemplate); ids and paths hold no character that needs escaping, and a value that did
 * is refused rather than written.
 */
export function stampShortLink(template: string, values: ShortLinkValues): string {
  for (const key of ['id', 'to'] as const) {
    if (!PATH_SAFE.test(values[key]))
      throw new Error(`Cannot write the short link of record ${values.id}: its ${key} ${JSON.stringify(values[key])} holds characters a URL path may not.`);
  }
  const text: Record<string, string> = {
    [SHORT_LINK_MARKERS.title]: escapeHtml(values.title),
    [SHORT_LINK_MARKERS.description]: escapeHtml(values.description),
  };
  return template.replace(ANY_MARKER, (m) => (m === SHORT_LINK_MARKERS.to ? values.to : m === SHORT_LINK_MARKERS.id ? values.id : text[m]!));
}
