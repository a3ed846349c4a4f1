import { describe, expect, it } from 'vitest';
import { expectSound, scanFixture } from './records.ts';

describe('scan: Kotlin', async () => {
  const r = await scanFixture('kotlin');

  it('reads throw X(...), error(), require/check messages, string templates, +, format() and a file constant', () => {
    const size = r.byMessage('pool size must be positive, got {size}');
    expect([size.errorClass, size.lineNumber]).toEqual(['IllegalArgumentException', 8]);
    const negative = r.byMessage('connection id {id} is negative (size {this.size})');
    expect(negative.triggerScenarios).toContain('`id < 0` holds in `Pool.take`');
    expect(negative.documentation).toContain('"Takes a connection by [id]."');
    expect(r.byMessage('connection {id} out of range').errorClass).toBe('PoolException');
    expect(r.byMessage('no connection with id {id}').errorClass).toBe('IllegalStateException');
    expect(r.byMessage('connection {id} is closed').errorClass).toBe('IllegalStateException');
    // ${'$'} writes a dollar sign.
    expect(r.byMessage('connection {id} is idle, price $5').triggerScenarios).toContain('matches `"idle"`');
    expect(r.byMessage('connection {id} is busy').triggerScenarios).toContain('`conn.busy` holds');
    // A `when`'s else branch: no other branch matched.
    expect(r.byMessage('connection {id} is in an unknown state').triggerScenarios).toMatch(/^The code raises it when no other branch of the `when` matches in `Pool.take`\. /);
    r.byMessage('pool is exhausted, no connection left');
    // trimIndent() drops the first and last lines and the common indentation.
    expect(r.byMessage('{count} connections leaked:\n    close every response body.').lineNumber).toBe(39);
    expectSound(r.records);
  });

  it('skips a jvmTest source set and a rethrow', () => {
    expect(r.summary.filesSkipped).toEqual({ test: 1 });
    expect(r.summary.skippedSites).toEqual(['src/main/kotlin/acme/Pool.kt:28 rethrow']);
    expect(r.records).toHaveLength(10);
  });
});
