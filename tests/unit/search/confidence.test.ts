import { describe, expect, it } from 'vitest';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { isConfident, noConfidentMatch, possiblyRelated } from '../../../src/search/confidence.ts';
import { classClash, nameFinder } from '../../../src/search/class-prefix.ts';
import { wordKey } from '../../../src/search/keys.ts';
import { matchPaste } from '../../../src/search/matcher.ts';
import { buildMessageIndex, type EntryTuple } from '../../../src/search/message-index.ts';
import { sampleWrapped } from '../../support/records.ts';

let n = 0;
function record(errorMessage: string, messagePattern: string): ErrorRecord {
  const base = sampleWrapped()[0]!.record as unknown as ErrorRecord;
  const id = (++n).toString(16).padStart(16, '0');
  return { ...base, id, slug: `e-${id}`, errorMessage, messagePattern };
}

const records = [
  record('{attr} cannot load the existing state from the database for this operation', '(.+?) cannot load the existing state from the database for this operation'),
  record('Could not determine join condition between parent/child tables on relationship {prop}', 'Could not determine join condition between parent/child tables on relationship (.+?)'),
  record('{name} is required', '(.+?) is required'),
];
const built = buildMessageIndex(records, { targetShardBytes: 300 });
const load = async (i: number) => JSON.parse(built.shards[i]!) as EntryTuple[];
const match = async (paste: string) => (await matchPaste(paste, built.manifest, load)).results;

