import { describe, expect, it } from 'vitest';
import { classKey, fileableKeys, isKeyWord, leadingWord, MAX_QUERY_KEYS, prefixKeys, prefixPart, shardOf, templateKeys, templateLeadingWord, textKeys, wordKey } from '../../../src/search/keys.ts';
import { buildMessageIndex, chooseKeys, fromTuple, MAX_CLASS_SHARED, SHARDS_PER_FOLDER, shardCountFor, shardFile, summaryOf, type EntryTuple } from '../../../src/search/message-index.ts';
import { matchPaste, queryKeys, rankCandidates } from '../../../src/search/matcher.ts';
import { normalisePaste } from '../../../src/search/normalise.ts';
import { raiseSites } from '../../../src/search/raise-site.ts';
import { sampleWrapped } from '../../support/records.ts';
import type { ErrorRecord } from '../../../src/schema/record.ts';

function record(id: string, errorMessage: string, messagePattern = '.+'): ErrorRecord {
  const base = sampleWrapped()[0]!.record as unknown as ErrorRecord;
  return { ...base, id, slug: `s-${id}`, errorMessage, messagePattern };
}

describe('index keys', () => {
  it('does not count a key holding a long word\'s start as surviving the loss of that word', () => {
    const keys = templateKeys('Release commit subject is required');
    // Its other words are too common to file under; `subject` is not, and `commit subjec~` is rarer.
    const df = new Map(keys.map((k) => [k, k.includes(' ') ? 1 : 1000]));
    df.set(wordKey('subject'), 50);
    // `commit subjec~` looked as if it survived every word's loss but `commit`'s: a paste whose wording dropped `subject` has no such key.
    expect(chooseKeys(keys, df, 1, 200)).toEqual([wordKey('subject')]);
    expect(chooseKeys(keys, df, 4, 200)).not.toContain(`${wordKey('commit')} ${prefixPart('subject')}`);
  });

  it('files a long template under its words alone, which a paste of it looks up', () => {
    const long =
      "Could not determine join condition between parent/child tables on relationship {prop} - there are multiple foreign key paths linking the tables via secondary table '{table}'.  Specify the 'foreign_keys' argument, providing a list of those columns which should be counted as containing a foreign key reference from the secondary table to each of the parent and child tables.";
    const keys = templateKeys(long);
    expect(keys.length).toBeGreaterThan(MAX_QUERY_KEYS);
    const filed = fileableKeys(keys);
    expect(filed.length).toBeGreaterThan(10);
    expect(filed.every((k) => !k.includes(' '))).toBe(true);
    const looked = new Set(queryKeys(normalisePaste(long.replace('{prop}', 'max_tokens').replace('{table}', 'triton'))));
    expect(filed.filter((k) => !looked.has(k))).toEqual([]);
    // A template a paste looks up whole keeps all its keys.
    expect(fileableKeys(templateKeys('frame {id} not found in buffer {buf}'))).toEqual(templateKeys('frame {id} not found in buffer {buf}'));
  });

  it('keeps words and adjacent pairs of literal text, never values or words glued to a placeholder', () => {
    const k = (keys: string[]) => keys.map((key) => key.split(' ').map(wordKey).join(' '));
    expect(templateKeys('failed to open socket {path}: {err}')).toEqual(k(['failed', 'failed to', 'to', 'to open', 'open', 'open socket', 'socket']));
    expect(templateKeys('timed out after {n}ms waiting for frame_count')).toEqual([
      ...k(['timed', 'timed out', 'out', 'out after', 'after', 'waiting', 'waiting for', 'for', 'for frame_count', 'frame_count']),
      `${wordKey('for')} frame_~`, // the start of a long word after the word before it
    ]);
    expect(templateKeys('{}: {}')).toEqual([]);
  });

  it('pairs the words either side of a placeholder, as a paste shows them once its values are set aside', () => {
    const keys = templateKeys('queue %s is not a valid certificate');
    expect(keys).toContain(`${wordKey('queue')} ${wordKey('is')}`);
    expect(templateKeys('{n}ms waiting {x}: done')).toEqual([wordKey('waiting'), wordKey('done')]); // no pair across punctuation
  });

  it('keys the start of a long word after the word before it, as a paste cut inside the word or mistyped past its start shows it', () => {
    const key = `${wordKey('required')} ${prefixPart('generator_method')}`;
    expect(templateKeys('missing required generator_method in optimizer {}')).toContain(key);
    expect(prefixKeys('missing required generator_meth')).toContain(key);
    expect(prefixKeys('missing required generator_mehtod in optimizer 3')).toContain(key);
    expect(prefixKeys('missing required generator_method')).toContain(key);
    expect(prefixKeys('missing required gener')).toEqual([`${wordKey('missing')} ${prefixPart('required')}`]); // too little of the last left to tell
    // A whole word of PREFIX letters has no such key in any template: only a paste's last word may be a cut.
    expect(prefixKeys('socket failed to bind')).toEqual([]);
    expect(prefixKeys('failed to reopen socket')).toEqual([`${wordKey('reopen')} ${prefixPart('socket')}`]);
  });

  it('reads an apostrophe inside a word as no quote', () => {
    const keys = templateKeys("can't connect while the pool drains and won't retry");
    for (const w of ['connect', 'pool', 'drains']) expect(keys).toContain(wordKey(w));
    expect(textKeys("can't connect while the pool drains and won't retry")).toContain(wordKey('drains'));
  });

  it('finds the same keys in a concrete message (values are not keys)', () => {
    const keys = textKeys('failed to open socket /tmp/x.sock: 0x1f 12 deadbeef12345678');
    for (const k of templateKeys('failed to open socket {path}: {err}')) expect(keys).toContain(k);
    expect(keys).not.toContain('12');
    expect(keys).not.toContain(wordKey('12'));
    expect(keys).not.toContain('0x1f');
    expect(isKeyWord('deadbeef12345678')).toBe(false);
    expect(isKeyWord('utf8')).toBe(true);
  });

  it('reads quoted text, paths, URLs and numbers as values on both sides: no keys, in a template or a paste', () => {
    expect(templateKeys("unknown option '--verbose' for {cmd}")).not.toContain(wordKey('verbose'));
    expect(templateKeys("unknown option '--verbose' for {cmd}")).toContain(wordKey('option'));
    const keys = queryKeys(normalisePaste("failed to open socket /var/lib/x.sock after 'engine_3' at http://h:80/v1"));
    for (const w of ['lib', 'sock', 'engine_3', 'http', 'v1']) expect(keys).not.toContain(wordKey(w));
    expect(keys).toContain(`${wordKey('socket')} ${wordKey('after')}`); // the words either side of a value meet
  });

  it('reads the text between two quoted placeholders as words, not as a quoted value', () => {
    const keys = templateKeys("'{annotation}' cannot annotate '{annotated_type}'.");
    expect(keys).toContain(wordKey('cannot'));
    expect(keys).toContain(`${wordKey('cannot')} ${wordKey('annotate')}`);
    const backref = templateKeys("Error creating backref '{key}' on relationship '{self}': property exists");
    expect(backref).toContain(`${wordKey('backref')} ${wordKey('on')}`); // the pair across the quoted value, as a paste gives it
    expect(backref).toContain(wordKey('relationship'));
    const pasted = queryKeys(normalisePaste("Error creating backref 'x' on relationship 'y': property exists"));
    expect(pasted).toContain(`${wordKey('backref')} ${wordKey('on')}`);
  });

  it('keys a word by its letters, so transposed, doubled and repeated-letter typos keep the key', () => {
    expect(wordKey('validate')).toBe(wordKey('vlaidate'));
    expect(wordKey('deadlines')).toBe(wordKey('deadlinnes'));
    expect(wordKey('path_value')).toBe(wordKey('pth_value'));
    expect(wordKey('socket')).not.toBe(wordKey('bucket'));
  });

  it('hashes a key to the same shard everywhere', () => {
    expect(shardOf('open socket', 4096, 1)).toBe(shardOf('open socket', 4096, 1));
    expect(shardOf('open socket', 4096, 1)).toBeLessThan(4096);
  });

  it('chooses rare keys on words the others do not use, early in the message', () => {
    const df = new Map([['a', 1], ['a b', 1], ['b', 2], ['c', 5], ['b c', 1]]);
    // `b` rather than `b c`: it also survives a paste cut before `c`.
    expect(chooseKeys(['a', 'a b', 'b', 'c', 'b c'], df, 2)).toEqual(['a', 'b']);
    expect(chooseKeys(['a', 'b', 'c'], df, 3)).toEqual(['a', 'b', 'c']);
  });

  it('spreads the keys: losing any one word or the end of the message leaves a key', () => {
    const template = 'could not migrate handshake for replica_set {} during startup';
    const keys = templateKeys(template);
    // The rarest word is `migrate`: the old rarest-first choice filed everything under it.
    const df = new Map(keys.map((k) => [k, k.includes(wordKey('migrate')) ? 1 : k.includes(' ') ? 20 : 150]));
    const chosen = chooseKeys(keys, df, 3, 200);
    const words = keys.filter((k) => !k.includes(' '));
    for (const w of words) expect(chosen.some((k) => !k.split(' ').includes(w)), `a key without ${w}`).toBe(true);
    const firstHalf = new Set(words.slice(0, Math.ceil(words.length / 2)));
    expect(chosen.some((k) => k.split(' ').every((w) => firstHalf.has(w)))).toBe(true);
  });
});

