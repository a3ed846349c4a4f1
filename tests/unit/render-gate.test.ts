import { PassThrough } from 'node:stream';
import type { AstroPrerenderer } from 'astro';
import { describe, expect, it } from 'vitest';
import { gatedPrerenderer, gateLine, readGates } from '../../src/build/render-gate.ts';
import { firstShardRendersFixedPages } from '../../src/build/partition-prerenderer.ts';

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('the render gates', () => {
  it('each opens when its line arrives, even when the line comes in pieces', async () => {
    const input = new PassThrough();
    const gates = readGates(input, () => {});
    expect([await settled(gates.catalog), await settled(gates.pages)]).toEqual([false, false]);
    const line = gateLine('catalog');
    input.write(line.slice(0, 5));
    expect(await settled(gates.catalog)).toBe(false);
    input.write(line.slice(5));
    expect([await settled(gates.catalog), await settled(gates.pages)]).toEqual([true, false]);
    input.end(gateLine('pages'));
    expect(await settled(gates.pages)).toBe(true);
  });

  it('says the process is orphaned when its input ends with a gate still shut, and only then', async () => {
    const orphaned: string[] = [];
    const early = new PassThrough();
    readGates(early, () => orphaned.push('early'));
    early.end(gateLine('catalog'));
    const done = new PassThrough();
    readGates(done, () => orphaned.push('done'));
    done.write(gateLine('catalog'));
    done.end(gateLine('pages'));
    await new Promise((r) => setImmediate(r));
    expect(orphaned).toEqual(['early']);
  });

  it('makes Astro list the pages only once the catalog gate opens, and render only once the pages gate opens', async () => {
    const calls: string[] = [];
    const inner: AstroPrerenderer = {
      name: 'inner',
      setup: async () => void calls.push('setup'),
      getStaticPaths: async () => (calls.push('paths'), []),
      render: async () => (calls.push('render'), new Response('page')),
      teardown: async () => void calls.push('teardown'),
    };
    const input = new PassThrough();
    const gated = gatedPrerenderer(inner, readGates(input, () => {}));
    expect(gated.name).toBe('errdex:gated');
    await gated.setup!();
    const paths = gated.getStaticPaths();
    const page = gated.render(new Request('http://x/'), { routeData: {} as never });
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['setup']);
    input.write(gateLine('catalog'));
    await paths;
    expect(calls).toEqual(['setup', 'paths']);
    input.end(gateLine('pages'));
    expect(await ((await page) as Response).text()).toBe('page');
    await gated.teardown!();
    expect(calls).toEqual(['setup', 'paths', 'render', 'teardown']);
  });
});

describe('the site-wide pages of a sharded render', () => {
  const route = (params: string[]) => ({ params }) as never;
  const inner: AstroPrerenderer = {
    name: 'inner',
    getStaticPaths: async () => [
      { pathname: '/', route: route([]) },
      { pathname: '/api/manifest.json', route: route([]) },
      { pathname: '/a/b/c/', route: route(['owner', 'repo', 'slug']) },
      { pathname: '/tags/x/', route: route(['tag']) },
    ],
    render: async () => new Response('page'),
  };

  it('are rendered by the first shard only; every shard renders its routes with parameters', async () => {
    const paths = async (index: number, count: number) => (await firstShardRendersFixedPages(inner, { index, count }).getStaticPaths()).map((p) => p.pathname);
    expect(await paths(0, 1)).toEqual(['/', '/api/manifest.json', '/a/b/c/', '/tags/x/']);
    expect(await paths(0, 3)).toEqual(['/', '/api/manifest.json', '/a/b/c/', '/tags/x/']);
    expect(await paths(1, 3)).toEqual(['/a/b/c/', '/tags/x/']);
    expect(await paths(2, 3)).toEqual(['/a/b/c/', '/tags/x/']);
  });
});
