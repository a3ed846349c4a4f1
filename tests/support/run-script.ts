/**
 * Runs one of the project's scripts as a user does, in a process of its own: its exit code and
 * what it printed, with the environment and standard input a test gives it.
 */
import { spawn } from 'node:child_process';

export interface ScriptRun {
  code: number;
  out: string;
  err: string;
}

export function runScript(file: string, args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<ScriptRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [file, ...args], { env: options.env ?? process.env, stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, out, err }));
    if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  });
}
