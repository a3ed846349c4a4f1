import { EventEmitter } from 'node:events';
import type { AstroPrerenderer } from 'astro';
import { describe, expect, it } from 'vitest';
import { gatedPrerenderer, readGates, type RenderGate } from '../../../src/build/render-gate.ts';

const open = (channel: EventEmitter, gate: RenderGate) => channel.emit('message', { type: 'open', gate });
import { firstPartitionRendersFixedPages } from '../../../src/build/partition-prerenderer.ts';

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('the render gates', () => {
  it('each opens when the build says so, and not before', async () => {
    const channel = new EventEmitter();
    const gates = readGates(channel, () => {});
    expect([await settled(gates.catalog), await settled(gates.pages)]).toEqual([false, false]);
    channel.emit('message', { type: 'open', gate: 'snapshot' });
    channel.emit('message', { type: 'partitions', count: 2 });
    expect([await settled(gates.catalog), await settled(gates.pages)]).toEqual([false, false]);
    open(channel, 'catalog');
    expect([await settled(gates.catalog), await settled(gates.pages)]).toEqual([true, false]);
    open(channel, 'pages');
    expect(await settled(gates.pages)).toBe(true);
  });

  it('says the process is orphaned when the build goes with a gate still shut, and only then', async () => {
    const orphaned: string[] = [];
    const early = new EventEmitter();
    readGates(early, () => orphaned.push('early'));
    open(early, 'catalog');
    early.emit('disconnect');
    const done = new EventEmitter();
    readGates(done, () => orphaned.push('done'));
    open(done, 'catalog');
    open(done, 'pages');
    done.emit('disconnect');
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
    const channel = new EventEmitter();
    const gated = gatedPrerenderer(inner, readGates(channel, () => {}));
    expect(gated.name).toBe('errdex:gated');
    await gated.setup!();
    const paths = gated.getStaticPaths();
    const page = gated.render(new Request('http://x/'), { routeData: {} as never });
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['setup']);
    open(channel, 'catalog');
    await paths;
    expect(calls).toEqual(['setup', 'paths']);
    open(channel, 'pages');
    expect(await ((await page) as Response).text()).toBe('page');
    await gated.teardown!();
    expect(calls).toEqual(['setup', 'paths', 'render', 'teardown']);
  });
});

describe('the site-wide pages of a partitioned render', () => {
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

  it('are rendered by the first partition only; every partition renders its routes with parameters', async () => {
    const paths = async (index: number, count: number) => (await firstPartitionRendersFixedPages(inner, { index, count }, false).getStaticPaths()).map((p) => p.pathname);
    expect(await paths(0, 1)).toEqual(['/', '/api/manifest.json', '/a/b/c/', '/tags/x/']);
    expect(await paths(0, 3)).toEqual(['/', '/api/manifest.json', '/a/b/c/', '/tags/x/']);
    expect(await paths(1, 3)).toEqual(['/a/b/c/', '/tags/x/']);
    expect(await paths(2, 3)).toEqual(['/a/b/c/', '/tags/x/']);
  });

  it("are rendered by no partition of a shard's build: the merge renders them", async () => {
    const paths = async (index: number, count: number) => (await firstPartitionRendersFixedPages(inner, { index, count }, true).getStaticPaths()).map((p) => p.pathname);
    expect(await paths(0, 1)).toEqual(['/a/b/c/', '/tags/x/']);
    expect(await paths(0, 2)).toEqual(['/a/b/c/', '/tags/x/']);
  });
});