describe('no confident match', () => {
  it('is confident of an exact match with enough literal text, and of a close one that explains the line', async () => {
    expect(noConfidentMatch(await match('Could not determine join condition between parent/child tables on relationship Parent.kids'))).toBe(false);
    expect(noConfidentMatch(await match('Could not determine join condtion between parent/child tables on relationship Parent.kids'))).toBe(false);
    // Cut short inside a word.
    expect(noConfidentMatch(await match('Could not determine join condition between parent/child tab'))).toBe(false);
  });

  it('is confident of a near miss whose only difference is text after the whole template', async () => {
    const closed = record('Connection is closed', 'Connection is closed');
    const index = buildMessageIndex([...records, closed], { targetShardBytes: 300 });
    const results = (await matchPaste('Connection is closed (see logs)', index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    expect(results[0]?.entry.id).toBe(closed.id);
    expect(results[0]?.kind).toBe('close');
    expect(results[0]!.score).toBeGreaterThan(0.3);
    expect(results[0]?.tailScore).toBeGreaterThan(0);
    expect(noConfidentMatch(results)).toBe(false);
  });

  it('is not confident when a template starting with a placeholder takes an unrelated line as its start', async () => {
    const results = await match('fatal: not a git repository (or any of the parent directories): .git');
    expect(noConfidentMatch(results)).toBe(true);
    expect(noConfidentMatch(await match('Got permission denied while trying to connect to the Docker daemon socket'))).toBe(true);
  });

  it("is not confident of a template that fits only a label of a compiler's code frame", async () => {
    const notFound = record('{name} not found in {tp}', '(.+?) not found in (.+?)');
    const index = buildMessageIndex([...records, notFound], { targetShardBytes: 300 });
    const find = async (paste: string) => (await matchPaste(paste, index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    const label = '  |       ^^^^^^^^^^ method not found in `Vec<u8>`';
    const rustc = `error[E0599]: no method named \`frobnicate\` found for struct \`Vec<u8>\` in the current scope\n --> src/main.rs:4:7\n  |\n4 |     v.frobnicate();\n${label}`;
    expect(noConfidentMatch(await find(rustc))).toBe(true);
    // The label's words alone, pasted as a message, fit the template.
    expect(noConfidentMatch(await find(label.replace(/^[ |^]+/, '')))).toBe(false);
  });

  it('is not confident of a short generic template making up little of a long line', async () => {
    const results = await match('the option --config-file-for-the-whole-workspace-and-all-of-its-packages is required');
    expect(results[0]?.kind).toBe('exact');
    expect(isConfident(results[0]!)).toBe(false);
  });

  it("is confident of a short template when the paste's frame is its raise site", async () => {
    const timer = { ...record('timer error: {e}', 'timer error: (.+?)'), filePath: 'tokio/src/time/sleep.rs', lineNumber: 467 };
    const index = buildMessageIndex([...records, timer], { targetShardBytes: 300 });
    const find = async (paste: string) => (await matchPaste(paste, index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    const message = 'timer error: No such file or directory (os error 2)';
    expect(noConfidentMatch(await find(message))).toBe(true);
    const located = await find(`thread 'main' panicked at tokio/src/time/sleep.rs:467:10:\n${message}`);
    expect(located[0]?.entry.id).toBe(timer.id);
    expect(noConfidentMatch(located)).toBe(false);
    // A frame elsewhere confirms nothing.
    expect(noConfidentMatch(await find(`thread 'main' panicked at src/main.rs:12:10:\n${message}`))).toBe(true);
  });

  it("is not confident of a template the line fits when the paste's traceback shows the error raised elsewhere", async () => {
    const attribute = {
      ...record('{type(self).__name__!r} object has no attribute {item!r}', '(.+?) object has no attribute (.+?)'),
      errorClass: 'AttributeError',
      filePath: 'pydantic/main.py',
      lineNumber: 891,
    };
    const index = buildMessageIndex([...records, attribute], { targetShardBytes: 300 });
    const find = async (paste: string) => (await matchPaste(paste, index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    const trace = (frames: string, message: string) => `Traceback (most recent call last):\n${frames}AttributeError: ${message}`;
    const user = '  File "/home/me/app/main.py", line 12, in <module>\n    token = raw.decode("utf-8")\n';
    // Python's own error: the traceback ends in the user's file, which has the record's file name only.
    const own = await find(trace(user, "'str' object has no attribute 'decode'"));
    expect(own[0]).toMatchObject({ kind: 'exact', siteMissed: true, entry: { id: attribute.id } });
    expect(noConfidentMatch(own)).toBe(true);
    expect(possiblyRelated(own, new Set()).map((r) => r.entry.id)).toContain(attribute.id);
    // Through the record's file (installed), or without frames: a match.
    const through = await find(trace(`${user}  File "/venv/lib/python3.12/site-packages/pydantic/main.py", line 893, in __getattr__\n    raise AttributeError(x)\n`, "'User' object has no attribute 'nme'"));
    expect(through[0]?.siteMissed).toBe(false);
    expect(noConfidentMatch(through)).toBe(false);
    expect(noConfidentMatch(await find("AttributeError: 'str' object has no attribute 'decode'"))).toBe(false);
  });

  it('puts a template the paste rules out below the confident one its frames confirm', async () => {
    const generic = { ...record('Unknown type: {t}', 'Unknown type: (.+?)'), errorClass: 'ValueError', filePath: 'pkg/a.py', lineNumber: 10 };
    // Fits the line too, with less literal text: ranked below the other before the frames are read.
    const raised = { ...record('Unknown {kind}: {t}', 'Unknown (.+?): (.+?)'), errorClass: 'ValueError', filePath: 'pkg/b.py', lineNumber: 20 };
    const index = buildMessageIndex([...records, generic, raised], { targetShardBytes: 300 });
    const paste = 'Traceback (most recent call last):\n  File "/venv/lib/python3.12/site-packages/pkg/b.py", line 20, in g\n    raise ValueError(x)\nValueError: Unknown type: 3';
    const results = (await matchPaste(paste, index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    expect(results.find((r) => r.entry.id === generic.id)).toMatchObject({ kind: 'exact', siteMissed: true });
    expect(results[0]?.entry.id).toBe(raised.id);
    expect(isConfident(results[0]!)).toBe(true);
  });

  it('looks for near misses when the templates that fit the line were raised where the frames do not go', async () => {
    const generic = { ...record('Unknown type: {t}', 'Unknown type: (.+?)'), errorClass: 'ValueError', filePath: 'pkg/a.py', lineNumber: 10 };
    // The record raised where the frames go, its message reworded since the paste's version.
    const reworded = { ...record('Unknown type: {t} (unsupported)', 'Unknown type: (.+?) \\(unsupported\\)'), errorClass: 'ValueError', filePath: 'pkg/b.py', lineNumber: 20 };
    const index = buildMessageIndex([...records, generic, reworded], { targetShardBytes: 300 });
    const find = async (paste: string) => (await matchPaste(paste, index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    const trace = (file: string) => `Traceback (most recent call last):\n  File "/venv/lib/python3.12/site-packages/${file}", line 20, in g\n    raise ValueError(x)\nValueError: Unknown type: 3`;
    const through = await find(trace('pkg/b.py'));
    expect(through[0]).toMatchObject({ kind: 'close', entry: { id: reworded.id } });
    expect(isConfident(through[0]!)).toBe(true);
    expect(through.find((r) => r.entry.id === generic.id)).toMatchObject({ siteMissed: true });
    // Frames that go through neither: no second look finds an answer, and the template that fits is first.
    const neither = await find(trace('other/c.py'));
    expect(neither[0]).toMatchObject({ kind: 'exact', siteMissed: true, entry: { id: generic.id } });
    expect(noConfidentMatch(neither)).toBe(true);
  });

  it('puts a near miss the frames rule out below the one they confirm, on the second look too', async () => {
    const generic = { ...record('Unknown type: {t}', 'Unknown type: (.+?)'), errorClass: 'ValueError', filePath: 'pkg/a.py', lineNumber: 10 };
    // Nearer the line than the reworded record, but raised where the frames do not go.
    const dotted = { ...record('Unknown type: {t}.', 'Unknown type: (.+?)\\.'), errorClass: 'ValueError', filePath: 'pkg/c.py', lineNumber: 30 };
    const reworded = { ...record('Unknown type: {t} (unsupported)', 'Unknown type: (.+?) \\(unsupported\\)'), errorClass: 'ValueError', filePath: 'pkg/b.py', lineNumber: 20 };
    const index = buildMessageIndex([...records, generic, dotted, reworded], { targetShardBytes: 300 });
    const paste = 'Traceback (most recent call last):\n  File "/venv/lib/python3.12/site-packages/pkg/b.py", line 20, in g\n    raise ValueError(x)\nValueError: Unknown type: 3';
    const results = (await matchPaste(paste, index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    expect(results[0]).toMatchObject({ kind: 'close', entry: { id: reworded.id } });
    expect(isConfident(results[0]!)).toBe(true);
    expect(results.find((r) => r.entry.id === dotted.id)).toMatchObject({ kind: 'close', siteMissed: true });
  });

  it("is not confident of a template the line fits when the paste names another error than the record's, and nowhere the record's", async () => {
    const invalid = { ...record("Invalid value for '{name}': {arg!r}", "Invalid value for '(.+?)': (.+?)"), errorClass: 'ArgumentError' };
    const index = buildMessageIndex([...records, invalid], { targetShardBytes: 300 });
    const find = async (paste: string) => (await matchPaste(paste, index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    const message = "Invalid value for '--count': 'abc' is not a valid integer.";
    // Another library's error of the same words: still first, but not called a match.
    const other = await find(`2026-12-01 10:01:02,123 ERROR app: click.exceptions.BadParameter: ${message}`);
    expect(other[0]).toMatchObject({ kind: 'exact', classClash: true, entry: { id: invalid.id } });
    expect(noConfidentMatch(other)).toBe(true);
    // Shown as possibly related even when its words are the catalog's common ones.
    const common = new Set(['invalid', 'value', 'for'].map(wordKey));
    expect(possiblyRelated(other, common).map((r) => r.entry.id)).toEqual([invalid.id]);
    // The record's class, a base or kind, a mistyped name, or no name: a match.
    for (const paste of [`sqlalchemy.exc.ArgumentError: ${message}`, `Error: ${message}`, `ArgumentErorr: ${message}`, message]) {
      const found = await find(paste);
      expect(found[0]?.entry.id, paste).toBe(invalid.id);
      expect(found[0]?.classClash, paste).toBe(false);
      expect(noConfidentMatch(found), paste).toBe(false);
    }
    // A record's class that is no class name (an expression a scanner wrote) clashes with nothing.
    for (const expression of ['self.error_class', 'fmt.Errorf']) expect(classClash(expression, 'click.exceptions.BadParameter', nameFinder(() => message)), expression).toBe(false);
    // A wrapper names the error it wraps: no clash.
    expect(classClash('ArgumentError', 'sqlalchemy.exc.StatementError', nameFinder(() => `sqlalchemy.exc.StatementError: (sqlalchemy.exc.ArgumentError) ${message}`))).toBe(false);
    expect(classClash('ArgumentError', 'sqlalchemy.exc.StatementError', nameFinder(() => `sqlalchemy.exc.StatementError: (sqlalchemy.exc.ArgumentErrors) ${message}`))).toBe(true);
  });
});

describe('possibly related', () => {
  const none = new Set<string>();

  it('leaves out a template that takes an unrelated line as its start and shares one word with it', async () => {
    const results = await match('fatal: not a git repository (or any of the parent directories): .git');
    expect(results.length).toBeGreaterThan(0);
    expect(noConfidentMatch(results)).toBe(true);
    expect(possiblyRelated(results, none)).toEqual([]);
  });

  it('shows a near miss that shares words with the line, unless they are the catalog’s common words', async () => {
    const results = await match('Could not determine the tables to join');
    expect(noConfidentMatch(results)).toBe(true);
    // The matcher ranks first the template that takes the line as its start; it shares only "the".
    expect(results.map((r) => r.entry.id)).toEqual([records[0]!.id, records[1]!.id]);
    expect(possiblyRelated(results, none).map((r) => r.entry.id)).toEqual([records[1]!.id]);
    const common = new Set(['could', 'not', 'determine', 'the', 'tables', 'join'].map(wordKey));
    expect(possiblyRelated(results, common)).toEqual([]);
  });

  it('lists first a template that fits the line whole but is another error, above near misses the matcher ranked higher', async () => {
    const invalid = { ...record("Invalid value for '{name}': {arg!r}", "Invalid value for '(.+?)': (.+?)"), errorClass: 'ArgumentError' };
    const near = { ...record('"{cls_name}": {extra} is not a valid value for "extra"', '"(.+?)": (.+?) is not a valid value for "extra"'), errorClass: 'ValueError' };
    const index = buildMessageIndex([...records, invalid, near], { targetShardBytes: 300 });
    const results = (await matchPaste("click.exceptions.BadParameter: Invalid value for '--count': 'abc' is not a valid integer.", index.manifest, async (i) => JSON.parse(index.shards[i]!) as EntryTuple[])).results;
    expect(results.map((r) => r.entry.id).slice(0, 2)).toEqual([near.id, invalid.id]);
    expect(noConfidentMatch(results)).toBe(true);
    expect(possiblyRelated(results, none).map((r) => r.entry.id).slice(0, 2)).toEqual([invalid.id, near.id]);
  });

  it('shows a short template whose every word the line holds, in the matcher’s order', async () => {
    const unit = record('byte_size_unit', 'byte_size_unit');
    const index = buildMessageIndex([...records, unit], { targetShardBytes: 300 });
    const { results, related } = await matchPaste(
      'PydanticCustomError: byte_size_unit (see logs)',
      index.manifest,
      async (i) => JSON.parse(index.shards[i]!) as EntryTuple[],
    );
    expect(noConfidentMatch(results)).toBe(true);
    expect(related[0]?.entry.id).toBe(unit.id);
  });
});
