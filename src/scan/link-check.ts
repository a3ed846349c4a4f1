/**
 * Checks that each record's `githubUrl` line anchor points at the raise: the lines it names, read
 * back from the commit, hold the raising construct. Used by `npm run bench:scan` on real repositories.
 */
import type { ErrorRecord } from '../schema/record.ts';
import { readBlobs } from './git.ts';
import { execFileSync } from 'node:child_process';

const CONSTRUCT = /\braise\b|\bfail\b|\bthrow\b|\berror\(|\b(?:require|check)(?:NotNull)?\b|\bwarn\(|\.expect\(|\b(?:msg_template|message_template|default_message|default_detail|message|msg)\s*=|#\[error\b|\b(?:panic|bail|anyhow|format_err|ensure|assert|debug_assert|unreachable|todo|unimplemented)!|\berrors\.New\(|\bfmt\.Errorf\(|\bpanic\(/;

/** Records whose anchored lines do not hold a raise construct, as `path#Ln: reason`. */
export async function linkProblems(dir: string, records: readonly ErrorRecord[]): Promise<string[]> {
  const byBlob = new Map<string, ErrorRecord[]>();
  for (const r of records) {
    const key = `${r.analyzedSha}:${r.filePath}`;
    byBlob.set(key, [...(byBlob.get(key) ?? []), r]);
  }
  const keys = [...byBlob.keys()];
  // Blob ids of the files, read independently of the scan (git rev-parse <sha>:<path>).
  const objects = execFileSync('git', ['-C', dir, 'rev-parse', ...keys], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim().split('\n');
  const problems: string[] = [];
  await readBlobs(dir, objects, (i, bytes) => {
    const lines = bytes.toString('utf8').replace(/\r\n/g, '\n').split('\n');
    for (const r of byBlob.get(keys[i]!)!) {
      const m = /#L(\d+)(?:-L(\d+))?$/.exec(r.githubUrl);
      if (!m) {
        problems.push(`${r.filePath}: no line anchor in ${r.githubUrl}`);
        continue;
      }
      const from = Number(m[1]);
      const to = Number(m[2] ?? m[1]);
      const text = lines.slice(from - 1, to).join('\n');
      if (!CONSTRUCT.test(text)) problems.push(`${r.filePath}#L${from}${to !== from ? `-L${to}` : ''}: no raise construct in ${JSON.stringify(text.slice(0, 120))}`);
    }
  });
  return problems;
}
