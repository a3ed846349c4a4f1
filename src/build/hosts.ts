/**
 * Host budgets (`npm run build -- --host=NAME`): what each static host publishes as its limits, and
 * the check of a site against them, so that a build that the host would refuse (or serve in part)
 * stops before publishing, with the numbers and what to change. Checked twice: once validation has
 * counted the records, against what the site must hold at the least (fails in seconds, not after the
 * render), and on the staging folder before it is published, against what it does hold. The limits,
 * with their sources, are in docs/deploy.md ("Host limits"); `--host-limit` sets one for another plan.
 */
import { describeSite, formatBytes, formatCount, type SiteFigures } from './summary.ts';

export const LIMITS = ['files', 'bytes', 'file-bytes', 'folder-files', 'redirects'] as const;
export type LimitName = (typeof LIMITS)[number];
export type Limits = Partial<Record<LimitName, number>>;

export interface Host {
  name: string;
  title: string;
  limits: Limits;
  /** Whether it applies `_redirects` (the rule cap then matters) and `_headers`. */
  readsRedirects: boolean;
  readsHeaders: boolean;
  /** A larger plan of the same host, when there is one: what it takes, and its file limit. */
  largerPlan?: { text: string; files: number };
}

const MIB = 2 ** 20;

export const HOSTS: Record<string, Host> = {
  'github-pages': {
    name: 'github-pages',
    title: 'GitHub Pages',
    limits: { bytes: 1_000_000_000 },
    readsRedirects: false,
    readsHeaders: false,
  },
  'cloudflare-pages': {
    name: 'cloudflare-pages',
    title: 'Cloudflare Pages (Free)',
    limits: { files: 20_000, 'file-bytes': 25 * MIB, redirects: 2_000 },
    readsRedirects: true,
    readsHeaders: true,
    largerPlan: { text: 'Cloudflare paid plans take 100,000 files per site once PAGES_WRANGLER_MAJOR_VERSION=4 is set in the Pages project', files: 100_000 },
  },
  netlify: {
    name: 'netlify',
    title: 'Netlify',
    limits: { 'folder-files': 54_000 },
    readsRedirects: true,
    readsHeaders: true,
  },
  static: {
    name: 'static',
    title: 'a static web server or object store',
    limits: {},
    readsRedirects: false,
    readsHeaders: false,
  },
};

/** The host a build is checked against: its limits with the `--host-limit` overrides, and --trim-redirects. */
export interface HostBudget {
  host: Host;
  limits: Limits;
  /** --trim-redirects: `_redirects` keeps only the first rules the host applies. */
  trimRedirects: boolean;
  /** The limits set by --host-limit rather than the host's published ones. */
  overridden: LimitName[];
}

/** Whose limit: "Cloudflare Pages (Free)'s" or "the --host-limit of". */
const whose = (budget: HostBudget, limit: LimitName): string => {
  if (budget.overridden.includes(limit)) return `the --host-limit ${limit} of`;
  return budget.host.title.endsWith('s') ? `${budget.host.title}'` : `${budget.host.title}'s`;
};

/** `--host=NAME`, `--host-limit KEY=N` (repeatable), `--trim-redirects`; null without --host. */
export function parseHostBudget(name: string | undefined, limitArgs: readonly string[], trimRedirects: boolean): HostBudget | null {
  if (name === undefined) {
    if (limitArgs.length > 0) throw new Error('--host-limit needs --host (static: any server, with only the limits you give).');
    if (trimRedirects) throw new Error('--trim-redirects needs --host, whose rule limit it trims to.');
    return null;
  }
  const host = HOSTS[name];
  if (!host) throw new Error(`--host must be one of ${Object.keys(HOSTS).join(', ')}; got ${JSON.stringify(name)}.`);
  const limits: Limits = { ...host.limits };
  const overridden: LimitName[] = [];
  for (const arg of limitArgs) {
    const m = /^([a-z-]+)=(\d+)$/.exec(arg);
    if (!m || !(LIMITS as readonly string[]).includes(m[1]!) || Number(m[2]) < 1) {
      throw new Error(`--host-limit takes NAME=N with NAME one of ${LIMITS.join(', ')} and N a whole number of at least 1; got ${JSON.stringify(arg)}.`);
    }
    limits[m[1] as LimitName] = Number(m[2]);
    overridden.push(m[1] as LimitName);
  }
  if (trimRedirects && limits.redirects === undefined) throw new Error(`--trim-redirects: ${host.title} has no redirect rule limit to trim to (--host-limit redirects=N sets one).`);
  return { host, limits, trimRedirects, overridden };
}

