/**
 * Terrain primitives (src-worker/primitives/primitive.ts): a row per primitive (class name,
 * box extents, the model and log it came from, and a `source` JSON with the class id, library,
 * kind, counts and provenance) and its element arrays in primitive_arrays, each under a fixed
 * name. A batch of primitives (one extraction, one generated library) is written in one
 * transaction: all of them or none.
 */
import type Database from 'better-sqlite3';
import { ApiError, type PrimitiveData, type PrimitiveInfo } from '../api/contract';
import type { ArrayStore } from './array-store';
import { EntityRows } from './entity-rows';
import { checkPrimitive, primitiveCounts, type Primitive, type PrimitiveSource } from '../../src-common/primitive';
import { referenceClassName } from '../../src-common/classes';
import { writeTransaction } from './write-transaction';

interface PrimitiveRow {
  id: number;
  class: string;
  extents: string;
  model_id: number | null;
  source_log_id: number | null;
  source: string;
  created_at: string;
}

/** What the `source` JSON column holds. */
interface SourceJson {
  classId: number;
  library: 'hybrid' | 'mesh';
  kind: PrimitiveSource;
  counts: PrimitiveInfo['counts'];
  origin: Record<string, unknown>;
}

export interface NewPrimitive {
  primitive: Primitive;
  library: 'hybrid' | 'mesh';
  modelId: number | null;
  sourceLogId: number | null;
  /** Extra provenance kept with the primitive's origin (annotation id, generator seed …). */
  origin?: Record<string, unknown>;
}

const COLUMNS = 'id, class, extents, model_id, source_log_id, source, created_at';

/** Array names in primitive_arrays. */
const A = {
  ellipsoidMeans: 'ellipsoids.means',
  ellipsoidCovariances: 'ellipsoids.covariances',
  ellipsoidPHit: 'ellipsoids.pHit',
  voxelMeans: 'voxels.means',
  voxelCovariances: 'voxels.covariances',
  voxelPermeability: 'voxels.permeability',
  triangles: 'triangles',
  reflectance: 'reflectance',
  points: 'points',
} as const;

function toInfo(r: PrimitiveRow): PrimitiveInfo {
  const src = JSON.parse(r.source) as Partial<SourceJson>;
  return {
    id: r.id,
    class: src.classId ?? 0,
    label: r.class,
    extents: JSON.parse(r.extents) as [number, number, number],
    library: src.library ?? 'hybrid',
    source: src.kind ?? 'object',
    modelId: r.model_id,
    sourceLogId: r.source_log_id,
    counts: src.counts ?? { ellipsoids: 0, voxels: 0, triangles: 0, points: 0 },
    origin: src.origin ?? {},
    createdAt: r.created_at,
  };
}

