/**
 * The lookup command's arguments, input and exit codes, apart from the process: `npm run lookup`
 * (scripts/lookup.ts) and the installable `errdex lookup` call `runLookup` with their arguments and
 * streams, and tests call it with their own. Exit codes: 0 found, 1 no entry, 2 usage or fetch error.
 */
import { parseArgs } from 'node:util';
import { formatJson, formatText } from './format.ts';
import { lookup } from './lookup.ts';
import { openSite, SiteError } from './site.ts';

export const EXIT = { found: 0, noEntry: 1, error: 2 } as const;

export const HELP = `errdex lookup --site <folder|url> [--json] [--timeout <s>] [paste …]

Looks a pasted error up in a built errdex site, as the site's search page does (the same message
index files and matcher), and prints the page to open, where the error is raised, what it means and
the first solution; or says that the catalog has no entry for it.

  python app.py 2>&1 | npm run lookup -- --site https://errors.example.org
  npm run lookup -- --site dist/ "ValueError: Unknown numeric column type: 1700"

  --site <folder|url>  the built site's folder (dist/) or the deployed site's http(s) URL,
                       with its base path (https://example.github.io/errdex/)
  --json               print the answer as JSON (status, url, raised, meaning, firstSolution, bytes…)
  --timeout <s>        seconds to wait for each file over HTTP (default 10)
  -h, --help           this text

The paste is the arguments (joined by spaces), or standard input when there are none (or "-").
Exit codes: 0 found, 1 the catalog has no entry for this error, 2 usage or fetch error.`;

/** Longest paste matched whole; a longer one keeps its head and tail, where the error lines are. */
export const MAX_PASTE = 1_000_000;

export interface LookupIo {
  stdin: AsyncIterable<string | Buffer> & { isTTY?: boolean };
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  fetch?: typeof fetch;
}

export async function runLookup(argv: readonly string[], io: LookupIo): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (e) {
    io.stderr(`${e instanceof Error ? e.message : String(e)}\n\n${HELP}\n`);
    return EXIT.error;
  }
  if (args.values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  const json = args.values.json === true;
  const fail = (message: string, usage = false) => {
    if (json) io.stdout(`${JSON.stringify({ status: 'error', error: message })}\n`);
    io.stderr(`errdex lookup: ${message}${usage ? `\n\n${HELP}` : ''}\n`);
    return EXIT.error;
  };
  const site = args.values.site;
  if (!site) return fail('--site is required: a built site folder (dist/) or its URL', true);
  const timeout = args.values.timeout === undefined ? 10 : Number(args.values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) return fail(`--timeout takes a number of seconds, not ${JSON.stringify(args.values.timeout)}`, true);

  const fromStdin = args.positionals.length === 0 || (args.positionals.length === 1 && args.positionals[0] === '-');
  if (fromStdin && io.stdin.isTTY) return fail('give the paste as arguments, or pipe it in: python app.py 2>&1 | npm run lookup -- --site …', true);
  const paste = cut(fromStdin ? await readAll(io.stdin) : args.positionals.join(' '));
  if (!paste.trim()) return fail('the paste is empty', true);

  try {
    const answer = await lookup(paste, await openSite(site, { timeoutMs: timeout * 1000, ...(io.fetch ? { fetch: io.fetch } : {}) }));
    io.stdout(json ? formatJson(answer) : formatText(answer));
    return answer.status === 'found' ? EXIT.found : EXIT.noEntry;
  } catch (e) {
    // A file that is not what an errdex site holds fails the lookup the same way as a missing one.
    return fail(e instanceof SiteError || !(e instanceof Error) ? String(e instanceof Error ? e.message : e) : `${site} does not read as an errdex site's index (${e.message})`);
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: { site: { type: 'string' }, json: { type: 'boolean' }, timeout: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
}

async function readAll(stream: AsyncIterable<string | Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** A paste past `MAX_PASTE`: its first quarter and last three quarters, as the site's boxes hand a long paste on (src/client/paste-box.ts). */
export function cut(paste: string): string {
  return paste.length > MAX_PASTE ? `${paste.slice(0, MAX_PASTE / 4)}\n…\n${paste.slice(paste.length - (MAX_PASTE * 3) / 4)}` : paste;
}
