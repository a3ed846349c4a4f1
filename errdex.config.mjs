// errdex site configuration. Its default export is this repository's own site, in the form a user's
// project writes in its errdex.config.mjs (src/schema/site-config.ts checks it).
//
// `siteConfig` is what every module of errdex reads. The `errdex` command reads the project's
// errdex.config.mjs and the environment once, checks them, and hands the result to its processes as
// one variable (SITE_ENV); without it (`astro dev`, tests that import modules directly) this file's
// own settings apply, each overridden by its environment variable as the README lists.
const env = process.env;

/** The values used when the operator sets none: the build warns when a published site would carry them. */
export const defaultSettings = {
  siteUrl: 'https://errdex.dev',
  reportIssueUrl: 'https://github.com/errdex/catalog/issues/new',
};

const site = {
  siteName: 'errdex',
  tagline: 'What an error means, where it is thrown, and how to fix it.',
  // Absolute origin the site is served from: canonical URLs, sitemaps and Open Graph tags use it.
  siteUrl: defaultSettings.siteUrl,
  // Sub-path for project sites such as GitHub Pages (`/errdex`); '' at a domain's root.
  basePath: '',
  // Where "Report a problem with this entry" opens a prefilled issue: the catalog's own tracker.
  reportIssueUrl: defaultSettings.reportIssueUrl,
};
export default site;

/** The variable that carries the command's checked settings to every process it starts. */
export const SITE_ENV = 'ERRDEX_SITE';

/**
 * @typedef {{ path: string; sha256: string }} ProjectFile An override file of the user's project (absolute path, content hash: page keys change with it).
 * @typedef {{ description?: string; homepage?: string }} RepositoryAbout What the project's config says of one repository of its catalog.
 * @typedef {{ siteName: string; siteUrl: string; basePath: string; reportIssueUrl: string; tagline: string; logo?: ProjectFile; customCss?: ProjectFile[]; components?: Record<string, ProjectFile>; repositories?: Record<string, RepositoryAbout> }} SiteConfig
 */

/** @type {SiteConfig} */
export const siteConfig = env[SITE_ENV]
  ? JSON.parse(env[SITE_ENV])
  : {
      siteName: env.ERRDEX_SITE_NAME || site.siteName,
      tagline: site.tagline,
      siteUrl: (env.ERRDEX_SITE_URL || site.siteUrl).replace(/\/+$/, ''),
      basePath: (env.ERRDEX_BASE_PATH || site.basePath).replace(/\/+$/, '').replace(/^(?=[^/])/, '/'),
      reportIssueUrl: env.ERRDEX_REPORT_URL || site.reportIssueUrl,
    };