export class PrimitivesRepository extends EntityRows<PrimitiveRow, PrimitiveInfo> {
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly arrays: ArrayStore,
  ) {
    super(db, { table: 'primitives', columns: COLUMNS, visible: "status = 'ready'" }, toInfo);
    this.stmts = {
      insert: db.prepare<[string, string, number | null, number | null, string, string, number | null]>(
        `INSERT INTO primitives (class, extents, model_id, source_log_id, source, status, job_id) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      publish: db.prepare<[number | null, number | null, number]>(
        `UPDATE primitives SET status = 'ready', source = CASE WHEN ? IS NULL THEN source ELSE json_set(source, '$.origin.annotationId', ?) END
         WHERE id = ? AND status = 'writing'`,
      ),
      discard: db.prepare<[number]>(`DELETE FROM primitives WHERE id = ? AND status = 'writing'`),
      // Primitives being written whose job is no longer live (recover() has just interrupted orphans).
      discardWriting: db.prepare<[]>(
        `DELETE FROM primitives WHERE status = 'writing'
           AND (job_id IS NULL OR job_id NOT IN (SELECT id FROM jobs WHERE state IN ('queued', 'running')))`,
      ),
    };
  }

  /** Every primitive of the batch with its arrays, in one transaction; their infos in order. */
  createMany(batch: readonly NewPrimitive[]): PrimitiveInfo[] {
    for (const b of batch) checkPrimitive(b.primitive);
    return writeTransaction(this.db, () =>
      batch.map((b) => {
        const id = this.insertRow(b, 'ready', null);
        for (const [name, array] of arraysOf(b.primitive)) this.arrays.writeArray(id, name, array);
        return this.get(id)!;
      }),
    );
  }

  /**
   * The same, a piece at a time: the rows hidden ('writing'), every array one storage chunk per
   * turn of the event loop; `publishMany` makes them visible (inside the transaction of the rows
   * that come with them). On failure the staged rows go. Returns their ids in order.
   */
  async stageMany(batch: readonly NewPrimitive[], jobId: number | null): Promise<number[]> {
    for (const b of batch) checkPrimitive(b.primitive);
    const ids = writeTransaction(this.db, () => batch.map((b) => this.insertRow(b, 'writing', jobId)));
    try {
      for (let k = 0; k < batch.length; k++) {
        for (const [name, array] of arraysOf(batch[k]!.primitive)) await this.arrays.writeArrayInTurns(ids[k]!, name, array);
      }
      return ids;
    } catch (e) {
      this.discardMany(ids);
      throw e;
    }
  }

  /** Makes staged primitives visible; `annotationId`, when given, becomes their origin's annotation. */
  publishMany(ids: readonly number[], annotationId: number | null = null): PrimitiveInfo[] {
    return ids.map((id) => {
      if (this.stmts.publish.run(annotationId, annotationId, id).changes !== 1) throw new ApiError('internal', `primitive ${id} is not being written`);
      return this.get(id)!;
    });
  }

  /** Drops staged primitives that will not be published (their arrays cascade). */
  discardMany(ids: readonly number[]): void {
    writeTransaction(this.db, () => ids.forEach((id) => this.stmts.discard.run(id)));
  }

  /** Drops the primitives still being written by jobs no longer live (on open, after interrupting orphans). */
  discardUnfinished(): number {
    return this.stmts.discardWriting.run().changes;
  }

  private insertRow(b: NewPrimitive, status: 'writing' | 'ready', jobId: number | null): number {
    const p = b.primitive;
    const source: SourceJson = {
      classId: p.class,
      library: b.library,
      kind: p.source,
      counts: primitiveCounts(p),
      origin: { ...(p.origin ?? {}), ...(b.origin ?? {}) },
    };
    return Number(this.stmts.insert.run(referenceClassName(p.class), JSON.stringify(p.extents), b.modelId, b.sourceLogId, JSON.stringify(source), status, jobId).lastInsertRowid);
  }

  /** A primitive with its elements (fresh buffers), as the compute side uses it. */
  primitive(id: number): Primitive | null {
    const info = this.get(id);
    if (!info) return null;
    const d = this.data(info);
    const p: Primitive = { id, class: info.class, extents: info.extents, source: info.source };
    if (d.ellipsoids) p.ellipsoids = d.ellipsoids;
    if (d.voxels) p.voxels = d.voxels;
    if (d.triangles) p.triangles = d.triangles;
    if (d.reflectance) p.reflectance = d.reflectance;
    if (d.points) p.points = d.points;
    try {
      checkPrimitive(p);
    } catch (e) {
      throw new ApiError('internal', `stored ${(e as Error).message}`);
    }
    return p;
  }

  /** The info with the element arrays (null where the primitive has none of a kind). */
  data(info: PrimitiveInfo): PrimitiveData {
    const id = info.id;
    const f64 = (name: string) => this.arrays.readArray(id, name, 'f64');
    const f32 = (name: string) => this.arrays.readArray(id, name, 'f32');
    const em = f64(A.ellipsoidMeans), ec = f64(A.ellipsoidCovariances), ep = f32(A.ellipsoidPHit);
    const vm = f64(A.voxelMeans), vc = f64(A.voxelCovariances), vp = f32(A.voxelPermeability);
    return {
      ...info,
      ellipsoids: em && ec && ep ? { means: em, covariances: ec, pHit: ep } : null,
      voxels: vm && vc && vp ? { means: vm, covariances: vc, permeability: vp } : null,
      triangles: f32(A.triangles),
      reflectance: f32(A.reflectance),
      points: f32(A.points),
    };
  }

  /** Deletes the listed primitives (their arrays cascade); how many existed. */
  deleteMany(ids: readonly number[]): number {
    return writeTransaction(this.db, () => ids.reduce((n, id) => n + (this.delete(id) ? 1 : 0), 0));
  }
}

/** A primitive's arrays as stored, by name (the kinds it has, non-empty). */
function arraysOf(p: Primitive): [string, Float32Array | Float64Array][] {
  const named: [string, Float32Array | Float64Array | undefined][] = [
    [A.ellipsoidMeans, p.ellipsoids?.means],
    [A.ellipsoidCovariances, p.ellipsoids?.covariances],
    [A.ellipsoidPHit, p.ellipsoids?.pHit],
    [A.voxelMeans, p.voxels?.means],
    [A.voxelCovariances, p.voxels?.covariances],
    [A.voxelPermeability, p.voxels?.permeability],
    [A.triangles, p.triangles],
    [A.reflectance, p.reflectance],
    [A.points, p.points],
  ];
  return named.filter((e): e is [string, Float32Array | Float64Array] => !!e[1] && e[1].length > 0);
}
