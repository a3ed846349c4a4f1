/**
 * A user's project as the `errdex` command finds it (scripts/errdex.ts): its folder (the working
 * folder), its errdex.config.mjs checked (src/schema/site-config.ts), the files it names found and
 * hashed, and the environment's overrides applied. The result goes to every process the command
 * starts: the site settings as one variable (SITE_ENV, read by errdex.config.mjs), the catalog and
 * output folders as ERRDEX_DATA and ERRDEX_DIST unless the environment sets them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import defaults, { SITE_ENV, type SiteConfig } from '../../errdex.config.mjs';
import { siteConfigProblems, type SiteConfigFile } from '../schema/site-config.ts';

export const CONFIG_FILE = 'errdex.config.mjs';

export class ProjectError extends Error {
  readonly problems: string[];
  constructor(file: string, problems: string[]) {
    super(`${file}: ${problems.length === 1 ? 'a setting is' : `${problems.length} settings are`} wrong:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

export interface Project {
  root: string;
  /** The config file read, or null when the project has none (every default applies). */
  file: string | null;
  site: SiteConfig;
  /** The variables the command hands to the processes it starts. */
  env: Record<string, string>;
}

/** Reads `root`'s errdex.config.mjs (when there is one); throws a ProjectError naming every wrong key. */
export async function loadProject(root: string, env: NodeJS.ProcessEnv): Promise<Project> {
  const file = join(root, CONFIG_FILE);
  let config: SiteConfigFile = {};
  if (existsSync(file)) {
    let exported: unknown;
    try {
      exported = ((await import(pathToFileURL(file).href)) as { default?: unknown }).default;
    } catch (e) {
      throw new ProjectError(file, [`cannot be loaded: ${(e as Error).message.split('\n')[0]}`]);
    }
    if (exported === undefined) throw new ProjectError(file, ['has no default export: write `export default { siteName: …, siteUrl: … }`']);
    const checked = siteConfigProblems(exported);
    if (checked.config === null) throw new ProjectError(file, checked.problems);
    config = checked.config;
  }
  const problems: string[] = [];
  const found = (key: string, path: string): { path: string; sha256: string } | undefined => {
    const abs = resolve(root, path);
    if (!existsSync(abs) || !statSync(abs).isFile()) {
      problems.push(`${key}: ${path} is not a file (${abs})`);
      return undefined;
    }
    return { path: abs, sha256: createHash('sha256').update(readFileSync(abs)).digest('hex') };
  };
  const logo = config.logo === undefined ? undefined : found('logo', config.logo);
  const customCss = (config.customCss ?? []).flatMap((f, i) => found(`customCss.${i}`, f) ?? []);
  const components = Object.entries(config.components ?? {}).flatMap(([name, f]) => {
    const override = found(`components.${name}`, f);
    return override ? [[name, override] as const] : [];
  });
  if (problems.length > 0) throw new ProjectError(file, problems);

  const set = (name: string) => (env[name] !== undefined && env[name] !== '' ? env[name] : undefined);
  // Key order as errdex.config.mjs's own: the settings are part of every page key (src/catalog/page-cache.ts).
  const site: SiteConfig = {
    siteName: set('ERRDEX_SITE_NAME') ?? config.siteName ?? defaults.siteName,
    tagline: config.tagline ?? defaults.tagline,
    siteUrl: (set('ERRDEX_SITE_URL') ?? config.siteUrl ?? defaults.siteUrl).replace(/\/+$/, ''),
    basePath: (set('ERRDEX_BASE_PATH') ?? config.basePath ?? defaults.basePath).replace(/\/+$/, '').replace(/^(?=[^/])/, '/'),
    reportIssueUrl: set('ERRDEX_REPORT_URL') ?? config.reportIssueUrl ?? defaults.reportIssueUrl,
    ...(logo ? { logo } : {}),
    ...(customCss.length > 0 ? { customCss } : {}),
    ...(components.length > 0 ? { components: Object.fromEntries(components) } : {}),
    ...(config.repositories && Object.keys(config.repositories).length > 0 ? { repositories: config.repositories } : {}),
  };
  const handed: Record<string, string> = { [SITE_ENV]: JSON.stringify(site) };
  // Relative to the project, whatever folder the variable would be read from.
  const inProject = (path: string) => (isAbsolute(path) ? path : join(root, path));
  if (config.catalog !== undefined && set('ERRDEX_DATA') === undefined) handed.ERRDEX_DATA = inProject(config.catalog);
  if (config.outDir !== undefined && set('ERRDEX_DIST') === undefined) handed.ERRDEX_DIST = inProject(config.outDir);
  return { root, file: existsSync(file) ? file : null, site, env: handed };
}

