/**
 * What a render process tells the build of each page it wrote, taken from the bytes as it writes them
 * rather than read back from the site: the SHA-256 of each error page (its proof for the page cache:
 * src/build/file-proofs.ts) and the head of each HTML page (its title, for the check that no two pages
 * share one: src/build/summary.ts). Written to a log per render process, beside its page log.
 */
import { hash } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';

/** What the title check needs of a page's head. */
export interface PageHead {
  /** The title as the HTML writes it (entities as they are); null: none. */
  title: string | null;
  noindex: boolean;
  redirect: boolean;
}

/**
 * A page's head from its text (a page's start suffices when it holds `</head>`). The title is a copy,
 * not V8's slice of the page: heads are kept by the hundred thousand, and a slice keeps its whole page.
 */
export function headOf(html: string): PageHead {
  const end = html.indexOf('</head>');
  const head = end === -1 ? html : html.slice(0, end);
  const title = /<title>([^<]*)<\/title>/.exec(head)?.[1];
  return {
    title: title === undefined ? null : (JSON.parse(JSON.stringify(title)) as string),
    noindex: /<meta name="robots" content="[^"]*noindex/.test(head),
    redirect: /<meta http-equiv="refresh"/.test(head),
  };
}

/** Enough of a page to hold its head, which comes first; a page whose head goes on is read whole. */
const HEAD_BYTES = 4096;
const headBuffer = Buffer.alloc(HEAD_BYTES);

/** A page's head read from its file: for pages no render process told of (an earlier build's). */
export function fileHead(file: string): PageHead {
  const fd = openSync(file, 'r');
  let text: string;
  try {
    text = headBuffer.toString('utf8', 0, readSync(fd, headBuffer, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
  return headOf(text.includes('</head>') ? text : readFileSync(file, 'utf8'));
}

/** The file Astro writes for a page's path in the site folder (`build.format: 'directory'`): `a/b/` -> `a/b/index.html`. */
export const pageFileOf = (sitePath: string): string => (sitePath.endsWith('/') ? `${sitePath}index.html` : sitePath).replace(/^\//, '');

/** The rendered-pages log beside a render process's page log. */
export const renderedLogOf = (pageLog: string): string => pageLog.replace(/(\.jsonl)?$/, '.rendered.jsonl');

/** One line of a rendered-pages log. */
interface RenderedLine {
  sha256: Record<string, string>;
  heads: Record<string, PageHead>;
}

/** What the render processes wrote, merged. */
export interface RenderedPages {
  /** Site file -> SHA-256 of its bytes (the HTML pages: error and listing pages among them). */
  sha256: Record<string, string>;
  /** Site file -> its head (HTML pages). */
  heads: Record<string, PageHead>;
}

/** Lines of at most this many pages, so that a process's log is written as it goes, not held. */
const LINE_PAGES = 500;

/** A render process's notes of the pages it writes. */
export class RenderedLog {
  private line: RenderedLine = { sha256: {}, heads: {} };
  private pages = 0;
  private readonly file: string;
  constructor(file: string) {
    this.file = file;
  }

  /** Notes a page about to be written: its head when it is HTML, its SHA-256 when `proof`. */
  note(file: string, bytes: Uint8Array, options: { html: boolean; proof: boolean }): void {
    if (options.proof) this.line.sha256[file] = hash('sha256', bytes);
    if (options.html) {
      // Only the head is decoded.
      const page = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const end = page.indexOf('</head>');
      this.line.heads[file] = headOf(page.toString('utf8', 0, end === -1 ? page.length : end));
    }
    if (++this.pages % LINE_PAGES === 0) this.flush();
  }

  flush(): void {
    if (Object.keys(this.line.sha256).length === 0 && Object.keys(this.line.heads).length === 0) return;
    appendFileSync(this.file, `${JSON.stringify(this.line)}\n`);
    this.line = { sha256: {}, heads: {} };
  }
}

/** The rendered-pages logs of all render processes (those that exist), merged. */
export function readRenderedLogs(files: readonly string[]): RenderedPages {
  const out: RenderedPages = { sha256: {}, heads: {} };
  for (const file of files) {
    if (!existsSync(file)) continue;
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (!text) continue;
      const line = JSON.parse(text) as RenderedLine;
      Object.assign(out.sha256, line.sha256);
      Object.assign(out.heads, line.heads);
    }
  }
  return out;
}