/** What is known of the build when the budget is checked. */
export interface BuildFacts {
  records: number;
  maxFragments: number | undefined;
  maxIndexFiles: number | undefined;
}

/** One limit passed: which, by how much, and what to change. */
export interface Overrun {
  limit: LimitName;
  text: string;
  fixes: string[];
  /** The options of the first fix that works, for the report's "Next:" line; none when only another host does. */
  flags: string[];
}

/** Full-text fragments per record with --max-fragments: a bundle of about 40 records (about 8 KB). */
export const suggestedMaxFragments = (records: number): number => Math.max(1, Math.ceil(records / 40));

const OBJECT_STORE = 'publish to object storage behind a CDN, which has no file or size limit (docs/deploy.md, "Past the page hosts\' limits")';

/**
 * What the site holds at the least, once the records are counted: per record its error page, its
 * short link, its JSON twin (all in `api/errors/`), its full-text fragment (unless --max-fragments
 * bundles them) and its `_redirects` rule for the short link. A catalog that passes a limit with
 * these alone passes it whatever else the build writes.
 */
export function leastSite(facts: BuildFacts): { files: number; folderFiles: number; redirects: number } {
  const fragments = facts.maxFragments === undefined ? facts.records : Math.min(1, facts.records);
  return { files: 3 * facts.records + fragments, folderFiles: facts.records, redirects: facts.records };
}

/**
 * About how many files a site of this many records has, from the shares measured on synthetic
 * catalogs (docs/benchmarks.md; docs/deploy.md, "Files in the output, by catalog size"): per record 2.03 pages (error page,
 * short link, listings), 1 JSON twin, 0.475 message index files (3 KB each, at most 65,536), one
 * full-text fragment (or the --max-fragments bundles), and Pagefind's own index, filter and entry files.
 */
export function estimateFiles(records: number, maxFragments: number | undefined, maxIndexFiles: number | undefined): number {
  const index = Math.min(65_536, maxIndexFiles ?? Infinity, Math.ceil(0.475 * records));
  const fragments = Math.min(records, maxFragments ?? records);
  return Math.ceil(2.03 * records + records + index + fragments + 0.0045 * records + 30);
}

/** The least message index files worth suggesting: shards of about 8 times their 3 KB. */
const leastIndexFiles = (records: number): number => Math.max(100, Math.ceil((0.475 * records) / 8));

/**
 * The options that make an estimated site fit `limit` files with a 5 % margin, tried in order:
 * --max-fragments, then --max-index-files; null when none does.
 */
export function fittingOptions(facts: BuildFacts, limit: number): { flags: string[]; estimate: number } | null {
  const { records } = facts;
  const target = Math.floor(limit * 0.95);
  const flags: string[] = [];
  const maxFragments = facts.maxFragments ?? suggestedMaxFragments(records);
  if (facts.maxFragments === undefined) flags.push(`--max-fragments=${maxFragments}`);
  let estimate = estimateFiles(records, maxFragments, facts.maxIndexFiles);
  if (estimate > target) {
    const index = Math.min(65_536, facts.maxIndexFiles ?? Infinity, Math.ceil(0.475 * records));
    const wanted = index - (estimate - target);
    if (wanted < leastIndexFiles(records)) return null;
    flags.push(`--max-index-files=${wanted}`);
    estimate = estimateFiles(records, maxFragments, wanted);
  }
  return { flags, estimate };
}

