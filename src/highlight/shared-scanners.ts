/**
 * One compiled scanner per list of patterns, shared by the grammar rules that hold it.
 *
 * vscode-textmate compiles a scanner for each rule it enters (its end pattern and the patterns it
 * includes), and many rules of a grammar include the same patterns and end alike: on leveldb's C++,
 * 308 scanners compiled from 95 lists, Oniguruma taking milliseconds for each of C++'s lists of a
 * hundred patterns of up to 6,000 characters. Here a list is compiled once and handed to every rule
 * that asks for it while another holds it; it is freed when the last holder disposes of its handle,
 * as the one scanner would have been.
 */
import type { PatternScanner, RegexEngine } from 'shiki';

interface Shared {
  scanner: PatternScanner;
  holders: number;
}

/** `engine`, whose scanners are shared by pattern list (see above). */
export function withSharedScanners(engine: RegexEngine): RegexEngine {
  const byPatterns = new Map<string, Shared>();
  return {
    createScanner(patterns) {
      const key = JSON.stringify(patterns.map(String));
      let shared = byPatterns.get(key);
      if (!shared) byPatterns.set(key, (shared = { scanner: engine.createScanner(patterns), holders: 0 }));
      shared.holders++;
      const held = shared;
      let disposed = false;
      return {
        findNextMatchSync: (string, start, options) => held.scanner.findNextMatchSync(string, start, options),
        dispose() {
          if (disposed) return;
          disposed = true;
          if (--held.holders > 0) return;
          byPatterns.delete(key);
          held.scanner.dispose?.();
        },
      };
    },
    createString: (s) => engine.createString(s),
  };
}
