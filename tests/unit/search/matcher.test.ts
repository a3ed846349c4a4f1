import { describe, expect, it } from 'vitest';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { wordKey } from '../../../src/search/keys.ts';
import { distinctiveWords, matchPaste, queryKeys, rankCandidates } from '../../../src/search/matcher.ts';
import { buildMessageIndex, indexEntry, type EntryTuple } from '../../../src/search/message-index.ts';
import { normalisePaste } from '../../../src/search/normalise.ts';
import { applyFilters, facets, excerptSegments, fullTextQuery, hitFromMatch, hitHref, fullTextWanted, mergeHits, type SearchHit } from '../../../src/search/results.ts';
import { sampleWrapped } from '../../support/records.ts';

let n = 0;
function record(errorMessage: string, messagePattern: string, extra: Partial<ErrorRecord> = {}): ErrorRecord {
  const base = sampleWrapped()[0]!.record as unknown as ErrorRecord;
  const id = (++n).toString(16).padStart(16, '0');
  return { ...base, id, slug: `e-${id}`, errorMessage, messagePattern, ...extra };
}

const records = [
  record('frame {id} not found', 'frame (.+?) not found', { errorClass: 'KeyError' }),
  record('frame {id} not found in buffer {buf}', 'frame (.+?) not found in buffer (.+?)', { errorClass: 'KeyError' }),
  record('unsupported auxiliary frame(s): expected 1 frame, got {frame_count}', 'unsupported auxiliary frame\\(s\\): expected 1 frame, got (\\d+)', { errorClass: 'ValueError' }),
  record('failed to open socket {path}', 'failed to open socket (.+?)', { errorClass: 'OSError', repo: 'acme/net' }),
  record('failed to open socket {path}', 'failed to open socket (.+?)', { errorClass: 'ConnectionError', repo: 'acme/other' }),
  record('timed out after {secs}s waiting for handshake', 'timed out after (\\d+)s waiting for handshake', { errorClass: null }),
];
const built = buildMessageIndex(records, { targetShardBytes: 300 });
const load = async (i: number) => JSON.parse(built.shards[i]!) as EntryTuple[];
const top = async (paste: string) => (await matchPaste(paste, built.manifest, load)).results;

