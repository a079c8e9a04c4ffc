/**
 * Fitted models: a row (name, kind, source log, θ as JSON, the fit report as JSON) and the
 * element arrays as BLOBs in model_arrays (ArrayStore, one named array each: see
 * src-worker/fit/model.ts), plus the sensor's trail. A model is written in one transaction —
 * the row and all of its arrays, or nothing — and its arrays cascade with it.
 */
import type Database from 'better-sqlite3';
import { ApiError, type ModelInfo } from '../api/contract';
import type { ArrayStore } from './array-store';
import { EntityRows } from './entity-rows';
import { dtypeOrNull, type Dtype } from './typed-blobs';
import { MODEL_ARRAY_NAMES, OPTIONAL_MODEL_ARRAY_NAMES, checkModelArrays, type ModelArrays } from '../../src-common/fitted-model';
import { writeTransaction } from './write-transaction';

interface ModelRow {
  id: number;
  name: string;
  kind: string;
  source_log_id: number | null;
  params: string;
  report: string | null;
  job_id: number | null;
  created_at: string;
}

export interface NewModel {
  name: string;
  kind: string;
  sourceLogId: number | null;
  params: Record<string, unknown>;
  report: Record<string, unknown>;
  jobId: number | null;
}

const COLUMNS = 'id, name, kind, source_log_id, params, report, job_id, created_at';
/** The trail array's name beside the element arrays. */
const TRAIL = 'trail';

function toInfo(r: ModelRow): ModelInfo {
  const report = r.report ? (JSON.parse(r.report) as Record<string, unknown>) : null;
  const counts = (report?.counts ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    sourceLogId: r.source_log_id,
    params: JSON.parse(r.params) as Record<string, unknown>,
    report,
    counts: { triangles: num(counts.triangles), ellipsoids: num(counts.ellipsoids), voxels: num(counts.voxels) },
    groundVariance: num(report?.groundVariance),
    jobId: r.job_id,
    createdAt: r.created_at,
  };
}

