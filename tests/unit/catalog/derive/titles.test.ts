import { describe, expect, it } from 'vitest';
import { placeLabels } from '../../../../src/catalog/derive/message-groups.ts';
import { tellApart, titleHeadlines, wordsOf } from '../../../../src/catalog/derive/titles.ts';
import { PLACED_TITLE_MAX, TITLE_MAX } from '../../../../src/catalog/headline.ts';
import { shortenOnWord } from '../../../../src/schema/message-template.ts';
import type { ErrorRecord } from '../../../../src/schema/record.ts';
import { pageTitle } from '../../../../src/views/error-view.ts';

let counter = 0;
type Fields = Pick<ErrorRecord, 'id' | 'repo' | 'errorClass' | 'errorMessage' | 'filePath' | 'lineNumber'>;
function rec(over: Partial<Fields>): Fields {
  counter++;
  return {
    repo: 'acme/app',
    errorClass: 'RuntimeError',
    errorMessage: 'x',
    filePath: 'src/pool.py',
    lineNumber: counter,
    ...over,
    id: counter.toString(16).padStart(16, '0'),
  };
}

/** Every record's page title, as derive and the pages make it. */
function titles(records: Fields[]): Map<string, string> {
  const headlines = titleHeadlines(records);
  const places = placeLabels(records, {}, headlines);
  return new Map(records.map((r) => [r.id, pageTitle(r, { headline: headlines.get(r.id), place: places.get(r.id) })]));
}

const headlineOf = (title: string, r: Fields) => title.slice(0, -` — ${r.repo}`.length);

