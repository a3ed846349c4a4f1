/**
 * One compiled scanner per list of patterns, shared by the grammar rules that ask for it.
 *
 * vscode-textmate compiles a rule's patterns into a scanner again each time the rule's end pattern
 * changes (an end that repeats what its begin matched: a raw string's delimiter, a closing tag), and
 * again when the earlier text comes back; Oniguruma compiles C++'s lists of a hundred patterns of up to
 * 6,000 characters in milliseconds each. Here a list compiled once is handed out as often as it is
 * asked for. A scanner is freed only when no rule holds it (each holder disposes of its own handle),
 * and then only once more than IDLE_KEPT such are kept, the least recently asked for first.
 */
import type { PatternScanner, RegexEngine } from 'shiki';

export const IDLE_KEPT = 256;

interface Shared {
  scanner: PatternScanner;
  holders: number;
}

/** `engine`, whose scanners are shared by pattern list (see above). */
export function withSharedScanners(engine: RegexEngine): RegexEngine {
  // In the order they were last asked for: a Map keeps its keys in insertion order.
  const byPatterns = new Map<string, Shared>();
  let idle = 0;
  const freeIdle = () => {
    for (const [key, shared] of byPatterns) {
      if (idle <= IDLE_KEPT) return;
      if (shared.holders > 0) continue;
      byPatterns.delete(key);
      idle--;
      shared.scanner.dispose?.();
    }
  };
  return {
    createScanner(patterns) {
      const key = JSON.stringify(patterns.map(String));
      let shared = byPatterns.get(key);
      if (shared) {
        byPatterns.delete(key);
        if (shared.holders === 0) idle--;
      } else shared = { scanner: engine.createScanner(patterns), holders: 0 };
      byPatterns.set(key, shared);
      shared.holders++;
      const held = shared;
      let disposed = false;
      return {
        findNextMatchSync: (string, start, options) => held.scanner.findNextMatchSync(string, start, options),
        dispose() {
          if (disposed) return;
          disposed = true;
          if (--held.holders === 0) {
            idle++;
            freeIdle();
          }
        },
      };
    },
    createString: (s) => engine.createString(s),
  };
}
