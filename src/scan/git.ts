/**
 * Reads a commit's tree straight from git's object store: the scanner works on what is committed
 * (a bare mirror needs no checkout), and one `git cat-file --batch` process streams every blob.
 */
import { execFileSync, spawn } from 'node:child_process';

export interface TreeFile {
  path: string;
  /** Blob id. */
  object: string;
  size: number;
}

function git(dir: string, args: string[], input?: string): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', input, maxBuffer: 512 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The full sha of `rev` (a branch, tag or commit), or an error naming what git said. */
export function resolveCommit(dir: string, rev: string): string {
  try {
    return git(dir, ['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`]).trim();
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr?.trim() ?? String(e);
    throw new Error(`${dir}: cannot read commit ${JSON.stringify(rev)}: ${stderr}`);
  }
}

/** The committer date of a commit, ISO-8601 UTC with milliseconds (the schema's timestamp form). */
export function commitDate(dir: string, sha: string): string {
  const seconds = Number(git(dir, ['show', '-s', '--format=%ct', sha]).trim());
  return new Date(seconds * 1000).toISOString();
}

/** `owner/name` from the `origin` remote's URL (https, ssh or scp-like GitHub forms), or null. */
export function originRepo(dir: string): string | null {
  let url: string;
  try {
    url = git(dir, ['remote', 'get-url', 'origin']).trim();
  } catch {
    return null;
  }
  return repoFromUrl(url);
}

export function repoFromUrl(url: string): string | null {
  const m = /github\.com[/:]([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+?)(?:\.git)?\/?$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : null;
}

/** Every blob of the commit's tree (submodules and symlinks left out), in git's path order. */
export function listTree(dir: string, sha: string): TreeFile[] {
  const out = git(dir, ['ls-tree', '-r', '-z', '-l', '--full-tree', sha]);
  const files: TreeFile[] = [];
  for (const line of out.split('\0')) {
    if (!line) continue;
    // <mode> SP <type> SP <object> SP+ <size> TAB <path>
    const tab = line.indexOf('\t');
    const [mode, type, object, size] = line.slice(0, tab).split(/ +/);
    if (type !== 'blob' || mode === '120000') continue;
    files.push({ path: line.slice(tab + 1), object: object!, size: Number(size) });
  }
  return files;
}

/**
 * Reads blobs through one `git cat-file --batch`, calling `onBlob` for each in request order. The
 * requests are written as the answers are read, so memory holds one blob at a time.
 */
export async function readBlobs(dir: string, objects: string[], onBlob: (index: number, bytes: Buffer) => void | Promise<void>): Promise<void> {
  if (objects.length === 0) return;
  const child = spawn('git', ['-C', dir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  child.stdin.on('error', () => {});
  child.stdin.end(objects.map((o) => `${o}\n`).join(''));

  let buffer: Buffer = Buffer.alloc(0);
  let index = 0;
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      const nl = buffer.indexOf(10);
      if (nl === -1) break;
      const header = buffer.subarray(0, nl).toString();
      const size = Number(header.split(' ')[2]);
      if (header.endsWith(' missing') || !Number.isFinite(size)) throw new Error(`${dir}: git cat-file: ${header}`);
      if (buffer.length < nl + 1 + size + 1) break;
      const bytes = Buffer.from(buffer.subarray(nl + 1, nl + 1 + size));
      buffer = buffer.subarray(nl + 1 + size + 1);
      await onBlob(index++, bytes);
    }
  }
  const code = await exited;
  if (code !== 0 || index !== objects.length) throw new Error(`${dir}: git cat-file ended with code ${code} after ${index} of ${objects.length} blobs: ${stderr.trim()}`);
}