describe('matchPaste', () => {
  it('puts the exact template first and shows the values', async () => {
    const [r] = await top('ValueError: unsupported auxiliary frame(s): expected 1 frame, got 3');
    expect(r!.entry.id).toBe(records[2]!.id);
    expect(r!.kind).toBe('exact');
    expect(r!.values).toEqual([{ raw: '{frame_count}', name: 'frame_count', value: '3' }]);
  });

  it('prefers the most specific of several matching templates', async () => {
    const results = await top('frame 7 not found in buffer 2');
    expect(results[0]!.entry.id).toBe(records[1]!.id);
    expect(results[0]!.kind).toBe('exact');
  });

  it('breaks a tie between identical templates with the class the paste named', async () => {
    expect((await top('ConnectionError: failed to open socket /tmp/a.sock'))[0]!.entry.repo).toBe('acme/other');
    expect((await top('OSError: failed to open socket /tmp/a.sock'))[0]!.entry.repo).toBe('acme/net');
  });

  it('finds the error inside a traceback and a wrapped, coloured log line', async () => {
    const trace = `Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n    f()\nKeyError: 'frame 9 not found in buffer 3'`;
    expect((await top(trace))[0]!.entry.id).toBe(records[1]!.id);
    const line = '\u001b[31m2026-08-14T21:17:39Z ERROR\u001b[0m unsupported auxiliary frame(s): expected 1 frame, got 12';
    expect((await top(`${line.slice(0, 50)}\n${line.slice(50)}`))[0]!.entry.id).toBe(records[2]!.id);
  });

  it('ranks close misses: a typo, a truncation, a changed word', async () => {
    for (const paste of ['unsuported auxilary frame(s): expected 1 frame, got 3', 'unsupported auxiliary frame(s): expected 1 fr', 'timed out after 30s waiting for the handshake']) {
      const [r] = await top(paste);
      expect(r?.kind, paste).toBe('close');
    }
    expect((await top('unsuported auxilary frame(s): expected 1 frame, got 3'))[0]!.entry.id).toBe(records[2]!.id);
    expect((await top('timed out after 30s waiting for the handshake'))[0]!.entry.id).toBe(records[5]!.id);
  });

  it('prefers a longer template with one damaged word to a short one whose last placeholder swallowed the rest', () => {
    const short = indexEntry(record('process must be positive, got {value}', 'process must be positive, got (.+)'));
    const long = indexEntry(record('process must be positive, got {value} (in signal address)', 'process must be positive, got (.+?) \\(in signal address\\)'));
    const rank = (paste: string) => rankCandidates(normalisePaste(paste), [short, long]).map((r) => r.entry.id);
    expect(rank('process must be positive, got 7 (in signal adress)')[0]).toBe(long.id); // typo
    expect(rank('process must be positive, got 7 (in address)')[0]).toBe(long.id); // dropped word
    expect(rank('process must be positive, got 7 (in sig')[0]).toBe(long.id); // cut short
    expect(rank('process must be positive, got 7 (in signal address)')[0]).toBe(long.id);
    expect(rank('process must be positive, got 7')[0]).toBe(short.id);
    expect(rank('process must be positive, got -3 at startup')[0]).toBe(short.id);
  });

  it('puts a near miss that explains the whole line before a template found inside it', () => {
    const inner = indexEntry(record('zone was already upgraded', 'zone was already upgraded'));
    const whole = indexEntry(record('request.zone was already upgraded', 'request\\.zone was already upgraded'));
    const rank = (paste: string) => rankCandidates(normalisePaste(paste), [inner, whole]).map((r) => `${r.kind} ${r.entry.id}`);
    expect(rank('rqeuest.zone was already upgraded')).toEqual([`close ${whole.id}`, `contained ${inner.id}`]); // typo outside the inner template
    expect(rank('request.zone was already upgraded')).toEqual([`exact ${whole.id}`, `contained ${inner.id}`]);
    // What the inner template leaves out is no closer to the other: the found template stays first.
    expect(rank('node3 zone was already upgraded')[0]).toBe(`contained ${inner.id}`);
  });

  it('ranks a near miss with one word changed before one with a word changed and a value missing', () => {
    const one = indexEntry(record('cannot authenticate cluster while shutdown is in progress', 'cannot authenticate cluster while shutdown is in progress'));
    const two = indexEntry(record('cannot convert cluster {id} while shutdown is in progress', 'cannot convert cluster (.+?) while shutdown is in progress'));
    expect(rankCandidates(normalisePaste('cannot cluster while shutdown is in progress'), [two, one])[0]!.entry.id).toBe(one.id);
  });

  it('lets fuse.js decide between near misses the word alignment cannot tell apart', () => {
    // Both templates differ from the paste by one changed word (`dialcte` is two slips from
    // `dialect`, so not a typo to the alignment): only the characters show which it was.
    const other = indexEntry(record('failed to load {path}: unknown cluster', 'failed to load (.+?): unknown cluster'));
    const target = indexEntry(record('failed to load {path}: unknown dialect', 'failed to load (.+?): unknown dialect'));
    expect(other.id < target.id).toBe(true); // without fuse.js the tie would go to `other`
    const results = rankCandidates(normalisePaste('failed to load /etc/x.conf: unknown dialcte'), [other, target]);
    expect(results.map((r) => r.kind)).toEqual(['close', 'close']);
    expect(results[0]!.entry.id).toBe(target.id);
  });

  it('looks up the pairs that meet once values are set aside', () => {
    const keys = queryKeys(normalisePaste('queue "layer_3" is not a valid certificate'));
    expect(keys).toContain(`${wordKey('queue')} ${wordKey('is')}`);
  });

  it('fetches only the shards of the paste’s keys', async () => {
    const r = await matchPaste('failed to open socket x', built.manifest, load);
    expect(r.shards.length).toBeLessThan(built.manifest.shards);
    expect(r.shards.length).toBeGreaterThan(0);
  });

  it('finds nothing for an unrelated paste and for a blank one', async () => {
    expect(await top('')).toEqual([]);
    expect((await top('zebra quantum lollipop')).length).toBe(0);
  });
});

