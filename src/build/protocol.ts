/**
 * Build stages that run in a child process of `npm run build` (scripts/lib/prepare.ts, index-stage.ts):
 * the child's memory is handed back to the system when it ends, and it can run beside other stages.
 * The child is this same module file, started with its options as JSON; it reports by messages.
 *
 * The build script imports each stage module for its start function before it starts any child: what
 * only the child needs (the catalog's schema, Shiki, Pagefind) is imported inside the stage's function,
 * so that the first children (validation, the render) start some 0.2 s sooner.
 */
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';

/**
 * Starts `moduleUrl` as a child with `options`; each message goes to `onMessage`. `done` resolves when it exits cleanly.
 * `background`: the child (and what it starts) runs at a lower scheduling priority, on what CPU the
 * other stages leave. `nodeFlags`: Node or V8 flags for the child, after this process's own.
 */
export function runChildStage<M>(
  moduleUrl: string,
  options: unknown,
  onMessage: (message: M) => void,
  what: string,
  background = false,
  nodeFlags: readonly string[] = [],
): { done: Promise<void>; kill: () => void; send: (message: unknown) => void } {
  const child = fork(new URL(moduleUrl).pathname, [JSON.stringify(options)], { execArgv: [...process.execArgv, ...nodeFlags], stdio: 'inherit' });
  if (background && child.pid !== undefined) lowerPriority(child.pid);
  const done = new Promise<void>((resolve, reject) => {
    child.on('message', (m: M) => onMessage(m));
    child.on('error', reject);
    // 'close', not 'exit': the child may have exited before its last messages were read from the
    // channel (a stage that ended while this process was busy lost its result); 'close' waits for them.
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} failed (${signal ?? `exit code ${code}`})`))));
  });
  // A message to a child that has ended is dropped: it has nothing left to be told.
  return { done, kill: () => child.kill(), send: (m) => void (child.connected && child.send(m as never)) };
}

/** Niceness 10: when the CPU is busy, such a process gets about a tenth of what one at 0 gets. */
function lowerPriority(pid: number): void {
  try {
    setPriority(pid, 10);
  } catch {
    // Not allowed here (some containers): it runs at the same priority, which is only slower.
  }
}

/** What a child stage started by startChildStage sends: progress as it goes, then one result. */
export type StageMessage<R, P = never> = { progress: P } | { result: R };

/**
 * Starts a child stage that reports one result, and progress (to `onProgress`) before it; `result`
 * rejects when it fails or ends without one.
 */
export function startChildStage<R, P = never>(
  moduleUrl: string,
  options: unknown,
  what: string,
  background = false,
  onProgress?: (progress: P) => void,
): { result: Promise<R>; kill: () => void } {
  let result: { value: R } | undefined;
  const onMessage = (m: StageMessage<R, P>) => ('result' in m ? (result = { value: m.result }) : onProgress?.(m.progress));
  const child = runChildStage<StageMessage<R, P>>(moduleUrl, options, onMessage, what, background);
  return {
    result: child.done.then(() => {
      if (!result) throw new Error(`${what} ended without a result`);
      return result.value;
    }),
    kill: child.kill,
  };
}

/**
 * In the child: when this module is the one started, runs `main` with the options and a way to
 * report, then lets the process end; a thrown error is printed and ends it with code 1.
 */
export function childStageMain<O, M>(moduleUrl: string, main: (options: O, send: (message: M) => void) => Promise<void>): void {
  if (!process.send || process.argv[1] !== new URL(moduleUrl).pathname) return;
  // Disconnecting drops messages not yet written (a large one takes a while): wait for each.
  const sending: Promise<void>[] = [];
  const send = (m: M) => {
    sending.push(new Promise<void>((done, fail) => process.send!(m, undefined, {}, (e: Error | null) => (e ? fail(e) : done()))));
  };
  main(JSON.parse(process.argv[2]!) as O, send)
    .then(() => Promise.all(sending))
    .then(
      () => process.disconnect(),
      (e: unknown) => {
        process.stderr.write(`${(e as Error).stack ?? e}\n`);
        process.exit(1);
      },
    );
}
