/** Host budgets (src/build/hosts.ts): the options, what a catalog must hold at the least, the built site's check and the report. */
import { describe, expect, it } from 'vitest';
import {
  earlyOverruns,
  estimateFiles,
  fittingOptions,
  leastSite,
  overrunReport,
  parseHostBudget,
  parseMaxIndexFiles,
  siteOverruns,
} from '../../../src/build/hosts.ts';
import type { SiteFigures } from '../../../src/build/summary.ts';

const facts = (records: number, maxFragments?: number, maxIndexFiles?: number) => ({ records, maxFragments, maxIndexFiles });

const figures = (over: Partial<SiteFigures>): SiteFigures => ({
  files: 100,
  bytes: 1_000,
  largest: { path: 'index.html', bytes: 10 },
  fullest: { path: 'api/errors/', files: 10 },
  redirectRules: 10,
  fragmentFiles: 10,
  messageIndexFiles: 10,
  ...over,
});

describe('parseHostBudget', () => {
  it('takes a host, its published limits and --host-limit overrides', () => {
    const budget = parseHostBudget('cloudflare-pages', ['files=100000'], true)!;
    expect(budget.limits).toEqual({ files: 100_000, 'file-bytes': 25 * 2 ** 20, redirects: 2_000 });
    expect(budget.overridden).toEqual(['files']);
    expect(parseHostBudget('github-pages', [], false)!.limits).toEqual({ bytes: 1_000_000_000 });
    expect(parseHostBudget('static', [], false)!.limits).toEqual({});
    expect(parseHostBudget(undefined, [], false)).toBeNull();
  });

  it('refuses what it cannot check, saying what it takes', () => {
    expect(() => parseHostBudget('vercel', [], false)).toThrow('--host must be one of github-pages, cloudflare-pages, netlify, static; got "vercel".');
    expect(() => parseHostBudget('static', ['files=0'], false)).toThrow('--host-limit takes NAME=N');
    expect(() => parseHostBudget('static', ['pages=10'], false)).toThrow('NAME one of files, bytes, file-bytes, folder-files, redirects');
    expect(() => parseHostBudget(undefined, ['files=10'], false)).toThrow('--host-limit needs --host');
    expect(() => parseHostBudget('github-pages', [], true)).toThrow('--trim-redirects: GitHub Pages has no redirect rule limit');
    expect(() => parseMaxIndexFiles('0')).toThrow('--max-index-files=0: expected a whole number of at least 1');
    expect(parseMaxIndexFiles('2000')).toBe(2000);
  });
});

describe('the check once the records are counted', () => {
  it('counts what every record must have: page, short link, JSON twin, fragment (unless bundled), short-link rule', () => {
    expect(leastSite(facts(30_000))).toEqual({ files: 120_000, folderFiles: 30_000, redirects: 30_000 });
    expect(leastSite(facts(30_000, 750))).toEqual({ files: 90_001, folderFiles: 30_000, redirects: 30_000 });
  });

  it('fails 30,000 records on Cloudflare Pages Free with the count, and names the plan and options that fit', () => {
    const budget = parseHostBudget('cloudflare-pages', [], false)!;
    const overruns = earlyOverruns(budget, facts(30_000));
    expect(overruns.map((o) => o.limit)).toEqual(['files', 'redirects']);
    const report = overrunReport(budget, overruns, null);
    expect(report).toContain(
      "30,000 records make at least 120,000 files (an error page, short link, JSON twin and full-text fragment each), over Cloudflare Pages (Free)'s 20,000 files per site.",
    );
    expect(report).toContain('no option makes 30,000 records fit 20,000 files');
    expect(report).toContain('_redirects will hold at least 30,000 rules (one per short link), over the 2,000 Cloudflare Pages (Free) applies.');
    const next = /Next: the same build with (.+)\.$/m.exec(report)![1]!;
    expect(next).toMatch(/^--host-limit files=100000 --max-fragments=750 --max-index-files=\d+ --trim-redirects$/);
    // Those options pass the check they were offered for.
    const indexFiles = Number(/--max-index-files=(\d+)/.exec(next)![1]);
    const fixed = parseHostBudget('cloudflare-pages', ['files=100000'], true)!;
    expect(earlyOverruns(fixed, facts(30_000, 750, indexFiles))).toEqual([]);
    expect(estimateFiles(30_000, 750, indexFiles)).toBeLessThanOrEqual(95_000);
  });

  it('passes a catalog that fits, and offers only what is needed', () => {
    const budget = parseHostBudget('cloudflare-pages', [], true)!;
    expect(earlyOverruns(budget, facts(4_000))).toEqual([]);
    expect(fittingOptions(facts(5_000), 20_000)).toEqual({ flags: ['--max-fragments=125'], estimate: estimateFiles(5_000, 125, undefined) });
    expect(fittingOptions(facts(7_000), 20_000)).toBeNull();
  });

  it('fails Netlify past 54,000 records: api/errors/ holds one file per record', () => {
    const overruns = earlyOverruns(parseHostBudget('netlify', [], false)!, facts(60_000));
    expect(overruns.map((o) => o.text)).toEqual(["60,000 records put 60,000 JSON twins in api/errors/, over Netlify's 54,000 files in one folder."]);
  });
});

describe('the check of the built site', () => {
  it('names each limit passed with its numbers, and what to change', () => {
    const budget = parseHostBudget('cloudflare-pages', ['files=50'], false)!;
    const site = figures({ files: 120, largest: { path: 'pagefind/fragment/x.pf_fragment', bytes: 30 * 2 ** 20 }, redirectRules: 3_000, fragmentFiles: 80 });
    const overruns = siteOverruns(budget, facts(100), site);
    expect(overruns.map((o) => o.limit)).toEqual(['files', 'file-bytes', 'redirects']);
    expect(overruns[0]!.text).toBe(
      'The site has 120 files (80 full-text fragments, 10 message index files), over the --host-limit files of 50 files per site by 70.',
    );
    expect(overruns[0]!.flags).toEqual(['--max-fragments=3']);
    expect(overruns[1]!.text).toBe("pagefind/fragment/x.pf_fragment is 31 MB, over Cloudflare Pages (Free)'s 26 MB per file.");
    expect(overruns[2]!.flags).toEqual(['--trim-redirects']);
  });

  it('checks bytes (GitHub Pages) and folders (Netlify); a host that reads no _redirects has no rule limit', () => {
    expect(
      siteOverruns(parseHostBudget('github-pages', [], false)!, facts(10), figures({ bytes: 1_200_000_000, redirectRules: 50_000 })).map((o) => o.text),
    ).toEqual(["The site is 1.2 GB (1,200,000,000 bytes), over GitHub Pages' 1.0 GB per site."]);
    expect(
      siteOverruns(parseHostBudget('netlify', [], false)!, facts(10), figures({ fullest: { path: 'api/errors/', files: 60_000 } })).map((o) => o.limit),
    ).toEqual(['folder-files']);
    expect(siteOverruns(parseHostBudget('static', [], false)!, facts(10), figures({ files: 10 ** 7, bytes: 10 ** 12 }))).toEqual([]);
  });
});
