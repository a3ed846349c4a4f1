import type { PatternScanner, RegexEngine } from 'shiki';
import { describe, expect, it } from 'vitest';
import { withSharedScanners } from '../../../src/highlight/shared-scanners.ts';

/** An engine that counts what it compiles and frees; its scanner says which list it was made from. */
function countingEngine() {
  const counts = { compiled: 0, freed: 0, live: new Set<string>() };
  const engine: RegexEngine = {
    createScanner(patterns) {
      counts.compiled++;
      const list = patterns.join(',');
      counts.live.add(list);
      const scanner: PatternScanner = {
        findNextMatchSync: (s) => {
          if (!counts.live.has(list)) throw new Error(`scanner of ${list} used after it was freed`);
          return { index: patterns.length, captureIndices: [{ start: 0, end: String(s).length, length: String(s).length }] };
        },
        dispose: () => {
          counts.freed++;
          counts.live.delete(list);
        },
      };
      return scanner;
    },
    createString: (s) => ({ content: s }),
  };
  return { engine, counts };
}

describe('withSharedScanners', () => {
  it('compiles a list of patterns once, however many rules ask for it', () => {
    const { engine, counts } = countingEngine();
    const shared = withSharedScanners(engine);
    const a = shared.createScanner(['x', 'y']);
    const b = shared.createScanner(['x', 'y']);
    const c = shared.createScanner(['x', 'z']);
    expect(counts.compiled).toBe(2);
    expect(a.findNextMatchSync('abc', 0, 0)).toEqual(b.findNextMatchSync('abc', 0, 0));
    expect(c.findNextMatchSync('abc', 0, 0)?.index).toBe(2);
  });

  it('keeps a scanner while any holder has it, and frees it with the last', () => {
    const { engine, counts } = countingEngine();
    const shared = withSharedScanners(engine);
    const a = shared.createScanner(['x']);
    const b = shared.createScanner(['x']);
    a.dispose?.();
    // A handle disposed of twice lets go once.
    a.dispose?.();
    expect(counts.freed).toBe(0);
    expect(b.findNextMatchSync('s', 0, 0)).not.toBeNull();
    b.dispose?.();
    expect(counts.freed).toBe(1);
    // Asked for again, the list is compiled again.
    shared.createScanner(['x']).findNextMatchSync('s', 0, 0);
    expect(counts.compiled).toBe(2);
  });
});
