/** Every task the worker can run, by name. Add a task here and a kind in src-main/jobs. */
import { importCloud } from './import-cloud';
import { displayCloudTask } from './display-cloud';
import { spin, sumArray } from './diagnostics';
import { generateScene } from './generate-scene';
import { simulateBatch } from './simulate-batch';
import { validateTask } from './validate';
import { benchEngineTask } from './bench-engine';

export const TASKS = {
  'import-cloud': importCloud,
  'display-cloud': displayCloudTask,
  spin,
  'sum-array': sumArray,
  'generate-scene': generateScene,
  'simulate-batch': simulateBatch,
  validate: validateTask,
  'bench-engine': benchEngineTask,
} as const;

export type TaskName = keyof typeof TASKS;