function fileFixes(budget: HostBudget, facts: BuildFacts, over: number, figures: SiteFigures | null): { fixes: string[]; flags: string[] } {
  const fixes: string[] = [];
  let flags: string[] | null = null;
  const limit = budget.limits.files!;
  if (figures) {
    // The site is built: what it holds says exactly what to cut.
    if (facts.maxFragments === undefined && figures.fragmentFiles > 40) {
      const n = suggestedMaxFragments(facts.records);
      fixes.push(`--max-fragments=${n} packs the ${formatCount(figures.fragmentFiles)} full-text fragment files into at most ${formatCount(n)} (full-text queries fetch more bytes: docs/deploy.md, "Host budgets")`);
      if (figures.fragmentFiles - n > over) flags = [`--max-fragments=${n}`];
    } else if (figures.messageIndexFiles > leastIndexFiles(facts.records) + over) {
      const n = figures.messageIndexFiles - over - Math.ceil(limit * 0.02);
      fixes.push(`--max-index-files=${n} writes the message index in ${formatCount(n)} files instead of ${formatCount(figures.messageIndexFiles)} (larger files: a paste fetches more bytes)`);
      flags = [`--max-index-files=${n}`];
    }
  } else {
    const fit = fittingOptions(facts, limit);
    if (fit) {
      fixes.push(`${fit.flags.join(' ')}: about ${formatCount(fit.estimate)} files (docs/deploy.md, "Host budgets", says what each costs)`);
      flags = fit.flags;
    }
    else fixes.push(`no option makes ${formatCount(facts.records)} records fit ${formatCount(limit)} files: at least ${formatCount(3 * facts.records + 1)} even with every full-text fragment bundled`);
  }
  const plan = budget.host.largerPlan;
  if (plan && !budget.overridden.includes('files') && plan.files > limit) {
    const fit = fittingOptions(facts, plan.files);
    const planFlags = fit ? [`--host-limit files=${plan.files}`, ...fit.flags] : null;
    fixes.push(`${plan.text}${planFlags ? `: build with ${planFlags.join(' ')} (about ${formatCount(fit!.estimate)} files)` : `, though ${formatCount(facts.records)} records do not fit it either`}`);
    flags ??= planFlags;
  }
  fixes.push(OBJECT_STORE);
  return { fixes, flags: flags ?? [] };
}

function redirectFixes(budget: HostBudget): string[] {
  return [
    `--trim-redirects keeps the first ${formatCount(budget.limits.redirects!)} rules in _redirects (renamed pages first, then short links); the others still redirect through their HTML redirect pages, with a meta refresh instead of a 301`,
  ];
}

/** The limits a catalog of this many records passes already with the least it must hold. */
export function earlyOverruns(budget: HostBudget, facts: BuildFacts): Overrun[] {
  const least = leastSite(facts);
  const out: Overrun[] = [];
  const { limits, host } = budget;
  if (limits.files !== undefined && least.files > limits.files) {
    const what = facts.maxFragments === undefined ? 'error page, short link, JSON twin and full-text fragment' : 'error page, short link and JSON twin';
    out.push({
      limit: 'files',
      text: `${formatCount(facts.records)} records make at least ${formatCount(least.files)} files (an ${what} each), over ${whose(budget, 'files')} ${formatCount(limits.files)} files per site.`,
      ...fileFixes(budget, facts, least.files - limits.files, null),
    });
  }
  if (limits['folder-files'] !== undefined && least.folderFiles > limits['folder-files']) {
    out.push({
      limit: 'folder-files',
      text: `${formatCount(facts.records)} records put ${formatCount(least.folderFiles)} JSON twins in api/errors/, over ${whose(budget, 'folder-files')} ${formatCount(limits['folder-files'])} files in one folder.`,
      fixes: [OBJECT_STORE],
      flags: [],
    });
  }
  if (host.readsRedirects && limits.redirects !== undefined && !budget.trimRedirects && least.redirects > limits.redirects) {
    out.push({
      limit: 'redirects',
      text: `_redirects will hold at least ${formatCount(least.redirects)} rules (one per short link), over the ${formatCount(limits.redirects)} ${host.title} applies.`,
      fixes: redirectFixes(budget),
      flags: ['--trim-redirects'],
    });
  }
  return out;
}

