/**
 * Fitted models written a chunk per turn of the event loop: hidden until published, read back as
 * written, and dropped on the next open when their host stopped mid-write.
 */
import { describe, expect, it } from 'vitest';
import type { ModelArrays } from '../../../src-common/fitted-model';
import { openProject } from '../../../src-main/store';
import { useTempDir } from './helpers';

/** A consistent model of t triangles, e ellipsoids and v voxels, values from their index. */
function modelArrays(t: number, e: number, v: number): ModelArrays {
  const f32 = (n: number) => Float32Array.from({ length: n }, (_, i) => i * 0.5);
  const f64 = (n: number) => Float64Array.from({ length: n }, (_, i) => i * 0.25);
  const i32 = (n: number) => Int32Array.from({ length: n }, (_, i) => i % 7);
  const u32 = (n: number) => Uint32Array.from({ length: n }, (_, i) => i * 3);
  return {
    groundPositions: f32(9 * t), groundPHit: f32(t), groundBlock: i32(t), groundHits: u32(t), groundMisses: u32(t),
    ellipsoidMeans: f64(3 * e), ellipsoidCovariances: f64(6 * e), ellipsoidPHit: f32(e), ellipsoidBlock: i32(e), ellipsoidPoints: u32(e), ellipsoidHits: u32(e), ellipsoidMisses: u32(e),
    voxelMeans: f64(3 * v), voxelCovariances: f64(6 * v), voxelPermeability: f32(v), voxelBlock: i32(v), voxelPoints: u32(v), voxelEnds: u32(v), voxelPasses: u32(v),
  };
}

const NEW = { name: 'm', kind: 'hybrid', sourceLogId: null, params: { seed: 1 }, report: { counts: { triangles: 200_000 } }, jobId: null };

describe('fitted models written in turns', () => {
  const tmp = useTempDir();

  it('store what create stores, invisible until the last step', async () => {
    const store = openProject(tmp.file('m.thicket'), { create: true });
    try {
      const arrays = modelArrays(200_000, 5_000, 20_000); // groundPositions alone is 7.2 MB: two storage chunks
      const trail = Float64Array.from({ length: 70 }, (_, i) => i);
      const writing = store.models.createInTurns(NEW, arrays, trail);
      await new Promise((r) => setImmediate(r));
      expect(store.models.list()).toEqual([]); // mid-write: hidden
      expect(store.counts().models).toBe(0);
      const info = await writing;
      expect(store.models.list().map((m) => m.id)).toEqual([info.id]);
      expect(store.models.arrays(info.id)).toEqual(arrays);
      expect(await store.models.arraysInTurns(info.id)).toEqual(arrays);
      expect(Array.from(store.models.trail(info.id))).toEqual(Array.from(trail));
    } finally {
      store.close();
    }
  });

  it('keep the hit cells of a model that has them, and read a model without them as without', async () => {
    const store = openProject(tmp.file('cells.thicket'), { create: true });
    try {
      const plain = modelArrays(10, 3, 2);
      const withCells: ModelArrays = {
        ...plain,
        ellipsoidCellStart: Uint32Array.of(0, 2, 2, 5), ellipsoidCellKey: Uint16Array.of(3, 4000, 1, 2, 65000),
        ellipsoidCellHits: Uint32Array.of(1, 0, 7, 2, 9), ellipsoidCellPasses: Uint32Array.of(0, 5, 1, 1, 0),
      };
      const a = store.models.create(NEW, { ...withCells, groundPHitReturned: Float32Array.from({ length: 10 }, (_, i) => i / 10) }, new Float64Array(0));
      const b = await store.models.createInTurns(NEW, plain, new Float64Array(0));
      expect(store.models.arrays(a.id)).toEqual({ ...withCells, groundPHitReturned: Float32Array.from({ length: 10 }, (_, i) => i / 10) });
      expect((await store.models.arraysInTurns(a.id)).groundPHitReturned?.length).toBe(10);
      const read = store.models.arrays(b.id);
      expect(read).toEqual(plain);
      expect('ellipsoidCellStart' in read).toBe(false);
      // Rows that do not fit the ellipsoids are refused before anything is written.
      const before = store.models.list().length;
      expect(() => store.models.create(NEW, { ...withCells, ellipsoidCellStart: Uint32Array.of(0, 2, 5) }, new Float64Array(0))).toThrow(/ellipsoidCellStart has 3 values, expected 4/);
      expect(() => store.models.create(NEW, { ...plain, ellipsoidCellKey: Uint16Array.of(1) }, new Float64Array(0))).toThrow(/1 of the 4 ellipsoid hit-cell arrays/);
      expect(store.models.list().length).toBe(before);
    } finally {
      store.close();
    }
  });

  it('a model left half-written is dropped on the next open', async () => {
    const file = tmp.file('crash.thicket');
    let store = openProject(file, { create: true });
    const writing = store.models.createInTurns(NEW, modelArrays(200_000, 10, 10), new Float64Array(7));
    await new Promise((r) => setImmediate(r));
    // The host stops mid-write: the connection closes under the pending write, which then fails.
    store.close();
    await writing.catch(() => undefined);
    store = openProject(file, { create: false });
    try {
      expect(store.recovery.discardedModels).toBe(1);
      expect(store.models.list()).toEqual([]);
      expect(store.arrays('model_arrays').listArrays(1)).toEqual([]);
    } finally {
      store.close();
    }
  });
});