describe('wordKey', () => {
  it('is the word\'s characters, each once, in code order, for ASCII words and others', () => {
    const chars = 'abcdefghijklmnopqrstuvwxyz0123456789_Zé';
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const words = ['validate', 'frame_count', '__init__', 'café', 'KVCache', ...Array.from({ length: 2000 }, (_, i) => Array.from({ length: 1 + (i % 14) }, () => chars[Math.floor(next() * chars.length)]).join(''))];
    for (const w of words) expect(wordKey(w), w).toBe([...new Set(w)].sort().join(''));
  });
});

describe('buildMessageIndex', () => {
  const records = [
    record('0000000000000001', 'failed to open socket {path}'),
    record('0000000000000002', 'failed to open file {path}'),
    record('0000000000000003', '{}: {}'),
  ];
  const built = buildMessageIndex(records, { keysPerRecord: 2, targetShardBytes: 200 });

  it('files each entry in the shards of its chosen keys, and lists records with no key', () => {
    expect(built.manifest.shards).toBeGreaterThan(1);
    expect(built.unindexed).toEqual([{ id: '0000000000000003', template: '{}: {}' }]);
    const found = textKeys('failed to open socket /tmp/x.sock').flatMap((k) => built2(built, k));
    expect(found).toContain('0000000000000001');
    const all = built.shards.flatMap((s) => (JSON.parse(s) as EntryTuple[]).map((t) => t[0]));
    expect(new Set(all)).toEqual(new Set(['0000000000000001', '0000000000000002']));
  });

  it('finds a record from a paste cut short or with a typo in its rarest word', () => {
    const many = [
      record('0000000000000010', 'could not migrate handshake for replica_set {} during startup'),
      ...Array.from({ length: 30 }, (_, i) => record(`00000000000001${String(i).padStart(2, '0')}`, `could not open replica_set {} during startup number${'x'.repeat(i + 2)}`)),
    ];
    const index = buildMessageIndex(many, { keysPerRecord: 3, targetShardBytes: 400 });
    const filedFor = (paste: string) =>
      textKeys(paste).some((k) => built2(index, k).includes('0000000000000010'));
    expect(filedFor('could not migrate handshake for replica')).toBe(true);
    expect(filedFor('could not mgrate handshake for replica_set 3 during startup')).toBe(true);
  });

  it('finds a record from a paste cut inside its one rare word, by the start of that word', () => {
    const many = [
      record('0000000000000020', 'could not open generator_method {}'),
      ...Array.from({ length: 30 }, (_, i) => record(`00000000000003${String(i).padStart(2, '0')}`, `could not open ${'x'.repeat(i + 2)}_number {}`)),
    ];
    const index = buildMessageIndex(many, { keysPerRecord: 3, targetShardBytes: 400, maxShared: 20 });
    const paste = 'could not open generator_me';
    const keys = queryKeys(normalisePaste(paste), new Set(index.manifest.common));
    expect(keys).toContain(`${wordKey('open')} ${prefixPart('generator_method')}`);
    expect(keys.some((k) => built2(index, k).includes('0000000000000020'))).toBe(true);
  });

  it('lists the keys too common to file any record under, and a paste does not look them up', () => {
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
    const many = names.map((name, i) => record(`00000000000002${String(i).padStart(2, '0')}`, `failed to open ${name} {}`));
    const index = buildMessageIndex(many, { keysPerRecord: 2, targetShardBytes: 400, maxShared: 5 });
    expect(index.manifest.common).toContain(wordKey('failed'));
    expect(index.manifest.common).toContain(`${wordKey('failed')} ${wordKey('to')}`);
    expect(index.manifest.common.some((k) => k.includes(wordKey('foxtrot')))).toBe(false);
    const keys = queryKeys(normalisePaste('failed to open foxtrot 3'), new Set(index.manifest.common));
    expect(keys).not.toContain(wordKey('failed'));
    expect(keys).toContain(wordKey('foxtrot'));
    // Every record is still found by a key the paste looks up.
    for (const r of many) {
      const paste = r.errorMessage.replace('{}', '7');
      expect(queryKeys(normalisePaste(paste), new Set(index.manifest.common)).some((k) => built2(index, k).includes(r.id)), paste).toBe(true);
    }
  });

  it('is deterministic: the same catalog gives the same version and shards', () => {
    const again = buildMessageIndex(records, { keysPerRecord: 2, targetShardBytes: 200 });
    expect(again.manifest).toEqual(built.manifest);
    expect(again.shards).toEqual(built.shards);
  });

  it('makes the same index from records without their code, given their raise sites read apart', () => {
    // Two records of one file: the second's excerpt starts below its function, which the first's shows.
    const code = 'class Loader:\n    def load(self, path):\n        if not path:\n            raise ValueError("no path")\n        if path.endswith("/"):\n            raise ValueError(f"{path} is a folder")';
    const full = [
      { ...record('00000000000000a1', 'no path'), filePath: 'pkg/loader.py', sourceCode: code, sourceCodeStart: 10, lineNumber: 13 },
      { ...record('00000000000000a2', '{path} is a folder'), filePath: 'pkg/loader.py', sourceCode: code.split('\n').slice(4).join('\n'), sourceCodeStart: 14, lineNumber: 15 },
    ];
    const codeless = full.map((r) => ({ ...r, sourceCode: null, exampleFix: null, validationCode: null, typeGuard: null, tryCatchPattern: null }));
    const whole = buildMessageIndex(full);
    // Not vacuous: some raise site's scope comes from an excerpt, which the codeless records lack.
    expect(whole.shards.flatMap((sh) => (JSON.parse(sh) as EntryTuple[]).map((t) => fromTuple(t).scope)).some((scope) => scope !== null)).toBe(true);
    expect(buildMessageIndex(codeless).shards).not.toEqual(whole.shards);
    const apart = buildMessageIndex(codeless, { sites: raiseSites(full) });
    expect(apart.shards).toEqual(whole.shards);
    expect(apart.manifest).toEqual(whole.manifest);
    expect(() => buildMessageIndex(codeless, { sites: raiseSites(full).slice(1) })).toThrow(/raise sites for/);
  });

  it('makes the same index from records without their prose, given their summaries read apart', () => {
    const full = [record('00000000000000b1', 'no path'), record('00000000000000b2', '{path} is a folder')].map((r, i) => ({
      ...r,
      documentation: `The \`path\` argument ${i === 0 ? 'was empty' : 'names a folder'}: a long explanation that goes on past what a result shows, so that the summary is cut on a word.`,
    }));
    const proseless = full.map((r) => ({ ...r, documentation: '', triggerScenarios: '', commonSituations: '', solutions: [], preventionTips: [] }));
    const whole = buildMessageIndex(full);
    expect(buildMessageIndex(proseless).shards).not.toEqual(whole.shards);
    const apart = buildMessageIndex(proseless, { summaries: full.map(summaryOf) });
    expect(apart.shards).toEqual(whole.shards);
    expect(() => buildMessageIndex(proseless, { summaries: [] })).toThrow(/summaries for/);
  });

  it('entries carry what results and filters show', () => {
    const e = fromTuple(JSON.parse(built.shards.find((s) => s.includes('0000000000000001'))!)[0]);
    expect(Object.keys(e).sort()).toEqual(['errorClass', 'errorType', 'file', 'id', 'language', 'line', 'messagePage', 'pattern', 'repo', 'scope', 'severity', 'slug', 'summary', 'tags', 'template']);
    expect(e.language).toBe('Python');
  });
});

