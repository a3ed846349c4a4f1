/**
 * A throwaway match the search page's worker runs when the page opens, before anyone has pasted:
 * a paste's first match otherwise also pays for compiling the matcher's code and regular
 * expressions (tens of milliseconds). It runs the whole path (normalising a log line, a traceback
 * and a typo; keys; RE2; close matches) on a few built-in templates, fetching nothing.
 */
import { matchPaste, type PasteMatch } from './matcher.ts';
import { INDEX_FORMAT, toTuple, type IndexEntry, type MessageIndexManifest } from './message-index.ts';

const entry = (id: string, template: string, pattern: string, errorClass: string | null): IndexEntry => ({
  id,
  repo: 'warm/up',
  slug: id,
  template,
  pattern,
  errorClass,
  severity: 'error',
  errorType: 'exception',
  language: 'Python',
  tags: [],
  summary: '',
  file: `warm/${id}.py`,
  line: 1,
  scope: null,
  messagePage: null,
});

const ENTRIES = [
  entry('w1', 'timed out after {secs}s waiting for {what}', 'timed out after (\\d+)s waiting for (.+?)', 'TimeoutError'),
  entry('w2', 'failed to open socket {path}: {err}', 'failed to open socket (.+?): (.+)', 'OSError'),
  entry('w3', "unknown option '{name}' (expected one of {choices})", "unknown option '(.+?)' \\(expected one of (.+?)\\)", null),
  entry('w4', 'KV cache block {block_id} not found for request {request_id!r}', 'KV cache block (\\d+) not found for request (.+?)', 'KeyError'),
];

const PASTES = [
  '\u001b[33m2026-08-14T21:17:39.825Z ERROR\u001b[0m timed out after 30s waiting for handshake',
  'Traceback (most recent call last):\n  File "/app/x.py", line 3, in <module>\n    get()\nKeyError: "KV cache block 7 not found for request \'cmpl-1\'"',
  "unknown optoin 'verbose' (expected one of [a, b])",
  'failed to open sock',
];

const MANIFEST: MessageIndexManifest = { format: INDEX_FORMAT, version: 'warm', shards: 1, seed: 0, records: ENTRIES.length, keysPerRecord: 1, common: [] };
const TUPLES = ENTRIES.map(toTuple);

/** Runs the built-in pastes through the matcher; returns what it found (for tests). */
export async function warmUp(): Promise<PasteMatch[]> {
  const out: PasteMatch[] = [];
  for (const paste of PASTES) out.push(await matchPaste(paste, MANIFEST, async () => TUPLES, 5));
  return out;
}
