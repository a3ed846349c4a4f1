/**
 * The render stage: the pages, by Astro, one process per render partition (src/build/render-processes.ts),
 * into the staging folder; the error pages the published site holds unchanged are linked from it
 * instead (src/build/page-reuse.ts). The process of a one-partition catalog was started with the
 * build (`startRender`) and only waits for its gates: the catalog once derive has ended, the pages once
 * highlighting has.
 */
import { formatCount } from '../progress.ts';
import type { StageContext } from '../pipeline.ts';
import type { BuildState } from '../state.ts';
import { missingTemplate } from './record-files.ts';

/** At the build's start: the early render process, when the plan says so, waiting for its gates. */
export function startRender(s: BuildState): void {
  if (s.plan.render.earlyProcess) s.render.startEarly({ index: 0, count: 1, snapshot: s.snapshot, head: s.head, related: s.related });
}

/** At derive's end: the partitions are known; the early process lists its pages (or ends, when there are several). */
export function openCatalog(s: BuildState): void {
  s.render.openCatalog(s.catalog!.partitions);
}

export async function render(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const { partitions } = s.catalog!;
  // A shard's build renders its records' pages only.
  const records = s.catalog!.shard?.records ?? s.catalog!.records;
  ctx.onCancel(() => s.render.killAll());
  const board = s.board.stage('render');
  // The progress counts the error pages against the records; when pages can be reused from the
  // published site, how many will be rendered is only known as the render goes.
  if (!s.published) board.count(records, 'error pages');
  let waited = 0;
  const lanes = s.plan.render.lanes;
  const ready = (lane: number): Promise<unknown> | undefined => {
    const waits = (lanes[lane] ?? []).filter((w) => !w.ifStarted || ctx.started(w.stage));
    if (waits.length === 0) return undefined;
    const started = performance.now();
    return Promise.all(waits.map((w) => ctx.ended(w.stage))).then(() => {
      if (lane > 0) waited = (performance.now() - started) / 1000;
    });
  };
  // The files the render processes leave out are the published site's, unchanged (kept in the build
  // cache): linked in beside the render (src/build/reused-pages.ts).
  const rendered = await s.render.render(partitions, ready);
  s.rendered = rendered;
  const { several } = rendered.pages;
  // Without the short-link template the record files stage would wait for it for ever.
  const noTemplate = missingTemplate(s.dirs.staging);
  if (noTemplate) throw new Error(noTemplate);
  board.end({
    summary:
      `${formatCount(records)} error pages: ${formatCount(rendered.rendered)} pages rendered, ${formatCount(rendered.pages.reused.length - several.reused)} unchanged` +
      (partitions.length > 1 ? ` (${partitions.length} processes, ${Math.min(s.plan.workers, partitions.length)} at a time)` : '') +
      (several.reused > 0 ? `; ${formatCount(several.reused)} of ${formatCount(several.keys)} listing and message pages unchanged` : '') +
      (rendered.inPlace !== undefined ? `; ${formatCount(rendered.inPlace)} of the unchanged pages already in place in the standby's folders` : '') +
      (waited >= 0.1 ? `, the second waited ${waited.toFixed(1)} s for the full-text and message indexes` : ''),
    items: rendered.rendered + rendered.pages.reused.length,
    unit: 'pages',
  });
}
