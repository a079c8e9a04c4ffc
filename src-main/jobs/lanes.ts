/**
 * Which pool a task runs on: the tasks a person waits on go to the interactive lane
 * (pool.ts, createInteractivePool), everything else to the job pool.
 */
import type { Piscina } from 'piscina';
import type { TaskName } from '../../src-worker/tasks/registry';

export const INTERACTIVE_TASKS: ReadonlySet<TaskName> = new Set<TaskName>([
  'display-cloud',
  'evaluation-ray-errors',
  'label-cloud',
  'log-timeline',
  'preview-scene',
  'editor-terrain',
  'sensor-preview',
  'profile-read',
  'profile-pattern',
  'prepare-import',
  'format-catalogue',
]);

export interface WorkerPools {
  jobs: Piscina;
  /** Absent: every task on the job pool (tests, benches). */
  interactive?: Piscina;
}

export function poolFor(pools: WorkerPools, task: TaskName): Piscina {
  return pools.interactive && INTERACTIVE_TASKS.has(task) ? pools.interactive : pools.jobs;
}