describe('a message at the end of a chain of contexts', () => {
  // A template that starts with a placeholder can take the whole chain as its value, for few edits.
  const chain = [
    record('Cannot instantiate a TypedColumns object.', 'Cannot instantiate a TypedColumns object\\.', { errorClass: 'InvalidRequestError' }),
    record('String is not true/false: {value!r}', 'String is not true/false: (.+?)', { errorClass: 'ValueError' }),
    record('{co!r} is not a code object', '(.+?) is not a code object', { errorClass: 'TypeError' }),
    record('error = {e:?}', 'error = (.+?)', { errorClass: null }),
  ];
  const index = buildMessageIndex(chain, { targetShardBytes: 300 });
  const shardLoad = async (i: number) => JSON.parse(index.shards[i]!) as EntryTuple[];
  const results = async (paste: string) => (await matchPaste(paste, index.manifest, shardLoad)).results;

  it('is found whole, however long the chain before it, with its values', async () => {
    for (const paste of ['Error from server (BadRequest): Cannot instantiate a TypedColumns object.', 'docker: Error response from daemon: failed to create task: Cannot instantiate a TypedColumns object.']) {
      const [r] = await results(paste);
      expect([r?.entry.id, r?.kind, r?.line], paste).toEqual([chain[0]!.id, 'contained', 'Cannot instantiate a TypedColumns object.']);
    }
    const [r] = await results("docker: Error response from daemon: String is not true/false: 'cpu'.");
    expect([r?.entry.id, r?.kind, r?.values?.map((v) => v.value)]).toEqual([chain[1]!.id, 'contained', ["'cpu'"]]);
  });

  it('is not read inside a line it does not end', async () => {
    const [r] = await results('Error from server (BadRequest): Cannot instantiate a TypedColumns object, retrying in 5s with a larger pool');
    expect(r?.kind).not.toBe('contained');
  });
});

describe('a paste cut a few letters into its message', () => {
  // `invalid` and `token` are too common to file under (maxShared): `invalid token: {token}` is
  // filed under its class key too, which `ArgumentError: invalid t` still shows.
  const many = [
    record('invalid token: {token}', 'invalid token: (.+?)', { errorClass: 'sqlalchemy.exc.ArgumentError' }),
    record('invalid token type {kind} in stream', 'invalid token type (.+?) in stream', { errorClass: 'TypeError' }),
    ...Array.from({ length: 12 }, (_, i) => record(`invalid token ${'q'.repeat(i + 3)} for {name}`, `invalid token ${'q'.repeat(i + 3)} for (.+?)`, { errorClass: 'ValueError' })),
  ];
  const index = buildMessageIndex(many, { targetShardBytes: 300, maxShared: 4 });
  const shardLoad = async (i: number) => JSON.parse(index.shards[i]!) as EntryTuple[];
  const first = async (paste: string) => (await matchPaste(paste, index.manifest, shardLoad)).results[0]?.entry.id;

  it('finds its record by the class and the first letters', async () => {
    expect(await first('ArgumentError: invalid t')).toBe(many[0]!.id);
    expect(await first('TypeError: invalid tok')).toBe(many[1]!.id);
  });

  it('looks the class key up only for a short line that names a class', () => {
    expect(queryKeys(normalisePaste('ArgumentError: invalid t'))).toContain('argumenterror inv^');
    expect(queryKeys(normalisePaste('invalid t')).some((k) => k.endsWith('^'))).toBe(false);
    expect(queryKeys(normalisePaste('ArgumentError: invalid token qqqq for the stream x in mapper y')).some((k) => k.endsWith('^'))).toBe(false);
  });
});

describe('rankCandidates under hostile input', () => {
  it('answers for a 1 MB paste', () => {
    const paste = normalisePaste(`${'frame '.repeat(200_000)}not found`);
    const results = rankCandidates(paste, records.map((r) => indexEntry(r)));
    expect(Array.isArray(results)).toBe(true);
  });

  it('runs a valid but polynomial pattern on RE2: it still matches, and a crafted line does not hang', () => {
    const slow = record('{a} {b} {c} {d} {e}x', '(.*) (.*) (.*) (.*) (.*)x');
    const [hit] = rankCandidates(normalisePaste('p q r s tx'), [indexEntry(slow)]);
    expect(hit?.kind).toBe('exact');
    // Backtracking would try ~10^12 splits of this line before failing; RE2 reads it once.
    const crafted = rankCandidates(normalisePaste(`${'a '.repeat(1_999)}a`), [indexEntry(slow)]);
    expect(crafted.filter((r) => r.kind !== 'close')).toEqual([]);
  });

  it('skips the regex check for a pattern RE2 cannot run (lookahead, back-reference) instead of crashing', () => {
    const look = record('lease {id} expired', 'lease (?=\\w)(\\w+) expired');
    const back = record('key {k} equals {k}', 'key (\\w+) equals \\1');
    const results = rankCandidates(normalisePaste('lease abc expired\nkey ab equals ab'), [indexEntry(look), indexEntry(back)]);
    expect(results.every((r) => r.kind === 'close')).toBe(true);
  });
});

