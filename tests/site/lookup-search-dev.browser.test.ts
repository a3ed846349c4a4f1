/**
 * `errdex lookup` against the search page on the search-dev set's real records and pastes (its
 * README; read from beside the project, never copied into it): a spread of its pastes and the
 * hand-written negatives, each searched on the page in Chromium and looked up over HTTP on the same
 * served site. Every paste: `npm run bench:search-real -- --distractors 0 --chromium-only --lookup-check`
 * (about 3 minutes; docs/lookup.md).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSite, lookupCheck } from '../../bench/lib/lookup-check.ts';
import { NEGATIVE_PASTES } from '../../bench/lib/negatives.ts';
import { baseSite } from '../../bench/lib/real-chromium.ts';
import { writeMessageIndex } from '../../src/build/search-index.ts';
import { readRecords } from '../support/index-site.ts';

const DEV = [process.env.ERRDEX_SEARCH_DEV, '../shared/search-dev', '../../shared/search-dev'].find((d): d is string => Boolean(d) && existsSync(join(d!, 'records.jsonl')));
const FILES = ['queries-clean.jsonl', 'queries-damaged.jsonl', 'queries-real.jsonl'];
/** Every n-th paste of each file: all three files, every damage, 120 pastes. */
const EVERY = 15;

describe.skipIf(!DEV)('npm run lookup on the search-dev pastes: the search page’s first answer', () => {
  const work = resolve('.errdex/test-sites/lookup-search-dev');
  let site: string;
  beforeAll(() => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const records = readRecords(join(DEV!, 'records.jsonl'));
    writeMessageIndex(records, join(work, 'index'));
    site = checkSite(baseSite(work, records.slice(-20)), work, join(work, 'index'), records);
  });

  it('gives the same first answer as the page, no entry or the same page, for pastes of every file and damage and for other tools’ errors', async () => {
    // The three files hold the same records in the same order: each file gives other records' pastes.
    const pastes = FILES.flatMap((f, k) =>
      readFileSync(join(DEV!, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => (JSON.parse(l) as { query: string }).query)
        .filter((_, i) => i % EVERY === (k * EVERY) / FILES.length),
    );
    const rows = await lookupCheck(site, [...pastes, ...NEGATIVE_PASTES]);
    const judged = rows.filter((r) => !r.late);
    // A page that ran past its deadline answers from full text alone: a busy machine's verdict, not the lookup's.
    expect(judged.length).toBeGreaterThan(rows.length * 0.95);
    expect(judged.filter((r) => r.page !== r.lookup).map((r) => ({ page: r.page, lookup: r.lookup, paste: r.paste.slice(0, 120) }))).toEqual([]);
    // Both answers occur, so the agreement means something.
    const positives = rows.slice(0, pastes.length);
    const negatives = rows.slice(pastes.length);
    expect(positives.filter((r) => r.lookup !== null).length).toBeGreaterThan(positives.length * 0.9);
    expect(negatives.filter((r) => r.lookup === null).length).toBeGreaterThan(negatives.length * 0.8);
    expect(new Set(positives.map((r) => r.lookup)).size).toBeGreaterThan(pastes.length / 2);
  });
});
