import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireBuildLock, BuildLocked, isStale, lockFileFor } from '../../../src/build/lock.ts';

const outDir = () => join(mkdtempSync(join(tmpdir(), 'errdex-lock-')), 'dist');

/** A pid that is not alive: a process that has ended. */
const deadPid = (): number => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

describe('the output folder lock', () => {
  it('is held by one build: a second fails at once naming the holder, and gets it once released', async () => {
    const dist = outDir();
    const lock = await acquireBuildLock(dist);
    const held = JSON.parse(readFileSync(lockFileFor(dist), 'utf8'));
    expect(held).toMatchObject({ pid: process.pid, host: hostname() });
    const second = acquireBuildLock(dist);
    await expect(second).rejects.toBeInstanceOf(BuildLocked);
    await expect(second).rejects.toThrow(`build pid ${process.pid} on ${hostname()}`);
    lock.release();
    expect(existsSync(lockFileFor(dist))).toBe(false);
    const again = await acquireBuildLock(dist);
    again.release();
    again.release(); // a second release is harmless
  });

  it('waits with `wait`, telling once, and takes the lock when it is released', async () => {
    const dist = outDir();
    const first = await acquireBuildLock(dist);
    const waits: unknown[] = [];
    const second = acquireBuildLock(dist, { wait: true, pollMs: 20, onWait: (h) => waits.push(h?.pid) });
    setTimeout(() => first.release(), 150);
    const lock = await second;
    expect(waits).toEqual([process.pid]);
    expect(JSON.parse(readFileSync(lockFileFor(dist), 'utf8')).started).toBe(lock.holder.started);
    lock.release();
  });

  it('takes over the lock of a build that is gone (its pid not alive on this host), not one of another host', async () => {
    const dist = outDir();
    const pid = deadPid();
    const stale = { pid, host: hostname(), started: '2026-01-01T00:00:00.000Z', pidStart: null };
    expect(isStale(stale)).toBe(true);
    writeFileSync(lockFileFor(dist), JSON.stringify(stale));
    const lock = await acquireBuildLock(dist);
    expect(lock.holder.pid).toBe(process.pid);
    lock.release();

    const elsewhere = { ...stale, host: `not-${hostname()}` };
    expect(isStale(elsewhere)).toBe(false);
    writeFileSync(lockFileFor(dist), JSON.stringify(elsewhere));
    await expect(acquireBuildLock(dist)).rejects.toThrow(`build pid ${pid} on not-${hostname()}`);
  });

  it('knows a live pid that is another process than the one that took the lock (a reused pid) as stale', () => {
    const mine = JSON.parse(JSON.stringify({ pid: process.pid, host: hostname(), started: 'x', pidStart: 'not-my-start' }));
    expect(isStale(mine)).toBe(existsSync('/proc/self/stat'));
    expect(isStale({ ...mine, pidStart: null })).toBe(false);
  });
});