export class ModelsRepository extends EntityRows<ModelRow, ModelInfo> {
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly arrayStore: ArrayStore,
  ) {
    super(db, { table: 'models', columns: COLUMNS, visible: "status = 'ready'" }, toInfo);
    this.stmts = {
      insert: db.prepare<[string, string, number | null, string, string, number | null]>(
        `INSERT INTO models (name, kind, source_log_id, params, report, job_id) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      insertWriting: db.prepare<[string, string, number | null, string, string, number | null]>(
        `INSERT INTO models (name, kind, source_log_id, params, report, job_id, status) VALUES (?, ?, ?, ?, ?, ?, 'writing')`,
      ),
      publish: db.prepare<[number]>(`UPDATE models SET status = 'ready' WHERE id = ? AND status = 'writing'`),
      discard: db.prepare<[number]>(`DELETE FROM models WHERE id = ? AND status = 'writing'`),
      // Models being written whose job is no longer live (recover() has just interrupted orphans).
      discardWriting: db.prepare<[]>(
        `DELETE FROM models WHERE status = 'writing'
           AND (job_id IS NULL OR job_id NOT IN (SELECT id FROM jobs WHERE state IN ('queued', 'running')))`,
      ),
    };
  }

  /** The row and every array in one transaction. */
  create(model: NewModel, arrays: ModelArrays, trail: Float64Array): ModelInfo {
    checkModelArrays(arrays);
    return writeTransaction(this.db, () => {
      const id = Number(
        this.stmts.insert.run(model.name, model.kind, model.sourceLogId, JSON.stringify(model.params), JSON.stringify(model.report), model.jobId).lastInsertRowid,
      );
      for (const name of storedNames(arrays)) this.arrayStore.writeArray(id, name, arrays[name]!);
      this.arrayStore.writeArray(id, TRAIL, trail);
      return this.get(id)!;
    });
  }

  /**
   * The same, a piece at a time: the row hidden ('writing'), every array one storage chunk per
   * turn of the event loop, then one step makes it visible; on failure the staged rows go.
   */
  async createInTurns(model: NewModel, arrays: ModelArrays, trail: Float64Array): Promise<ModelInfo> {
    checkModelArrays(arrays);
    const id = Number(
      this.stmts.insertWriting.run(model.name, model.kind, model.sourceLogId, JSON.stringify(model.params), JSON.stringify(model.report), model.jobId).lastInsertRowid,
    );
    try {
      for (const name of storedNames(arrays)) await this.arrayStore.writeArrayInTurns(id, name, arrays[name]!);
      await this.arrayStore.writeArrayInTurns(id, TRAIL, trail);
      if (this.stmts.publish.run(id).changes !== 1) throw new ApiError('internal', `model ${id} is not being written`);
      return this.get(id)!;
    } catch (e) {
      this.stmts.discard.run(id);
      throw e;
    }
  }

  /** Drops the models still being written by jobs no longer live (on open, after interrupting orphans). */
  discardUnfinished(): number {
    return this.stmts.discardWriting.run().changes;
  }

  /** The model's element arrays (fresh buffers), checked for consistency. */
  arrays(id: number): ModelArrays {
    const arrays = Object.fromEntries([...MODEL_ARRAY_NAMES, ...OPTIONAL_MODEL_ARRAY_NAMES].map((name) => [name, this.arrayStore.readArray(id, name, MODEL_ARRAY_DTYPES[name])]));
    return checked(id, arrays);
  }

  /** The same, one storage chunk per turn of the event loop (a model of a long drive is tens of MB). */
  async arraysInTurns(id: number): Promise<ModelArrays> {
    const arrays: Record<string, unknown> = {};
    for (const name of [...MODEL_ARRAY_NAMES, ...OPTIONAL_MODEL_ARRAY_NAMES]) arrays[name] = await this.arrayStore.readArrayInTurns(id, name);
    return checked(id, arrays);
  }

  /** The sensor's path while logging (poses world ← sensor, 7 each); empty when not stored. */
  trail(id: number): Float64Array {
    return this.arrayStore.readArray(id, TRAIL, 'f64') ?? new Float64Array(0);
  }
}

/** The element type each model array is stored as. */
const MODEL_ARRAY_DTYPES = {
  groundPositions: 'f32', groundPHit: 'f32', groundBlock: 'i32', groundHits: 'u32', groundMisses: 'u32',
  ellipsoidMeans: 'f64', ellipsoidCovariances: 'f64', ellipsoidPHit: 'f32', ellipsoidBlock: 'i32', ellipsoidPoints: 'u32', ellipsoidHits: 'u32', ellipsoidMisses: 'u32',
  voxelMeans: 'f64', voxelCovariances: 'f64', voxelPermeability: 'f32', voxelBlock: 'i32', voxelPoints: 'u32', voxelEnds: 'u32', voxelPasses: 'u32',
  ellipsoidCellStart: 'u32', ellipsoidCellKey: 'u16', ellipsoidCellHits: 'u32', ellipsoidCellPasses: 'u32',
  groundCellStart: 'u32', groundCellKey: 'u16', groundCellHits: 'u32', groundCellPasses: 'u32',
  groundPHitReturned: 'f32', groundCellNoReturns: 'u32', ellipsoidPHitReturned: 'f32', ellipsoidCellNoReturns: 'u32',
} as const satisfies Record<(typeof MODEL_ARRAY_NAMES)[number] | (typeof OPTIONAL_MODEL_ARRAY_NAMES)[number], Dtype>;

/** The arrays a model stores: every required one, and the optional ones it has. */
function storedNames(arrays: ModelArrays): (keyof ModelArrays)[] {
  return [...MODEL_ARRAY_NAMES, ...OPTIONAL_MODEL_ARRAY_NAMES.filter((n) => arrays[n] !== undefined)];
}

/** Read arrays as ModelArrays: every one present, of its type, and consistent with the others. */
function checked(id: number, arrays: Record<string, unknown>): ModelArrays {
  for (const name of MODEL_ARRAY_NAMES) {
    const a = arrays[name];
    if (!a) throw new ApiError('internal', `model ${id}: array ${name} is missing`);
    if (dtypeOrNull(a) !== MODEL_ARRAY_DTYPES[name]) throw new ApiError('internal', `model ${id}: array ${name} is not ${MODEL_ARRAY_DTYPES[name]}`);
  }
  for (const name of OPTIONAL_MODEL_ARRAY_NAMES) {
    const a = arrays[name];
    if (!a) {
      delete arrays[name];
      continue;
    }
    if (dtypeOrNull(a) !== MODEL_ARRAY_DTYPES[name]) throw new ApiError('internal', `model ${id}: array ${name} is not ${MODEL_ARRAY_DTYPES[name]}`);
  }
  const model = arrays as unknown as ModelArrays;
  try {
    checkModelArrays(model);
  } catch (e) {
    throw new ApiError('internal', `model ${id}: ${(e as Error).message}`);
  }
  return model;
}