function built2(index: ReturnType<typeof buildMessageIndex>, key: string): string[] {
  return (JSON.parse(index.shards[shardOf(key, index.manifest.shards, index.manifest.seed)]!) as EntryTuple[]).map((t) => t[0]);
}

describe('shard folders and count', () => {
  it('steps the shard count up a ladder a few per cent apart, never below what is needed', () => {
    let last = 0;
    for (let needed = 1; needed <= 70_000; needed += 97) {
      const n = shardCountFor(needed);
      expect(n).toBeGreaterThanOrEqual(needed);
      expect(n).toBeLessThanOrEqual(Math.max(needed + 1, Math.ceil(needed * 1.0625)));
      expect(n).toBeGreaterThanOrEqual(last);
      last = n;
    }
    // Between two steps, every count needed gives the same: one record more or less changes nothing.
    const step = shardCountFor(48_000);
    expect(shardCountFor(step - 100)).toBe(step);
    expect(shardCountFor(step + 1)).toBeGreaterThan(step);
  });

  // Messages of their own words, so that each record has keys of its own.
  const words = (i: number) => [...i.toString(26)].map((c) => 'qwertyuiopasdfghjklzxcvbnm'[parseInt(c, 26)]).join('');
  const catalog = Array.from({ length: 400 }, (_, i) =>
    record(i.toString(16).padStart(16, '0'), `module ${words(i)}x failed loading plugin ${words(i + 7)}y at stage {stage}`),
  );

  it('names each folder by its shards: an edited record moves only the folders of the shards it changed', () => {
    const options = { keysPerRecord: 4, targetShardBytes: 120 };
    const before = buildMessageIndex(catalog, options);
    expect(before.manifest.shards).toBeGreaterThan(2 * SHARDS_PER_FOLDER);
    expect(before.manifest.folders).toHaveLength(Math.ceil(before.manifest.shards / SHARDS_PER_FOLDER));
    const edited = [...catalog];
    edited[5] = { ...edited[5]!, errorMessage: `${edited[5]!.errorMessage} (retried)` };
    const after = buildMessageIndex(edited, options);
    expect(after.manifest.shards).toBe(before.manifest.shards);
    const changed = new Set(after.shards.flatMap((s, i) => (s === before.shards[i] ? [] : [Math.floor(i / SHARDS_PER_FOLDER)])));
    expect(changed.size).toBeGreaterThan(0);
    expect(changed.size).toBeLessThan(after.manifest.folders.length);
    after.manifest.folders.forEach((name, f) => expect(name === before.manifest.folders[f]).toBe(!changed.has(f)));
    expect(after.manifest.version).not.toBe(before.manifest.version);
    expect(shardFile(after.manifest, SHARDS_PER_FOLDER + 3)).toBe(`shards/${after.manifest.folders[1]}/${SHARDS_PER_FOLDER + 3}.json`);
  });
});

