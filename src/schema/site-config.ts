/**
 * A project's errdex.config.mjs: the default export it writes, checked with zod. Every problem names
 * its key, so that `errdex build` can say what to change (src/build/project.ts loads the file, checks
 * that the files it names exist, and applies the environment's overrides).
 */
import { z } from 'zod';
import { REPO } from './record.ts';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const line = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'must be one line, without control characters')
    .refine((s) => s.trim() !== '', 'must not be empty');

function httpUrl(origin: boolean) {
  return z.string().superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `must be an absolute URL such as https://example.org${origin ? '' : '/path'}; got ${JSON.stringify(text)}` });
      return;
    }
    if (/\s/.test(text) || CONTROL.test(text)) ctx.addIssue({ code: 'custom', message: 'must be a URL without spaces or control characters' });
    else if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: `must be an https: or http: URL; got ${url.protocol}` });
    else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not hold a user name or password' });
    else if (origin && (url.pathname !== '/' || url.search || url.hash)) {
      ctx.addIssue({ code: 'custom', message: `must be an origin such as https://example.org, with nothing after the host (a path goes in basePath); got ${JSON.stringify(text)}` });
    }
  });
}

/** A file of the project, relative to it (or absolute). */
const projectFile = (what: string, extensions: RegExp) =>
  z.string().min(1, 'must name a file').regex(extensions, `must be ${what}`);

export const IMAGE = /\.(svg|png|jpe?g|webp|gif|avif)$/i;

/** The keys of a project's errdex.config.mjs; each may be left out. */
export const SiteConfigFile = z.strictObject({
  /** Shown in the header, titles and Open Graph tags. */
  siteName: line(100).optional(),
  /** One line under the name on the home page and in the footer. */
  tagline: line(300).optional(),
  /** The public origin: canonical URLs, sitemaps, short links. */
  siteUrl: httpUrl(true).optional(),
  /** A sub-path such as /errdex for a project site on GitHub Pages; '' at a domain's root. */
  basePath: z
    .string()
    .refine((s) => s === '' || s.replace(/^\/+|\/+$/g, '').split('/').every((seg) => /^[A-Za-z0-9._~-]+$/.test(seg) && seg !== '.' && seg !== '..'), {
      message: 'must be a path such as /errdex: segments of letters, digits, ".", "_", "~" and "-", no "." or ".."',
    })
    .optional(),
  /** The catalog's tracker: "Report a problem with this entry" opens a prefilled issue there. */
  reportIssueUrl: httpUrl(false).optional(),
  /** The catalog: a folder searched for *.json and *.jsonl files, or one file (default: data). */
  catalog: z.string().min(1, 'must name a folder or file').optional(),
  /** The output folder (default: dist). */
  outDir: z.string().min(1, 'must name a folder').optional(),
  /** An image shown before the site's name in the header. */
  logo: projectFile('an image file (.svg, .png, .jpg, .webp, .gif or .avif)', IMAGE).optional(),
  /** Stylesheets applied after errdex's own, in this order (colours: the custom properties of src/styles/tokens.css). */
  customCss: z.array(projectFile('a .css file', /\.css$/i)).optional(),
  /**
   * Components replaced by the project's own: the path of an errdex component below src/components/
   * (such as `error/Solutions.astro`) -> the project's .astro file, which takes the same props.
   */
  components: z.record(z.string().regex(/^[\w-]+(\/[\w-]+)*\.astro$/, 'must be a component path such as error/Solutions.astro'), projectFile('an .astro file', /\.astro$/i)).optional(),
  /**
   * What the catalog's repositories are, by `owner/name` as the records name them: a line shown under
   * the repository's name on its page and on the home page, and the project's own site linked beside
   * GitHub. A repository left out shows its counts alone.
   */
  repositories: z
    .record(
      z.string().regex(REPO, 'must be a repository as the records name it, such as owner/name'),
      z.strictObject({
        /** One line: what the repository is. */
        description: line(300).optional(),
        /** The project's own site or documentation. */
        homepage: httpUrl(false).optional(),
      }),
    )
    .optional(),
});
export type SiteConfigFile = z.infer<typeof SiteConfigFile>;

/** Every problem of a config file's default export, each as `key: what is wrong` (the key's full path). */
export function siteConfigProblems(value: unknown): { config: SiteConfigFile; problems: [] } | { config: null; problems: string[] } {
  const parsed = SiteConfigFile.safeParse(value);
  if (parsed.success) return { config: parsed.data, problems: [] };
  const problems = parsed.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [null];
    return keys.map((k) => {
      const path = [...issue.path, ...(k === null ? [] : [k])].map(String).join('.');
      // A record's wrong key: zod says "Invalid key", the key's own issue says why.
      const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
      return k === null ? `${path || '(the default export)'}: ${message}` : `${path}: not a setting errdex knows`;
    });
  });
  return { config: null, problems: problems.flat() };
}
