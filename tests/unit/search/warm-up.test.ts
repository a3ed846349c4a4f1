import { describe, expect, it } from 'vitest';
import { generatedWarmUp, warmUp } from '../../../src/search/warm-up.ts';

describe('the worker’s warm-up match', () => {
  it('runs the exact, traceback and close paths of the matcher on its built-in pastes', async () => {
    const found = await warmUp();
    expect(found.map((m) => m.results[0] && `${m.results[0].kind} ${m.results[0].entry.id}`)).toEqual(['exact w1', 'exact w4', 'close w3', 'close w2']);
  });

  it('matches each paste of its generated catalog to the template it was made from, among hundreds of candidates', async () => {
    const found = await generatedWarmUp();
    // Pastes are made from every 37th template: exact, with a typo, cut short, in a traceback, after a log prefix.
    expect(found.map((m) => m.results[0]?.entry.id)).toEqual(['g37', 'g74', 'g111', 'g148', 'g185']);
    expect(new Set(found.map((m) => m.results[0]?.kind))).toEqual(new Set(['exact', 'close']));
    expect(found.some((m) => m.paste.frames.length > 0)).toBe(true);
    for (const m of found) expect(m.candidates).toBeGreaterThan(100);
  });
});
