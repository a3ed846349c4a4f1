/**
 * The package as a user gets it: `npm pack` of a copy of this repository (so that packing, which
 * compiles code beside its sources, never touches the work tree), and installs of the tarball into a
 * folder with no network. The npm cache holds every package this repository installed, but only as
 * tarballs, not the registry's package documents a range needs: so each install is given a lockfile
 * made from this repository's own (its packages that are not dev-only, which are errdex's dependency
 * tree, at the versions this repository runs), and npm takes every package from the cache.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const REPO = resolve('.');
/** Not needed to pack, and large or changing while tests run. */
const LEFT_OUT = new Set(['node_modules', 'dist', '.errdex', '.astro', '.git', 'tests', 'bench', 'docs', 'test-results']);

export interface Packed {
  tarball: string;
  /** What `npm pack --json` says: the tarball's bytes, the unpacked bytes, the files. */
  size: number;
  unpackedSize: number;
  files: string[];
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Run {
  const started = performance.now();
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${r.error ? String(r.error) : ''}`, seconds: (performance.now() - started) / 1000 };
}

/** Packs a copy of the repository into `dir`; throws with npm's output when it fails. */
export function packRepository(dir: string): Packed {
  const copy = join(dir, 'repo');
  cpSync(REPO, copy, { recursive: true, filter: (src) => !LEFT_OUT.has(relative(REPO, src).split('/')[0]!) });
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
  const packed = run('npm', ['pack', '--json', '--pack-destination', dir], copy);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}\n${packed.stdout}`);
  // The JSON follows whatever the prepack script printed.
  const info = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')))) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
  const first = info[0]!;
  return { tarball: join(dir, first.filename), size: first.size, unpackedSize: first.unpackedSize, files: first.files.map((f) => f.path) };
}

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  [key: string]: unknown;
}

/**
 * Points `project`'s package.json at the tarball and writes its lockfile: errdex from the tarball,
 * every package it needs as this repository's lockfile has it.
 */
export function lockToTarball(project: string, tarball: string): void {
  const pkgFile = join(project, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name: string; dependencies?: Record<string, string> };
  const spec = `file:${tarball}`;
  pkg.dependencies = { ...pkg.dependencies, errdex: spec };
  writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  const own = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string; license: string; dependencies: Record<string, string>; bin: Record<string, string>; engines: Record<string, string> };
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages: Record<string, unknown> = {
    '': { name: pkg.name, dependencies: pkg.dependencies },
    'node_modules/errdex': {
      version: own.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      license: own.license,
      dependencies: own.dependencies,
      bin: own.bin,
      engines: own.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && !entry.dev && !entry.devOptional) packages[path] = entry;
  writeFileSync(join(project, 'package-lock.json'), `${JSON.stringify({ name: pkg.name, lockfileVersion: 3, requires: true, packages }, null, 1)}\n`);
}

/** `npm install --offline` in `project` (made when missing), as a user runs it. */
export function installOffline(project: string): Run {
  mkdirSync(project, { recursive: true });
  return run('npm', ['install', '--offline', '--no-audit', '--no-fund'], project);
}
