/**
 * Vitest's global setup: every temporary folder a run makes goes into one folder of its own, removed
 * when the run ends. Tests, the builds they start and the browsers they drive all ask `os.tmpdir()`
 * (which reads TMPDIR), so one variable set before the test processes start covers them all; without
 * it each run leaves hundreds of folders behind in the system's temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'errdex-tests-'));
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    // ERRDEX_KEEP_TEMP keeps the folder to look at a failed run's files.
    if (process.env.ERRDEX_KEEP_TEMP) console.log(`errdex: the run's temporary files are in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };
}
