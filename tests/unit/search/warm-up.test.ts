import { describe, expect, it } from 'vitest';
import { warmUp } from '../../../src/search/warm-up.ts';

describe('the worker’s warm-up match', () => {
  it('runs the exact, traceback and close paths of the matcher on its built-in pastes', async () => {
    const found = await warmUp();
    expect(found.map((m) => m.results[0] && `${m.results[0].kind} ${m.results[0].entry.id}`)).toEqual(['exact w1', 'exact w4', 'close w3', 'close w2']);
  });
});