describe('class keys', () => {
  it('pair the class\'s last name with the first letters of the message\'s first word', () => {
    expect(classKey('sqlalchemy.exc.ArgumentError', templateLeadingWord('invalid token: {token}'))).toBe('argumenterror inv^');
    expect(classKey('ArgumentError', leadingWord('invalid t'))).toBe('argumenterror inv^');
    // `can't` reads as `can`, on both sides.
    expect(classKey('AttributeError', templateLeadingWord("can't delete attribute"))).toBe(classKey('AttributeError', leadingWord("can't de")));
    expect(templateLeadingWord('`yarn {args}` failed')).toBe('yarn');
  });

  it('have none without a class, a first word of a few letters, or a message that starts with a value', () => {
    expect(classKey(null, 'invalid')).toBeNull();
    expect(classKey('ValueError', 'No')).toBeNull();
    expect(templateLeadingWord('{source} needs field {name}')).toBeNull();
    expect(templateLeadingWord("'{name}' is required")).toBeNull();
    // Glued to the placeholder after it, the word prints otherwise.
    expect(templateLeadingWord('v{major} is not supported')).toBeNull();
    // A paste's first word inside a value (a quoted path) is no word of the template.
    expect(leadingWord("'/root/.cache/hub' not exists")).toBeNull();
    expect(leadingWord('/root/.cache/hub not exists')).toBeNull();
  });

  it('file a record in place of one of its word keys, unless too many records share it', () => {
    const shared = (errorClass: string | null) =>
      Array.from({ length: MAX_CLASS_SHARED + 1 }, (_, i) => ({ ...record(`00000000000005${String(i).padStart(2, '0')}`, `invalid value number${'x'.repeat(i + 2)} for option {}`), errorClass }) as ErrorRecord);
    const rare = { ...record('0000000000000600', 'pattern_type is not a valid pattern for {field}'), errorClass: 'PydanticCustomError' } as ErrorRecord;
    const members = (index: ReturnType<typeof buildMessageIndex>) => index.shards.map((s) => (JSON.parse(s) as EntryTuple[]).map((t) => t[0]).join());
    const index = buildMessageIndex([rare, ...shared('ValueError')], { keysPerRecord: 3, targetShardBytes: 400 });
    expect(built2(index, 'pydanticcustomerror pat^')).toContain('0000000000000600');
    // The class key takes one of the record's places: 3 keys in all.
    expect(index.shards.filter((s) => s.includes('"0000000000000600"')).length).toBeLessThanOrEqual(3);
    // Shared by more than MAX_CLASS_SHARED records, it files none: they sit where they would without a class.
    const rareWithout = { ...rare, errorClass: null };
    // (As many shards either way: the class in each entry makes the shards longer.)
    const options = { keysPerRecord: 3, targetShardBytes: 1, maxShards: 64 };
    expect(members(buildMessageIndex([rareWithout, ...shared('ValueError')], options))).toEqual(members(buildMessageIndex([rareWithout, ...shared(null)], options)));
  });
});