/** The limits the built site passes (the staging folder's figures, after --trim-redirects). */
export function siteOverruns(budget: HostBudget, facts: BuildFacts, f: SiteFigures): Overrun[] {
  const { limits, host } = budget;
  const out: Overrun[] = [];
  if (limits.files !== undefined && f.files > limits.files) {
    out.push({
      limit: 'files',
      text: `The site has ${formatCount(f.files)} files (${formatCount(f.fragmentFiles)} full-text fragments, ${formatCount(f.messageIndexFiles)} message index files), over ${whose(budget, 'files')} ${formatCount(limits.files)} files per site by ${formatCount(f.files - limits.files)}.`,
      ...fileFixes(budget, facts, f.files - limits.files, f),
    });
  }
  if (limits.bytes !== undefined && f.bytes > limits.bytes) {
    out.push({
      limit: 'bytes',
      text: `The site is ${formatBytes(f.bytes)} (${formatCount(f.bytes)} bytes), over ${whose(budget, 'bytes')} ${formatBytes(limits.bytes)} per site.`,
      fixes: [OBJECT_STORE],
      flags: [],
    });
  }
  if (limits['file-bytes'] !== undefined && f.largest.bytes > limits['file-bytes']) {
    const fragment = f.largest.path.includes('/fragment/');
    out.push({
      limit: 'file-bytes',
      text: `${f.largest.path} is ${formatBytes(f.largest.bytes)}, over ${whose(budget, 'file-bytes')} ${formatBytes(limits['file-bytes'])} per file.`,
      fixes: fragment && facts.maxFragments !== undefined ? [`a larger --max-fragments (now ${facts.maxFragments}) makes smaller bundles`, OBJECT_STORE] : [OBJECT_STORE],
      flags: [],
    });
  }
  if (limits['folder-files'] !== undefined && f.fullest.files > limits['folder-files']) {
    out.push({
      limit: 'folder-files',
      text: `${f.fullest.path} holds ${formatCount(f.fullest.files)} files, over ${whose(budget, 'folder-files')} ${formatCount(limits['folder-files'])} in one folder.`,
      fixes: [OBJECT_STORE],
      flags: [],
    });
  }
  if (host.readsRedirects && limits.redirects !== undefined && f.redirectRules > limits.redirects) {
    out.push({
      limit: 'redirects',
      text: `_redirects holds ${formatCount(f.redirectRules)} rules, over the ${formatCount(limits.redirects)} ${host.title} applies.`,
      fixes: redirectFixes(budget),
      flags: ['--trim-redirects'],
    });
  }
  return out;
}

/** The failure's text: each limit passed with its numbers, then what to change. */
export function overrunReport(budget: HostBudget, overruns: readonly Overrun[], figures: SiteFigures | null): string {
  const lines = [`The site does not fit ${budget.host.title} (--host=${budget.host.name}); nothing was published.`];
  if (figures) lines.push(`Built: ${describeSite(figures)}; ${formatCount(figures.redirectRules)} _redirects rules.`);
  for (const o of overruns) {
    lines.push('', o.text, 'What to change:');
    for (const fix of o.fixes) lines.push(`  - ${fix}`);
  }
  // The options among the fixes, together: what to run next when the host stays the same.
  const flags = [...new Set(overruns.flatMap((o) => o.flags))];
  if (flags.length > 0) lines.push('', `Next: the same build with ${flags.join(' ')}.`);
  lines.push('', 'Limits and sources: docs/deploy.md, "Host limits".');
  return lines.join('\n');
}

/** `--max-index-files=N`: a whole number of at least 1 (the message index never writes more than 65,536). */
export function parseMaxIndexFiles(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1)) throw new Error(`--max-index-files=${value}: expected a whole number of at least 1, the most message index files to write (e.g. --max-index-files=2000).`);
  return n;
}
