import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRenderContext, type RenderContext } from '../../src/context.ts';

const good: RenderContext = {
  snapshot: { entries: '/c/catalog.jsonl', head: '/c/head.json', related: '/c/related.jsonl' },
  partition: { index: 1, count: 2 },
  shard: null,
  outDir: '/r/partition-1',
  astroCacheDir: '/cache/astro/partition-1-of-2',
  highlightCache: '/cache/highlight.sqlite',
  reuse: null,
  pageLog: '/r/pages-1.jsonl',
  gated: false,
};

function write(value: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'errdex-context-')), 'context.json');
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('the render context', () => {
  it('reads what the build wrote', () => {
    expect(readRenderContext(write(good))).toEqual(good);
    expect(readRenderContext(write({ ...good, reuse: { site: '/dist', keys: '/k.json' } })).reuse).toEqual({ site: '/dist', keys: '/k.json' });
  });

  it('refuses a file that is not one, saying which field is wrong', () => {
    expect(() => readRenderContext(write({ ...good, partition: { index: 2, count: 2 } }))).toThrow(/not a render context:[\s\S]*index must be below count/);
    expect(() => readRenderContext(write({ ...good, gated: 'yes' }))).toThrow(/gated/);
    expect(() => readRenderContext(write({ ...good, extra: 1 }))).toThrow(/extra/);
    expect(() => readRenderContext(write('{"snapshot":'))).toThrow(/not a render context/);
    expect(() => readRenderContext('/no/such/context.json')).toThrow(/does not exist/);
  });
});
