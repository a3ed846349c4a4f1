// errdex site configuration: the one place for what an operator sets.
// Each value can be overridden by an environment variable at build time.
const env = process.env;

/** The values used when the operator sets none: the build warns when a published site would carry them. */
export const defaultSettings = {
  siteUrl: 'https://errdex.dev',
  reportIssueUrl: 'https://github.com/errdex/catalog/issues/new',
};

/** @type {{ siteName: string; siteUrl: string; basePath: string; reportIssueUrl: string; tagline: string }} */
export const siteConfig = {
  siteName: env.ERRDEX_SITE_NAME || 'errdex',
  tagline: 'What an error means, where it is thrown, and how to fix it.',
  // Absolute origin the site is served from: canonical URLs, sitemaps and Open Graph tags use it.
  siteUrl: (env.ERRDEX_SITE_URL || defaultSettings.siteUrl).replace(/\/+$/, ''),
  // Sub-path for project sites such as GitHub Pages (`/errdex`); '' at a domain's root.
  basePath: (env.ERRDEX_BASE_PATH || '').replace(/\/+$/, '').replace(/^(?=[^/])/, '/'),
  // Where "Report a problem with this entry" opens a prefilled issue: the catalog's own tracker.
  reportIssueUrl: env.ERRDEX_REPORT_URL || defaultSettings.reportIssueUrl,
};
