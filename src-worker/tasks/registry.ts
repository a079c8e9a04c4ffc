/** Every task the worker can run, by name. Add a task here and a kind in src-main/jobs. */
import { importLog } from './import-log';
import { exportLog } from './export-log';
import { prepareImport } from './prepare-import';
import { formatCatalogueTask } from './format-catalogue';
import { displayCloudTask } from './display-cloud';
import { labelCloudTask } from './label-cloud';
import { labelProposeTask } from './label-propose';
import { spin, sumArray } from './diagnostics';
import { generateScene } from './generate-scene';
import { simulateBatch } from './simulate-batch';
import { simulateLogRays } from './simulate-log-rays';
import { validateTask } from './validate';
import { benchEngineTask } from './bench-engine';
import { referenceSiteTask } from './reference-site';
import { fitModelTask } from './fit-model';
import { studyRunTask } from './study-run';
import { evaluateRunTask } from './evaluate-run';
import { evaluationRayErrorsTask } from './evaluation-ray-errors';
import { tuneModelTask } from './tune-model';
import { extractPrimitivesTask } from './extract-primitives';
import { composeSceneTask } from './compose-scene';
import { logArraysTask } from './log-arrays';
import { logTrajectoryTask } from './log-trajectory';
import { logTimelineTask } from './log-timeline';
import { neighbourIndexTask } from './neighbour-index';
import { layoutSceneTask } from './layout-scene';
import { modelSceneTask } from './model-scene';
import { previewSceneTask } from './preview-scene';
import { finishFitTask } from './finish-fit';
import { meshLibraryTask } from './mesh-library';
import { profileReadTask } from './profile-read';
import { profilePatternTask } from './profile-pattern';
import { splitLogTask } from './split-log';
import { learnNoiseTask } from './learn-noise';
import { riskTask } from './risk';
import { authorSceneTask, editorTerrainTask } from './author-scene';
import { sensorPreviewTask } from './sensor-preview';

export const TASKS = {
  'import-log': importLog,
  'export-log': exportLog,
  'prepare-import': prepareImport,
  'format-catalogue': formatCatalogueTask,
  'display-cloud': displayCloudTask,
  'label-cloud': labelCloudTask,
  'label-propose': labelProposeTask,
  spin,
  'sum-array': sumArray,
  'generate-scene': generateScene,
  'simulate-batch': simulateBatch,
  'simulate-log-rays': simulateLogRays,
  validate: validateTask,
  'bench-engine': benchEngineTask,
  'reference-site': referenceSiteTask,
  'fit-model': fitModelTask,
  'study-run': studyRunTask,
  'evaluate-run': evaluateRunTask,
  'evaluation-ray-errors': evaluationRayErrorsTask,
  'tune-model': tuneModelTask,
  'extract-primitives': extractPrimitivesTask,
  'compose-scene': composeSceneTask,
  'author-scene': authorSceneTask,
  // What the host would otherwise do itself in one go (a whole log read, a scene laid out).
  'log-arrays': logArraysTask,
  'log-trajectory': logTrajectoryTask,
  'log-timeline': logTimelineTask,
  'neighbour-index': neighbourIndexTask,
  'layout-scene': layoutSceneTask,
  'model-scene': modelSceneTask,
  'preview-scene': previewSceneTask,
  'editor-terrain': editorTerrainTask,
  'sensor-preview': sensorPreviewTask,
  'finish-fit': finishFitTask,
  'mesh-library': meshLibraryTask,
  'profile-read': profileReadTask,
  'profile-pattern': profilePatternTask,
  'split-log': splitLogTask,
  'learn-noise': learnNoiseTask,
  risk: riskTask,
} as const;

export type TaskName = keyof typeof TASKS;
