import { availableParallelism } from 'node:os';

/** How many render processes and highlight threads run at a time: `ERRDEX_WORKERS`, else one per core. */
export function workerCount(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.ERRDEX_WORKERS);
  return Number.isInteger(n) && n > 0 ? n : availableParallelism();
}