describe('titles of different messages that open alike', () => {
  it('keep the words where the messages differ, within the title length, and need no place', () => {
    const exhausted = rec({
      errorMessage: 'Connection pool for {} of database {database} on host {host} is exhausted and no new connection could be opened within {timeout} seconds',
    });
    const increase = rec({
      errorMessage: 'Connection pool for {} of database {database} on host {host} is exhausted; increase max_size or release connections sooner',
    });
    const supports = rec({
      errorClass: 'ValueError',
      errorMessage: 'Model {name} of the {family} family at revision {revision} currently supports only text and image inputs, not {modality}',
      filePath: 'models/x.py',
    });
    const requires = rec({
      errorClass: 'ValueError',
      errorMessage: 'Model {name} of the {family} family at revision {revision} currently requires the tokenizer to be loaded first',
      filePath: 'models/x.py',
    });
    const records = [exhausted, increase, supports, requires];
    // The shape of the issue: cut alone, each pair reads the same.
    expect(shortenOnWord(`RuntimeError: ${exhausted.errorMessage}`, TITLE_MAX)).toBe(shortenOnWord(`RuntimeError: ${increase.errorMessage}`, TITLE_MAX));
    expect(shortenOnWord(`ValueError: ${supports.errorMessage}`, TITLE_MAX)).toBe(shortenOnWord(`ValueError: ${requires.errorMessage}`, TITLE_MAX));

    const t = titles(records);
    expect(new Set(t.values()).size).toBe(records.length);
    for (const r of records) {
      expect(headlineOf(t.get(r.id)!, r).length).toBeLessThanOrEqual(TITLE_MAX);
      expect(t.get(r.id)).toMatch(/^(RuntimeError: Connection pool for|ValueError: Model \{name\} of)/);
      expect(placeLabels(records, {}).has(r.id)).toBe(false);
    }
    expect(t.get(exhausted.id)).toContain('… and no new connection');
    expect(t.get(increase.id)).toContain('increase max_size');
    expect(t.get(supports.id)).toContain('supports');
    expect(t.get(requires.id)).toContain('requires');
  });

  it('show the end of a message that stops where another goes on, and compare words without their punctuation', () => {
    const opening = 'A value is required for bind parameter {bindparam.key!r}';
    const short = rec({ errorClass: 'InvalidRequestError', errorMessage: opening });
    const long = rec({ errorClass: 'InvalidRequestError', errorMessage: `${opening}, in parameter group {_group_number}` });
    const t = titles([short, long]);
    expect(t.get(short.id)).toMatch(/ … \{bindparam\.key!r\} — acme\/app$/);
    expect(t.get(long.id)).toContain('in parameter group');
    expect(t.get(short.id)).not.toBe(t.get(long.id));
  });

  it('keep the place label for one message raised in several places, told from the messages that open alike by their words', () => {
    const base = 'Extension {type(self).__name__} cannot be applied to';
    const select = [
      rec({ errorClass: 'NotImplementedError', errorMessage: `${base} select` }),
      rec({ errorClass: 'NotImplementedError', errorMessage: `${base} select`, filePath: 'src/other.py' }),
    ];
    const update = rec({ errorClass: 'NotImplementedError', errorMessage: `${base} update` });
    const t = titles([...select, update]);
    expect(new Set(t.values()).size).toBe(3);
    expect(t.get(select[0]!.id)).toBe('NotImplementedError: Extension … be applied to select — pool.py — acme/app');
    expect(t.get(select[1]!.id)).toBe('NotImplementedError: Extension … be applied to select — other.py — acme/app');
    for (const r of select) expect(headlineOf(t.get(r.id)!, r).split(' — ')[0]!.length).toBeLessThanOrEqual(PLACED_TITLE_MAX);
    expect(t.get(update.id)).toBe('NotImplementedError: Extension {type(self).__name__} cannot … update — acme/app');
  });

  it('leave titles that differ once cut as they are, and other repositories out of it', () => {
    const long = 'Connection pool for {} is exhausted and no new connection could be opened within the timeout';
    const a = rec({ errorMessage: long });
    const b = rec({ errorMessage: `${long}!`, repo: 'other/app' });
    const c = rec({ errorMessage: 'short message' });
    expect(titleHeadlines([a, b, c]).size).toBe(0);
  });

  it('make every title of many messages sharing long openings its own', () => {
    // Families of messages that share an opening of 6 to 14 words and differ after it, in one or
    // several words, some raised in two places: no two pages may share a title.
    const vocabulary = 'pool connection table column index parameter value session mapper engine dialect statement'.split(' ');
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const records: Fields[] = [];
    for (let family = 0; family < 80; family++) {
      const opening = Array.from({ length: 6 + random(9) }, () => vocabulary[random(vocabulary.length)]).join(' ');
      for (let member = 0; member < 2 + random(4); member++) {
        const ending = Array.from({ length: 1 + random(8) }, () => vocabulary[random(vocabulary.length)]).join(' ');
        const message = `${opening} ${ending}`;
        records.push(rec({ errorMessage: message, filePath: `src/f${family}.py` }));
        if (random(4) === 0) records.push(rec({ errorMessage: message, filePath: `src/g${family}.py` }));
      }
    }
    const distinct = new Map(records.map((r) => [r.errorMessage, r]));
    const t = titles(records);
    const seen = new Map<string, string>();
    for (const r of records) {
      const title = t.get(r.id)!;
      expect(seen.get(title), `${title}: ${seen.get(title)} and ${r.errorMessage}`).toBeUndefined();
      seen.set(title, r.errorMessage);
    }
    expect(distinct.size).toBeGreaterThan(120);
  });
});

describe('wordsOf', () => {
  it('keeps a placeholder holding spaces as one word', () => {
    expect(wordsOf("to multiple entities {', '.join(names)}. Specify")).toEqual(['to', 'multiple', 'entities', "{', '.join(names)}.", 'Specify']);
  });
});

describe('tellApart', () => {
  it('gives forms only to texts whose cut another shares', () => {
    const forms = tellApart(['alpha beta gamma delta epsilon one', 'alpha beta gamma delta epsilon two', 'alpha zeta'], 30);
    expect([...forms.values()]).toEqual(['alpha beta gamma delta … one', 'alpha beta gamma delta … two']);
  });
});
