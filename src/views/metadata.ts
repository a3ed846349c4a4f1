/**
 * Structured data for search engines and link previews: JSON-LD objects (TechArticle,
 * BreadcrumbList) and the script-safe serialisation that puts them in a page.
 */
import { defaultSettings, siteConfig } from '../../errdex.config.mjs';
import type { CatalogEntry } from '../catalog/catalog.ts';
import { errorHeadline } from '../catalog/headline.ts';
import { pageDescription, titleName, type TitleParts } from './error-view.ts';
import { absoluteUrl, errorPath, repoPath } from '../util/urls.ts';

export interface Crumb {
  name: string;
  path: string;
}

export function breadcrumbList(crumbs: readonly Crumb[]): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, item: absoluteUrl(c.path) })),
  };
}

/** The error page's trail: the site, the repository, the error (as its title names it, titleName: a trail shows a short name). */
export function errorCrumbs(e: CatalogEntry, title: TitleParts = {}): Crumb[] {
  return [
    { name: siteConfig.siteName, path: '/' },
    { name: e.record.repo, path: repoPath(e.record.repo) },
    { name: titleName(e.record, title), path: errorPath(e.record) },
  ];
}

export function techArticle(e: CatalogEntry): Record<string, unknown> {
  const r = e.record;
  return {
    '@context': 'https://schema.org',
    '@type': 'TechArticle',
    headline: errorHeadline(r).slice(0, 110),
    description: pageDescription(r),
    url: absoluteUrl(errorPath(r)),
    mainEntityOfPage: absoluteUrl(errorPath(r)),
    datePublished: r.analyzedAt,
    dateModified: e.datasetVersion,
    keywords: r.tags.join(', ') || undefined,
    about: { '@type': 'SoftwareSourceCode', name: r.repo, codeRepository: `https://github.com/${r.repo}` },
    publisher: { '@type': 'Organization', name: siteConfig.siteName, url: absoluteUrl('/') },
  };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped so no text can close the script. */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * What a build says when the site would publish errdex's own defaults: every page's canonical and
 * permanent links (the site URL), and where readers report a wrong entry (the report URL).
 */
export function defaultSettingWarnings(config: Pick<typeof siteConfig, 'siteUrl' | 'reportIssueUrl'> = siteConfig): string[] {
  const warnings: string[] = [];
  if (config.siteUrl === defaultSettings.siteUrl) {
    warnings.push(
      `The site URL is the default (${defaultSettings.siteUrl}): canonical URLs, permanent links and link previews point there. Set ERRDEX_SITE_URL (or siteUrl in errdex.config.mjs) to where the site is served.`,
    );
  }
  if (config.reportIssueUrl === defaultSettings.reportIssueUrl) {
    warnings.push(
      `The report URL is the default (${defaultSettings.reportIssueUrl}): "Report a problem with this entry" opens issues there. Set ERRDEX_REPORT_URL (or reportIssueUrl in errdex.config.mjs) to your catalog's issue tracker.`,
    );
  }
  return warnings;
}
