/**
 * One build per output folder: a lock file beside it (`dist.lock` for `dist/`), made with link(2),
 * which fails when the name exists, so that of two builds starting together exactly one gets it, and
 * the file is complete before it has its name. It holds the build's pid, host, start time and (on
 * Linux) its process's start tick, so that a lock left by a crashed build is recognised as stale: its
 * pid is not alive on this host, or is alive as another process. A lock of another host cannot be
 * checked: the message says which host holds it and how to remove it.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { displayPath } from '../catalog/load.ts';
import { writeDurably } from '../util/files.ts';

export interface LockHolder {
  pid: number;
  host: string;
  /** When the build started, ISO 8601. */
  started: string;
  /** The process's start time in clock ticks since boot (Linux /proc), telling a reused pid apart; null elsewhere. */
  pidStart: string | null;
}

export const lockFileFor = (outDir: string): string => `${outDir}.lock`;

/** The start tick of a process (field 22 of /proc/<pid>/stat), or null when it cannot be read. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the build that holds a lock is gone (only knowable on its own host). */
export function isStale(holder: LockHolder, host = hostname()): boolean {
  if (holder.host !== host) return false;
  if (!alive(holder.pid)) return true;
  const start = processStart(holder.pid);
  return holder.pidStart !== null && start !== null && start !== holder.pidStart;
}

function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
    return Number.isInteger(h.pid) && typeof h.host === 'string' ? h : null;
  } catch {
    return null;
  }
}

const sameHolder = (a: LockHolder | null, b: LockHolder | null): boolean => a !== null && b !== null && a.pid === b.pid && a.host === b.host && a.started === b.started;

/** The output folder is another build's: says which, and what to do. */
export class BuildLocked extends Error {
  readonly holder: LockHolder | null;
  constructor(outDir: string, holder: LockHolder | null) {
    const file = displayPath(lockFileFor(outDir));
    const who = holder ? `build pid ${holder.pid} on ${holder.host}, started ${holder.started}` : 'a build whose lock cannot be read';
    super(
      `Another build is writing to ${displayPath(outDir)}: ${who} (lock file ${file}).\n` +
        `Wait for it to end, or build with --wait-for-lock to wait. If no such build runs (its machine went down), delete ${file}.`,
    );
    this.holder = holder;
  }
}

export interface BuildLock {
  file: string;
  holder: LockHolder;
  /** Removes the lock file if it is still this build's; safe to call more than once. */
  release(): void;
}

/**
 * Takes the output folder's lock, removing a stale one. Held by a live build: throws BuildLocked, or,
 * with `wait`, tells `onWait` once and tries again every `pollMs` until it is free.
 */
export async function acquireBuildLock(outDir: string, options: { wait?: boolean; onWait?: (holder: LockHolder | null) => void; pollMs?: number } = {}): Promise<BuildLock> {
  const file = lockFileFor(outDir);
  mkdirSync(dirname(file), { recursive: true });
  const holder: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), pidStart: processStart(process.pid) };
  const temp = `${file}.${process.pid}.tmp`;
  writeDurably(temp, `${JSON.stringify(holder)}\n`);
  let told = false;
  try {
    for (;;) {
      try {
        linkSync(temp, file);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const other = readHolder(file);
      if (other && isStale(other)) {
        removeStale(file, other);
        continue;
      }
      if (!options.wait) throw new BuildLocked(outDir, other);
      if (!told) options.onWait?.(other);
      told = true;
      await sleep(options.pollMs ?? 500);
    }
  } finally {
    rmSync(temp, { force: true });
  }
  const release = () => {
    process.off('exit', release);
    if (sameHolder(readHolder(file), holder)) unlinkSync(file);
  };
  // However the process ends short of a kill, the lock goes with it.
  process.on('exit', release);
  return { file, holder, release };
}

/**
 * Moves a stale lock aside and deletes it. Should another build have replaced it in the meantime
 * (it found it stale too, and took the lock), that build's lock is put back.
 */
function removeStale(file: string, stale: LockHolder): void {
  const aside = `${file}.stale-${process.pid}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // Gone already: another build removed it.
  }
  const moved = readHolder(aside);
  if (!sameHolder(moved, stale)) {
    try {
      linkSync(aside, file);
    } catch {
      // A third build has the name now; it holds the lock.
    }
  }
  rmSync(aside, { force: true });
}
