/**
 * The one message protocol between the build and its child processes (validate and derive,
 * highlight, the full-text index, the message index, the record files, each render process).
 * A stage runs in a child so that its memory goes back to the system when it ends, and so that it can
 * run beside other stages. Children are forked with an IPC channel: they send ChildMessages (progress,
 * warnings, one result), the build sends BuildMessages (a gate opened, the partition count).
 *
 * A stage module is its own child: the build forks the module's file with its options as JSON; the
 * module's `childMain` runs when the module is the one started. What only the child needs (the schema,
 * Shiki, Pagefind) is imported inside the child's function, so the build starts children sooner.
 */
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Priority, StageName } from './plan.ts';

/** A stage's result line, and what it measured (src/build/measure.ts). */
export interface StageSummary {
  summary: string;
  items: number;
  unit: string;
  output?: { files: number | null; bytes: number };
}

/** What a child tells the build. */
export type ChildMessage =
  | { type: 'count'; stage: StageName; total: number; unit: string }
  | { type: 'update'; stage: StageName; done: number }
  | { type: 'warn'; text: string }
  /** The summary of a stage that ends before its child does (validate, in validation's child). */
  | ({ type: 'summary'; stage: StageName } & StageSummary)
  /** Validation's child has written the snapshot of the `records` valid entries (its head and the related errors follow). */
  | { type: 'snapshot'; records: number }
  /** Validation's outcome: the snapshot is written (`records` valid), or the catalog is invalid (null). */
  | { type: 'validated'; records: number | null; rendered?: number; changed?: number }
  /** A render process has listed its error pages: its page log says which the published site lends (src/build/reused-pages.ts). */
  | { type: 'listed' }
  | { type: 'result'; value: unknown };

/**
 * What the build tells a child: a gate opened (a render process started before its input exists:
 * src/build/render-gate.ts; the highlight stage begun from the catalog files: `snapshot`), or the
 * render partitions the plan chose for the catalog validation counted.
 */
export type BuildMessage = { type: 'open'; gate: Gate } | { type: 'partitions'; count: number };
export type Gate = 'catalog' | 'pages' | 'snapshot';

export interface ChildOptions {
  /** 'low': the child (and what it starts) runs at niceness 10, on what CPU the other stages leave. */
  priority?: Priority;
  /** Node or V8 flags, after this process's own. */
  nodeFlags?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Where the child's own output goes: this process's (default), or a function given each chunk. */
  output?: (chunk: Buffer) => void;
}

export interface Child {
  /** Resolves when the child exits cleanly, after its last message; rejects otherwise. */
  done: Promise<void>;
  kill: () => void;
  send: (message: BuildMessage) => void;
}

/** Forks `file` with `args`; each message goes to `onMessage`. `what` names it in errors. */
export function startChild(file: string, args: string[], onMessage: (m: ChildMessage) => void, what: string, options: ChildOptions = {}): Child {
  const child = fork(file, args, {
    execArgv: [...process.execArgv, ...(options.nodeFlags ?? [])],
    // Unset, the child inherits this process's environment (fork's own default).
    env: options.env,
    stdio: options.output ? ['ignore', 'pipe', 'pipe', 'ipc'] : 'inherit',
  });
  if (options.output) {
    child.stdout!.on('data', options.output);
    child.stderr!.on('data', options.output);
  }
  if (options.priority === 'low' && child.pid !== undefined) lowerPriority(child.pid);
  const done = new Promise<void>((resolve, reject) => {
    child.on('message', (m: ChildMessage) => onMessage(m));
    child.on('error', reject);
    // 'close', not 'exit': the child may have exited before its last messages were read from the
    // channel; 'close' waits for them.
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} failed (${signal ?? `exit code ${code}`})`))));
  });
  // A message to a child that has ended is dropped: it has nothing left to be told.
  return { done, kill: () => child.kill(), send: (m) => void (child.connected && child.send(m)) };
}

/** Niceness 10: when the CPU is busy, such a process gets about a tenth of what one at 0 gets. */
function lowerPriority(pid: number): void {
  try {
    setPriority(pid, 10);
  } catch {
    // Not allowed here (some containers): it runs at the same priority, which is only slower.
  }
}

/** Starts a stage module's child (see childMain) with `options`; resolves with its result. */
export function startStageChild<R>(
  moduleUrl: string,
  options: unknown,
  onMessage: (m: ChildMessage) => void,
  what: string,
  childOptions: ChildOptions = {},
): { result: Promise<R>; kill: () => void; send: (m: BuildMessage) => void } {
  let result: { value: R } | undefined;
  const child = startChild(fileURLToPath(moduleUrl), [JSON.stringify(options)], (m) => (m.type === 'result' ? (result = { value: m.value as R }) : onMessage(m)), what, childOptions);
  return {
    result: child.done.then(() => {
      if (!result) throw new Error(`${what} ended without a result`);
      return result.value;
    }),
    kill: child.kill,
    send: child.send,
  };
}

/** In a child: sends a message to the build, and resolves once it is written (or at once without a build). */
export function tellBuild(m: ChildMessage): Promise<void> {
  if (!process.send) return Promise.resolve();
  return new Promise<void>((done, fail) => process.send!(m, undefined, {}, (e: Error | null) => (e ? fail(e) : done())));
}

/** In a child: resolves when the build opens `gate` (see BuildMessage). */
export function gateOpened(gate: Gate): Promise<void> {
  return new Promise<void>((resolve) => {
    const listen = (m: BuildMessage) => {
      if (m.type === 'open' && m.gate === gate) {
        process.off('message', listen);
        resolve();
      }
    };
    process.on('message', listen);
  });
}

/** In a child: the partition count, when the build sends it. */
export function partitionsChosen(): Promise<number> {
  return new Promise<number>((resolve) => process.on('message', (m: BuildMessage) => m.type === 'partitions' && resolve(m.count)));
}

/**
 * In a child: when this module is the one started, runs `main` with the options and a way to report,
 * then lets the process end; a thrown error is printed and ends it with code 1.
 */
export function childMain<O>(moduleUrl: string, main: (options: O, send: (m: ChildMessage) => void) => Promise<unknown>): void {
  if (!process.send || process.argv[1] !== fileURLToPath(moduleUrl)) return;
  // Disconnecting drops messages not yet written (a large one takes a while): wait for each.
  const sending: Promise<void>[] = [];
  const send = (m: ChildMessage) => void sending.push(tellBuild(m));
  main(JSON.parse(process.argv[2]!) as O, send)
    .then((value) => {
      if (value !== undefined) send({ type: 'result', value });
      return Promise.all(sending);
    })
    .then(
      () => process.disconnect(),
      (e: unknown) => {
        process.stderr.write(`${(e as Error).stack ?? e}\n`);
        process.exit(1);
      },
    );
}
