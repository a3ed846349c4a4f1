/**
 * Parsing is most of a scan's time, so files are parsed on worker threads (one per core, at most
 * four) while the main thread reads git and writes records. One file at a time per worker; with a
 * single core the files are parsed in this thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { readSourceFile, type FileRead } from './read-file.ts';
import type { ScanLanguage } from './select.ts';
import { siblingUrl } from '../util/sibling.ts';

export interface ReaderPool {
  read(language: ScanLanguage, source: string): Promise<FileRead>;
  close(): Promise<void>;
}

type Pending = { resolve: (r: FileRead) => void; reject: (e: Error) => void };

export function readerPool(size = Math.min(4, availableParallelism())): ReaderPool {
  if (size <= 1) return { read: readSourceFile, close: async () => {} };
  const workers = Array.from({ length: size }, () => new Worker(siblingUrl('./worker.ts', import.meta.url)));
  const pending = new Map<number, Pending>();
  const load = workers.map(() => 0);
  let next = 0;
  workers.forEach((w, i) => {
    w.on('message', (m: { id: number; result?: FileRead; error?: string }) => {
      load[i]!--;
      const p = pending.get(m.id)!;
      pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(`scan worker: ${m.error}`));
      else p.resolve(m.result!);
    });
    w.on('error', (e) => {
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    });
  });
  return {
    read(language, source) {
      const id = next++;
      // The least busy worker.
      let w = 0;
      for (let i = 1; i < workers.length; i++) if (load[i]! < load[w]!) w = i;
      load[w]!++;
      return new Promise<FileRead>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        workers[w]!.postMessage({ id, language, source });
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
