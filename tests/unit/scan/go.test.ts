import { describe, expect, it } from 'vitest';
import { scanFixture, expectSound } from './records.ts';

describe('scan: Go', async () => {
  const r = await scanFixture('go');

  it('reads errors.New, fmt.Errorf and panic with literals, Sprintf, errors.New and a name assigned before', () => {
    const sentinel = r.records.find((x) => x.errorMessage === 'queue is closed' && x.errorClass === 'ErrClosed')!;
    expect(sentinel.errorClass).toBe('ErrClosed');
    expect(sentinel.documentation).toContain('"ErrClosed is returned by Push after Close."');
    const full = r.byMessage('queue full: {n} of {q.cap} slots used (100% busy): {ErrClosed}');
    expect(full.errorClass).toBeNull();
    expect(full.triggerScenarios).toContain('`n > q.cap` holds in `Queue.Push`');
    expect(r.byMessage('empty item pushed to queue').errorType).toBe('panic');
    r.byMessage('item {item} rejected');
    expect(r.byMessage('raw stop item received').triggerScenarios).toContain('matches `"stop"`');
    expectSound(r.records);
  });

  it('skips _test.go files, vendor/ and panics with no words', () => {
    expect(r.summary.filesSkipped).toEqual({ test: 1, vendored: 1 });
    expect(r.summary.sitesSkipped).toEqual({ 'no-words': 1 });
    expect(r.records).toHaveLength(7);
  });

  it('reads a package-level const as the message, and a sentinel panicked with', () => {
    expect(r.byMessage('queue is draining, try later').triggerScenarios).toContain('`q.cap == 0` holds in `Queue.Drain`');
    const panicked = r.records.filter((x) => x.errorMessage === 'queue is closed');
    expect(panicked.map((x) => x.errorClass).sort()).toEqual(['ErrClosed', 'panic']);
  });
});
