import { describe, expect, it } from 'vitest';
import { spanOf } from '../../../src/util/sorted.ts';

describe('spanOf', () => {
  it('finds the span a position falls in, the last start at or below it', () => {
    const starts = [0, 5, 5, 12];
    expect([0, 4, 5, 11, 12, 99].map((at) => spanOf(starts, at))).toEqual([0, 0, 2, 2, 3, 3]);
    expect(spanOf([0], 7)).toBe(0);
  });
});
