/**
 * The hostile search inputs, shared by tests/site/search-hostile.browser.test.ts and
 * scripts/bench-search-hostile.ts; both run them against tests/fixtures/catalogs/search-hostile/.
 */

/** Pages of that fixture. */
export const KV = '/engine-labs/infer/kv-cache-block-not-found-a00000/';
export const LEASE = '/orbit/queue/lease-expired-a00000/';
export const SHARD = '/engine-labs/infer/shard-overflowed-b00000/';

export interface HostileInput {
  name: string;
  text: string;
  /** The page that must come first, when the input names a real error. */
  expectFirst: string | null;
}

/** About 1 MB of log lines, the real error last. */
function megabytePaste(): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 1_000_000; i++) {
    const line = `2026-08-14T21:17:${String(i % 60).padStart(2, '0')}.123Z INFO worker-${i % 16} handled batch ${i} in ${i % 97} ms (queue depth ${i % 13})`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push('2026-08-14T21:18:00.000Z ERROR KeyError: KV cache block 4711 not found for request req-42');
  return lines.join('\n');
}

/** A Python traceback of 10,000 lines, the exception at the end. */
function longTraceback(): string {
  const lines = ['Traceback (most recent call last):'];
  for (let i = 0; lines.length < 9_999; i++) {
    lines.push(`  File "/srv/app/queue/worker_${i % 50}.py", line ${100 + (i % 900)}, in step_${i}`);
    lines.push(`    return self.step_${i + 1}(job, lease=lease)`);
  }
  lines.push('RuntimeError: lease job-7 expired after 1500ms while the lock is held');
  return lines.join('\n');
}

/**
 * One line against `shard (.*) (.*) (.*) (.*) (.*)x overflowed`: the literal words are there, so
 * the pattern is tried, but no `x`: a backtracking engine tries every way to split ~4,000
 * characters in five before failing (seconds to hours); RE2 reads the line once.
 */
function craftedAgainstPattern(): string {
  return `OverflowError: shard ${'a '.repeat(1_980)}overflowed`;
}

export const HOSTILE_INPUTS: HostileInput[] = [
  { name: '1 MB paste', text: megabytePaste(), expectFirst: KV },
  { name: '10k-line traceback', text: longTraceback(), expectFirst: LEASE },
  { name: 'paste crafted against a polynomial pattern', text: craftedAgainstPattern(), expectFirst: null },
];
