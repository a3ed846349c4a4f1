/**
 * Publishing a build: the staging folder becomes the output folder by renames only, so the site is
 * never half old, half new. The previous site is deleted by a detached process: deleting a large
 * tree file by file takes longer than the rest of an incremental build.
 */
import { spawn } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';

export function publish(stagingDir: string, outDir: string): void {
  const previous = `${outDir}.previous-${process.pid}`;
  if (existsSync(outDir)) renameSync(outDir, previous);
  renameSync(stagingDir, outDir);
  if (existsSync(previous)) removeInBackground(previous);
}

/** Deletes a folder from a detached process that outlives this one. */
export function removeInBackground(dir: string): void {
  const code = 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })';
  spawn(process.execPath, ['-e', code, dir], { detached: true, stdio: 'ignore' }).unref();
}