describe('one result list', () => {
  const textHit = (path: string): SearchHit => ({ path, kind: 'text', template: 't', repo: 'r/r', errorClass: null, values: null, line: null, snippet: [], site: null, filters: { repo: ['r/r'] } });

  it('puts exact matches first, then full-text results, then weak near misses, without repeats', async () => {
    const matches = await matchPaste('frame 7 not found in buffer 2', built.manifest, load);
    expect(fullTextWanted(matches.results)).toBe(false);
    const exactPath = `/${records[1]!.repo}/${records[1]!.slug}/`;
    const merged = mergeHits(matches.results, [textHit('/x/y/z/'), textHit(exactPath)]);
    expect(merged[0]!.path).toBe(exactPath);
    expect(merged.filter((h) => h.path === exactPath)).toHaveLength(1);
    expect(merged.map((h) => h.path)).toContain('/x/y/z/');
  });

  it('keeps a near miss the matcher put above an exact match above it, whatever its score', () => {
    const short = indexEntry(record('{name} is required', '(.+?) is required'));
    const long = indexEntry(record('Release commit subject is required', 'Release commit subject is required'));
    const results = rankCandidates(normalisePaste('Release commit subject still is required'), [short, long]);
    expect(results.map((r) => [r.entry.id, r.kind])).toEqual([
      [long.id, 'close'],
      [short.id, 'exact'],
    ]);
    expect(mergeHits(results, []).map((h) => h.path)).toEqual([`/${long.repo}/${long.slug}/`, `/${short.repo}/${short.slug}/`]);
  });

  it('links to the page with the pasted line in the fragment, #m=', async () => {
    const [r] = (await matchPaste('frame 7 not found', built.manifest, load)).results;
    expect(hitHref(hitFromMatch(r!), '/docs')).toBe(`/docs/${r!.entry.repo}/${r!.entry.slug}/#m=frame%207%20not%20found`);
  });

  it('counts and applies filters', () => {
    const hits = [textHit('/a/'), { ...textHit('/b/'), filters: { repo: ['o/x'], tag: ['io', 'net'] } }];
    expect(facets(hits, ['repo', 'tag']).repo).toEqual([{ value: 'o/x', count: 1 }, { value: 'r/r', count: 1 }]);
    expect(applyFilters(hits, { tag: 'net' }).map((h) => h.path)).toEqual(['/b/']);
    expect(applyFilters(hits, {})).toHaveLength(2);
  });

  it('reads Pagefind excerpts as text, never as markup', () => {
    expect(excerptSegments('a <mark>frame</mark> &lt;img src=x onerror=alert(1)&gt; b')).toEqual([
      { text: 'a ', mark: false },
      { text: 'frame', mark: true },
      { text: ' <img src=x onerror=alert(1)> b', mark: false },
    ]);
  });

  it('gives Pagefind a few distinctive words of the error line: no values, no common words', () => {
    const paste = normalisePaste("ValueError: failed to open socket '/tmp/a b.sock' after 3 retries 0xdeadbeef");
    const words = distinctiveWords(paste, new Set([wordKey('failed'), wordKey('after')]));
    expect(words).toEqual(['open', 'socket', 'retries']);
    expect(fullTextQuery('whatever was pasted', words)).toBe('open socket retries');
    expect(fullTextQuery('timed out   waiting for the lease', null)).toBe('timed out waiting');
    // Values are no words of any page.
    expect(fullTextQuery('2026-08-14T21:17:39Z /var/log/x.log: 42 queue "q1" stalled', null)).toBe('queue stalled');
  });

  it('runs full-text search on its own only when the matcher has nothing to show', async () => {
    expect(fullTextWanted([])).toBe(true);
    expect(fullTextWanted((await matchPaste('frame 7 not fond', built.manifest, load)).results)).toBe(false);
  });
});
