/** The project store: the only code that knows SQL. Services use these exports, never the connection. */
export { openProject, BUSY_TIMEOUT_MS, type OpenOptions } from './database';
export { ProjectStore, type RecoveryReport } from './project-store';
export { SCHEMA_VERSION, THICKET_APPLICATION_ID, MIGRATIONS, type Migration } from './migrations';
export { LogsRepository, type BeginImport, type ImportTotals, type LogStatus } from './logs-repository';
export { JobsRepository, INTERRUPTED_MESSAGE, type JobPatch } from './jobs-repository';
export { ArrayStore, ARRAY_TABLES, DEFAULT_CHUNK_BYTES, type ArrayTable, type StoredArrayInfo } from './array-store';
export { CHUNK_DTYPES, validateChunk } from './chunk-table';
export {
  toBlob,
  fromBlob,
  dtypeOf,
  allocate,
  BYTES_PER_ELEMENT,
  DTYPES,
  type Dtype,
  type DtypeArrays,
  type StorableArray,
  type AnyStorableArray,
} from './typed-blobs';
export { RunsRepository, type BeginRun, type RunTotals } from './runs-repository';
export { ScenesRepository, type StagedScene, type StoredScene } from './scenes-repository';
export { ProfilesRepository, type StoredProfileRow } from './profiles-repository';
export { AnnotationsRepository } from './annotations-repository';
export { EvaluationsRepository, type NewEvaluation } from './evaluations-repository';
export { PrimitivesRepository } from './primitives-repository';
