import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { processLabel, ProcessSampler } from '../../../src/build/measure.ts';

describe('processLabel', () => {
  it('names a process by the script it runs, else by its program', () => {
    expect(processLabel(['/opt/node/bin/node', '/work/src/build/stages/validate.ts', '{"catalog":"x"}'])).toBe('validate');
    expect(processLabel(['node', '--max-old-space-size=2191', '--initial-old-space-size=1095', '/work/src/build/render-process.ts'])).toBe('render-process');
    expect(processLabel(['node', 'scripts/build.ts', '--report=/tmp/r.json'])).toBe('build');
    expect(processLabel(['node', 'x.mjs'])).toBe('x');
    expect(processLabel(['/work/node_modules/@pagefind/linux-x64/bin/pagefind_extended', '--service'])).toBe('pagefind_extended');
    expect(processLabel(['node', '-e', 'require("node:fs").rmSync(process.argv[1])', '/work/dist.previous-1'])).toBe('node -e');
    expect(processLabel([])).toBe('?');
  });
});

describe.runIf(existsSync('/proc/self/stat'))('ProcessSampler', () => {
  it('sums the CPU of a tree, and gives each kind of process its CPU, own peak memory and when it ran', async () => {
    // A shell whose child node process works for 0.4 CPU-seconds (however busy the machine), holding some memory.
    const work = 'const a = Buffer.alloc(64 * 2 ** 20, 1); let x = 0; while (process.cpuUsage().user < 4e5) x += a[x % a.length];';
    const shell = spawn('sh', ['-c', `"${process.execPath}" -e '${work}'`], { stdio: 'ignore' });
    const sampler = new ProcessSampler(shell.pid!);
    const ended = new Promise((resolve) => shell.on('close', resolve));
    let closed = false;
    void ended.then(() => (closed = true));
    while (!closed) {
      sampler.sample();
      await sleep(50);
    }
    const figures = sampler.figures();
    const node = figures.find((f) => f.label === 'node -e');
    expect(node, JSON.stringify(figures)).toBeDefined();
    expect(node!.processes).toBe(1);
    expect(node!.cpuSeconds).toBeGreaterThan(0.2);
    expect(node!.peakRssBytes).toBeGreaterThan(64 * 2 ** 20);
    expect(node!.to).toBeGreaterThan(node!.from);
    expect(figures.find((f) => f.label === 'sh')).toBeDefined();
    // The tree's peak is at least its largest process's; its CPU is its processes' together.
    expect(sampler.peakRssBytes()).toBeGreaterThanOrEqual(node!.peakRssBytes);
    expect(sampler.cpuSeconds()).toBeCloseTo(
      figures.reduce((t, f) => t + f.cpuSeconds, 0),
      5,
    );
  });
});
