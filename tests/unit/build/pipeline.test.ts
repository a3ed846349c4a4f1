import { describe, expect, it } from 'vitest';
import { Pipeline, StageError, type Stage } from '../../../src/build/pipeline.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Pipeline', () => {
  it('starts each stage once its needs have ended, side by side when they need nothing of each other', async () => {
    const log: string[] = [];
    const stage = (name: string, needs: string[]): Stage<null> => ({
      name,
      needs,
      run: async () => {
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
      },
    });
    await new Pipeline(null, [stage('c', ['a', 'b']), stage('a', []), stage('b', [])]).run();
    expect(log.slice(0, 2).sort()).toEqual(['a+', 'b+']);
    expect(log.indexOf('c+')).toBeGreaterThan(Math.max(log.indexOf('a-'), log.indexOf('b-')));
  });

  it('on a failure cancels the running stages, starts no more, cleans up and rejects with the failed stage', async () => {
    const log: string[] = [];
    const p = new Pipeline(null, [
      { name: 'slow', needs: [], run: (ctx) => new Promise((_, reject) => ctx.onCancel(() => (log.push('slow killed'), reject(new Error('killed'))))) },
      { name: 'bad', needs: [], run: async () => (await tick(), Promise.reject(new Error('broken'))) },
      { name: 'after', needs: ['bad'], run: async () => void log.push('after ran') },
      { name: 'waiting', needs: [], run: async (ctx) => ctx.ended('bad') },
    ]);
    p.onCleanup((failed) => log.push(failed ? 'cleaned after a failure' : 'cleaned'));
    const e = await p.run().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StageError);
    expect((e as StageError).stage).toBe('bad');
    expect((e as StageError).message).toBe('broken');
    expect(log).toEqual(['slow killed', 'cleaned after a failure']);
  });

  it('replan gives the stages not begun new needs', async () => {
    const log: string[] = [];
    const p: Pipeline<null> = new Pipeline(null, [
      { name: 'first', needs: [], run: async () => (log.push('first'), p.replan(new Map([['third', []], ['second', ['third']]]))) },
      { name: 'second', needs: ['first'], run: async () => void log.push('second') },
      { name: 'third', needs: ['second'], run: async () => void log.push('third') },
    ]);
    p.onCleanup((failed) => log.push(failed ? 'cleaned after a failure' : 'cleaned'));
    await p.run();
    expect(log).toEqual(['first', 'third', 'second', 'cleaned']);
  });

  it('refuses needs that name no stage, and reports stages that wait for each other', async () => {
    expect(() => new Pipeline(null, [{ name: 'a', needs: ['nope'], run: async () => {} }])).toThrow(/needs nope/);
    const p = new Pipeline(null, [
      { name: 'a', needs: ['b'], run: async () => {} },
      { name: 'b', needs: ['a'], run: async () => {} },
    ]);
    await expect(p.run()).rejects.toThrow(/wait for each other/);
  });
});