describe('earlier wordings of a message (a record scanned with --history)', () => {
  const REV = { name: 'v2.0', sha: 'b'.repeat(40), date: '2025-06-02T03:04:05Z' };
  const withHistory = (r: ErrorRecord, ...earlier: [string, string][]): ErrorRecord => ({
    ...r,
    history: { scannedFrom: REV, introduced: REV, messageChanges: earlier.map(([errorMessage, messagePattern]) => ({ at: REV, errorMessage, messagePattern })) },
  });
  const catalog = () => [
    withHistory(record('00000000000000a1', 'connection pool exhausted after {n} retries', 'connection pool exhausted after (.+?) retries'), ['no free connection in pool after {n} attempts', 'no free connection in pool after (.+?) attempts']),
    record('00000000000000b2', 'frame checksum mismatch in segment {id}', 'frame checksum mismatch in segment (.+?)'),
  ];
  const load = (index: ReturnType<typeof buildMessageIndex>) => async (i: number) => JSON.parse(index.shards[i]!) as EntryTuple[];
  const entries = (index: ReturnType<typeof buildMessageIndex>) => [...new Map(index.shards.flatMap((s) => JSON.parse(s) as EntryTuple[]).map((t) => [`${t[0]} ${t[3]}`, fromTuple(t)])).values()];

  it('files each earlier wording as an entry of the same record, with its own template and pattern', () => {
    const index = buildMessageIndex(catalog());
    const a1 = entries(index).filter((e) => e.id === '00000000000000a1');
    expect(a1.map((e) => [e.template, e.pattern, e.slug]).sort()).toEqual([
      ['connection pool exhausted after {n} retries', 'connection pool exhausted after (.+?) retries', 's-00000000000000a1'],
      ['no free connection in pool after {n} attempts', 'no free connection in pool after (.+?) attempts', 's-00000000000000a1'],
    ]);
    expect(index.manifest.records).toBe(2);
  });

  it('lands a paste of the earlier wording on the record, once, and the current wording too', async () => {
    const index = buildMessageIndex(catalog());
    const old = (await matchPaste('no free connection in pool after 5 attempts', index.manifest, load(index))).results;
    expect(old[0]).toMatchObject({ kind: 'exact', entry: { id: '00000000000000a1', template: 'no free connection in pool after {n} attempts' } });
    const now = (await matchPaste('connection pool exhausted after 5 retries', index.manifest, load(index))).results;
    expect(now[0]).toMatchObject({ kind: 'exact', entry: { id: '00000000000000a1', template: 'connection pool exhausted after {n} retries' } });
    // Without the history the earlier wording finds no exact match.
    const plain = buildMessageIndex(catalog().map(({ history: _, ...r }) => r));
    const without = (await matchPaste('no free connection in pool after 5 attempts', plain.manifest, load(plain))).results;
    expect(without.some((r) => r.kind === 'exact')).toBe(false);
  });

  it('shows a record once when a paste matches both its wordings', async () => {
    const both = withHistory(record('00000000000000c3', 'queue {name} is full', 'queue (.+?) is full'), ['queue {name} is {state}', 'queue (.+?) is (.+?)']);
    const index = buildMessageIndex([both]);
    const candidates = entries(index);
    expect(candidates).toHaveLength(2);
    const results = rankCandidates(normalisePaste('queue jobs is full'), candidates);
    expect(results.map((r) => [r.entry.id, r.kind])).toEqual([['00000000000000c3', 'exact']]);
    // The more specific wording is the one shown.
    expect(results[0]!.entry.template).toBe('queue {name} is full');
    expect((await matchPaste('queue jobs is full', index.manifest, load(index))).results).toHaveLength(1);
  });

  it('leaves a catalog without histories as it was: one entry per record', () => {
    const plain = catalog().map(({ history: _, ...r }) => r);
    const index = buildMessageIndex(plain);
    expect(entries(index).map((e) => e.id).sort()).toEqual(['00000000000000a1', '00000000000000b2']);
  });
});
