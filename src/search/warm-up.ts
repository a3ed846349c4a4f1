/**
 * A throwaway match the search page's worker runs when the page opens, before anyone has pasted.
 * A fresh page's first paste otherwise runs the matcher's code cold: each function interpreted
 * until the engine has seen it run often enough to compile it, and a paste's candidates (hundreds
 * of templates, each parsed, split into words, matched and aligned with the paste) are what runs
 * it that often. So the warm-up runs the whole path (normalising a log line, a traceback and a
 * typo; keys; hole patterns and RE2; close matches) on a few built-in templates, then on a generated catalog
 * of a few hundred, in steps that give way to a real paste arriving meanwhile. It fetches nothing.
 */
import { matchPaste, type PasteMatch } from './matcher.ts';
import { INDEX_FORMAT, toTuple, type EntryTuple, type IndexEntry, type MessageIndexManifest } from './message-index.ts';

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

const MANIFEST: MessageIndexManifest = { format: INDEX_FORMAT, version: 'warm', folders: ['warm'], shards: 1, seed: 0, records: ENTRIES.length, keysPerRecord: 1, common: [] };
const TUPLES = ENTRIES.map(toTuple);

/** Runs the built-in pastes through the matcher; returns what it found (for tests). */
export async function warmUp(): Promise<PasteMatch[]> {
  const out: PasteMatch[] = [];
  for (const paste of PASTES) out.push(await matchPaste(paste, MANIFEST, async () => TUPLES, 5));
  return out;
}

const WORDS = (
  'connection timeout invalid argument column table mapper relationship schema validator expected attribute instance ' +
  'session query statement registered configuration option package module function method value field model annotation ' +
  'parameter request response buffer worker thread runtime signal socket handler plugin resolver cache index token parser ' +
  'compiler decoder encoder stream channel process version dialect engine backend constraint type class object element ' +
  'collection sequence keyed supplied determine cannot unable could not found must should already exists required unknown ' +
  'missing failed support allowed defined the a of to for in on with is be'
).split(' ');

/** A small deterministic generator (the same catalog on every page). */
function* numbers(seed: number): Generator<number> {
  let s = seed >>> 0;
  for (;;) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    yield s / 2 ** 32;
  }
}

const HOLES = ['{name}', '{}', '%s', "'{value!r}'", '#{id}', '{count:>4}', '"{path}"', '%(key)s'];
/** The regex group a placeholder becomes, when not `(.+?)`. */
const HOLE_GROUPS: Record<string, string> = { '{count:>4}': '\\s*(\\d+)' };

/** A generated catalog: templates of the vocabulary's words and placeholders of each syntax, with their patterns. */
function generatedCatalog(count: number): IndexEntry[] {
  const rand = numbers(0x5eed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand.next().value! * xs.length)]!;
  const out: IndexEntry[] = [];
  for (let i = 0; i < count; i++) {
    const length = 5 + Math.floor(rand.next().value! * 14);
    const template: string[] = [];
    const pattern: string[] = [];
    for (let j = 0; j < length; j++) {
      if (j > 0 && rand.next().value! < 0.18) {
        const hole = pick(HOLES);
        template.push(hole);
        const quote = /^['"]/.exec(hole)?.[0] ?? '';
        pattern.push(HOLE_GROUPS[hole] ?? `${quote}(.+?)${quote}`);
      } else {
        const word = pick(WORDS);
        template.push(word);
        pattern.push(word);
      }
    }
    out.push(entry(`g${i}`, template.join(' '), pattern.join(' '), i % 3 === 0 ? pick(['ValueError', 'TypeError', 'ArgumentError']) : null));
  }
  return out;
}

/** Pastes of the generated catalog: exact, with a word changed, cut short, and with a traceback. */
function generatedPastes(entries: readonly IndexEntry[]): string[] {
  const fill = (t: string) => t.replace(/\{[^}]*\}|%\(key\)s|%s|#\{id\}/g, (_, i: number) => (i % 2 ? 'max_tokens' : '42'));
  const at = (i: number) => fill(entries[(i * 37) % entries.length]!.template);
  return [
    `ValueError: ${at(1)}`,
    at(2).replace(/\b(\w)(\w)(\w+)/, '$2$1$3'),
    at(3).slice(0, Math.ceil(at(3).length * 0.6)),
    `Traceback (most recent call last):\n  File "/srv/app/warm/g4.py", line 1, in handler\n    raise TypeError(msg)\nTypeError: ${at(4).replace(/ the /, ' ')}`,
    `2026-08-14 21:17:39,825 ERROR [worker] ${at(5)}`,
  ];
}

/** Templates in the generated catalog: about as many as a long paste's candidates. */
const GENERATED = 300;

/** The generated catalog's pastes, matched one at a time, giving way between them; returns what they found (for tests). */
export async function generatedWarmUp(): Promise<PasteMatch[]> {
  const entries = generatedCatalog(GENERATED);
  const tuples: EntryTuple[] = entries.map(toTuple);
  const manifest: MessageIndexManifest = { ...MANIFEST, records: entries.length };
  const out: PasteMatch[] = [];
  for (const paste of generatedPastes(entries)) {
    // A paste that arrives meanwhile is matched before the next step.
    await new Promise((resolve) => setTimeout(resolve, 0));
    out.push(await matchPaste(paste, manifest, async () => tuples, 20));
  }
  return out;
}

/** The warm-up for a fresh page: the built-in pastes, then the generated catalog's. */
export async function warmUpFully(): Promise<void> {
  await warmUp();
  await generatedWarmUp();
}
